import { useId } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import type { SopInput, SopState, SopView } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDateTime } from '@claims/format';
import { Alert, EmptyState, Page, Skeleton } from '@claims/ui/components';
import { isHttpError } from '../shared/api.js';
import { can, storesWith, useMe } from '../shared/session.js';
import { StorePicker } from '../shared/components/StorePicker.js';
import { Badge, type BadgeTone } from '../shared/components/ui.js';
import { deskToolsApi } from './desk-tools/deskToolsApi.js';
import { EditDeleteButtons } from './desk-tools/EditDeleteButtons.js';
import { SopForm } from './desk-tools/SopForm.js';
import { useListEditing } from './desk-tools/useListEditing.js';
import { ConfirmDelete } from './desk-tools/ConfirmDelete.js';
import { sopQueries } from './queries.js';
import { NoStorePage } from '../shared/components/NoStorePage.js';

export const SopsSearch = z.object({ store: z.uuid().optional().catch(undefined) });

const STATE_TONES: Record<SopState, BadgeTone> = { draft: 'neutral', active: 'success', archived: 'warning' };
/** The state moves the server allows from each state (draft ↔ active → archived → draft), as buttons. */
const MOVES: Record<SopState, ReadonlyArray<{ to: SopState; label: string }>> = {
  draft: [
    { to: 'active', label: 'Publish' },
    { to: 'archived', label: 'Archive' },
  ],
  active: [
    { to: 'draft', label: 'Unpublish' },
    { to: 'archived', label: 'Archive' },
  ],
  archived: [{ to: 'draft', label: 'Restore as draft' }],
};

const failureText = (error: unknown) =>
  isHttpError(error, 409)
    ? 'Someone changed this SOP meanwhile. Look at the new version and try again.'
    : errorText(error);

/** `/admin/sops`: a store's standard operating procedures: write, edit, publish, archive, delete. */
export function SopsPage() {
  const me = useMe();
  const id = useId();
  const navigate = useNavigate();
  const search = useSearch({ from: '/app/sops' });
  const stores = storesWith(me, 'sop:read');
  const store = stores.find((s) => s.id === search.store) ?? stores[0];
  const storeId = store?.id ?? '';
  const sops = useQuery({ ...sopQueries.of(storeId), enabled: Boolean(store) });
  const tools = useListEditing<SopView, SopInput>({
    queryKey: sopQueries.of(storeId).queryKey,
    save: (input, sop) =>
      sop ? deskToolsApi.updateSop(storeId, sop.id, input, sop.version) : deskToolsApi.createSop(storeId, input),
    remove: (sop) => deskToolsApi.deleteSop(storeId, sop.id, sop.version),
    savedNotice: (saved, created) => `SOP "${saved.title}" ${created ? 'created as a draft' : 'saved'}.`,
    deletedNotice: (sop) => `SOP "${sop.title}" deleted.`,
    focusAfterDelete: () => document.getElementById(`${id}-list`)?.focus(),
    failureText,
  });
  const { editing, notice, setNotice, refresh, open, askDelete } = tools;
  const move = useMutation({
    mutationFn: ({ sop, to }: { sop: SopView; to: SopState }) =>
      deskToolsApi.setSopState(storeId, sop.id, to, sop.version),
    onSuccess: async (saved) => {
      setNotice(`SOP "${saved.title}" is now ${saved.state}.`);
      await refresh();
    },
  });
  if (!store) return <NoStorePage title="SOPs" what="SOPs" />;
  const mayCreate = can(me, 'sop:create', storeId);
  const mayUpdate = can(me, 'sop:update', storeId);
  const mayMove = can(me, 'sop:set-state', storeId);
  const mayDelete = can(me, 'sop:delete', storeId);
  const list = sops.data?.data ?? [];
  return (
    <Page title={`SOPs of ${store.name}`}>
      <StorePicker
        stores={stores}
        value={storeId}
        onChange={(next) => void navigate({ to: '/sops', search: { store: next } })}
      />
      <p className="hint">
        Standard operating procedures: how this store&apos;s claims are worked. A new SOP is a draft until it is
        published.
      </p>
      <div role="status">{notice ? <p className="alert alert-success">{notice}</p> : null}</div>
      {move.isError ? <Alert>{failureText(move.error)}</Alert> : null}
      <section className="stack" aria-labelledby={`${id}-list`}>
        <h2 id={`${id}-list`} tabIndex={-1}>
          Procedures
        </h2>
        {sops.isPending ? <Skeleton label="Loading the SOPs…" /> : null}
        {sops.isError ? <Alert>The SOPs could not be loaded: {errorText(sops.error)}</Alert> : null}
        {sops.isSuccess && list.length === 0 ? <EmptyState title="No SOPs yet." /> : null}
        {list.map((sop) => (
          <article key={sop.id} className="card" aria-labelledby={`${id}-${sop.id}`}>
            <h3 id={`${id}-${sop.id}`}>
              {sop.title} <Badge tone={STATE_TONES[sop.state]}>{sop.state}</Badge>
            </h3>
            <p className="muted">
              Updated <time dateTime={sop.updatedAt}>{formatDateTime(sop.updatedAt)}</time>
            </p>
            <p className="note-body">{sop.body}</p>
            <div className="row-actions">
              {mayMove
                ? MOVES[sop.state].map((m) => (
                    <button
                      key={m.to}
                      type="button"
                      className="button button-secondary"
                      disabled={move.isPending}
                      onClick={() => {
                        setNotice(null);
                        move.mutate({ sop, to: m.to });
                      }}
                    >
                      {m.label}
                      <span className="visually-hidden"> {sop.title}</span>
                    </button>
                  ))
                : null}
              <EditDeleteButtons
                name={sop.title}
                onEdit={mayUpdate && sop.state !== 'archived' ? () => open(sop) : null}
                onDelete={mayDelete ? () => askDelete(sop) : null}
              />
            </div>
          </article>
        ))}
      </section>
      {mayCreate && editing === null ? (
        <div className="actions">
          <button type="button" className="button" onClick={() => open('new')}>
            New SOP
          </button>
        </div>
      ) : null}
      {editing !== null ? (
        <SopForm
          key={editing === 'new' ? 'new' : `${editing.id}-${editing.version}`}
          sop={editing === 'new' ? null : editing}
          {...tools.formProps}
        />
      ) : null}
      <ConfirmDelete list={tools} title={(sop) => `Delete SOP ${sop.title}?`} confirmLabel="Delete SOP">
        <p>The procedure is removed for everyone on the team.</p>
      </ConfirmDelete>
    </Page>
  );
}
