import { useId, useState, type FormEvent } from 'react';
import * as Menu from '@radix-ui/react-dropdown-menu';
import { Link } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SavedView } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { Alert } from '@claims/ui/components';
import { api } from '../../shared/api.js';
import { compact, QueueSearch } from './search.js';
import { claimQueries } from '../queries.js';

/** A view's filters as the queue's URL: a view saved by an older shape keeps what still parses. */
const searchOf = (view: SavedView) => compact(QueueSearch.parse(view.filters));

/**
 * Saved views, kept on the server (each of yours with a Radix menu of what you may do with it): yours (which you may share with your team, stop sharing or delete)
 * and those your teammates share with you (which you open, not change).
 */
export function SavedViews({ search }: { search: QueueSearch }) {
  const id = useId();
  const client = useQueryClient();
  const views = useQuery(claimQueries.savedViews());
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const done = async (message: string) => {
    setProblem(null);
    setNote(message);
    await client.invalidateQueries({ queryKey: claimQueries.savedViews().queryKey });
  };
  const failed = (error: unknown) => {
    setNote(null);
    setProblem(errorText(error, 'The view could not be saved.'));
  };
  const create = useMutation({
    mutationFn: (input: { name: string; shared: boolean }) =>
      api.createSavedView({ ...input, filters: compact(search) }),
    onSuccess: async (view) => {
      setName('');
      setShared(false);
      await done(`Saved the view "${view.name}"${view.shared ? ', shared with your team' : ''}.`);
    },
    onError: failed,
  });
  const share = useMutation({
    mutationFn: (view: SavedView) =>
      api.updateSavedView(view.id, { name: view.name, filters: view.filters, shared: !view.shared }),
    onSuccess: (view) =>
      done(
        view.shared
          ? `The view "${view.name}" is shared with your team.`
          : `The view "${view.name}" is yours alone again.`,
      ),
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: (view: SavedView) => api.deleteSavedView(view.id).then(() => view),
    onSuccess: (view) => done(`Deleted the view "${view.name}".`),
    onError: failed,
  });

  function onSave(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setNote(null);
      setProblem('Name the view first.');
      return;
    }
    create.mutate({ name: trimmed, shared });
  }

  const mine = views.data?.data.filter((v) => v.mine) ?? [];
  const team = views.data?.data.filter((v) => !v.mine) ?? [];
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Saved views</h2>
      {views.isError ? <Alert>The saved views could not be loaded: {views.error.message}</Alert> : null}
      {views.isPending ? <p className="muted">Loading saved views…</p> : null}
      {views.isSuccess && views.data.data.length === 0 ? <p className="muted">No saved views yet.</p> : null}
      {mine.length > 0 ? (
        <>
          <h3 className="subheading">Yours</h3>
          <ul className="saved-views">
            {mine.map((view) => (
              <li key={view.id}>
                <Link to="/" search={searchOf(view)}>
                  {view.name}
                </Link>
                {view.shared ? <span className="muted">(shared)</span> : null}
                {/* Not modal: a modal menu locks the page's scroll with an injected <style>, which the CSP refuses. */}
                <Menu.Root modal={false}>
                  <Menu.Trigger className="button button-link" aria-label={`Actions for view ${view.name}`}>
                    Actions ▾
                  </Menu.Trigger>
                  <Menu.Portal>
                    <Menu.Content className="menu" align="start" sideOffset={4}>
                      <Menu.Item className="menu-item" disabled={share.isPending} onSelect={() => share.mutate(view)}>
                        {view.shared ? 'Stop sharing' : 'Share with team'}
                      </Menu.Item>
                      <Menu.Item className="menu-item" disabled={remove.isPending} onSelect={() => remove.mutate(view)}>
                        Delete
                      </Menu.Item>
                    </Menu.Content>
                  </Menu.Portal>
                </Menu.Root>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {team.length > 0 ? (
        <>
          <h3 className="subheading">Shared by your team</h3>
          <ul className="saved-views">
            {team.map((view) => (
              <li key={view.id}>
                <Link to="/" search={searchOf(view)}>
                  {view.name}
                </Link>
                <span className="muted">by {view.owner.name}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <form className="inline-form" onSubmit={onSave}>
        <div className="field">
          <label htmlFor={`${id}-name`}>View name</label>
          <input id={`${id}-name`} type="text" value={name} maxLength={80} onChange={(e) => setName(e.target.value)} />
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} />
          Share with my team
        </label>
        <button type="submit" className="button button-secondary" disabled={create.isPending}>
          Save current filters
        </button>
      </form>
      {problem ? <Alert>{problem}</Alert> : null}
      <p role="status" className="muted">
        {note}
      </p>
    </section>
  );
}
