import { useId, useState } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  EDITABLE_SETTINGS_GROUPS,
  SETTINGS_GROUP_ACCESS,
  SETTINGS_GROUP_LABELS,
  SETTINGS_GROUPS,
  type EditableSettingsGroup,
  type SettingsChange,
  type SettingsGroupView,
  type SettingsHistoryEntry,
} from '@claims/contracts';
import { settingsLeaves } from '@claims/domain';
import { errorText } from '@claims/ui';
import { formatDateTime, humanizeCode } from '@claims/format';
import { Alert, Page } from '@claims/ui/components';
import { api } from '../shared/api.js';
import { useMe } from '../shared/session.js';
import { StorePicker } from '../shared/components/StorePicker.js';
import { Fact } from '../shared/components/ui.js';
import { displayScalar, fieldLabel } from './store-settings/settingsFields.js';
import { SettingsGroupForm } from './store-settings/SettingsGroupForm.js';
import { MetadataForm } from './store-settings/MetadataForm.js';
import { storeSettingsQueries } from './queries.js';
import { NoStorePage } from '../shared/components/NoStorePage.js';

const GENERAL_LABELS: Record<string, string> = {
  name: 'Name',
  slug: 'Slug',
  domain: 'Portal domain',
  currency: 'Currency',
};

/** A field's label in a group's facts: the form's label for editable groups, plain words otherwise. */
function labelOf(view: SettingsGroupView, path: string): string {
  if (view.group === 'general') return GENERAL_LABELS[path] ?? path;
  if (view.group === 'branding') return humanizeCode(path.replace(/\./g, ' ').replace(/([a-z])([A-Z0-9])/g, '$1 $2'));
  return fieldLabel(view.group, path);
}

/** A group the user may read but not change: its values as a list of facts. */
function GroupFacts({ view }: { view: SettingsGroupView }) {
  const leaves = [...settingsLeaves(view.value)];
  if (leaves.length === 0) return <p className="muted">Nothing set.</p>;
  return (
    <dl className="facts">
      {leaves.map(([path, value]) => (
        <Fact key={path} term={labelOf(view, path)}>
          {displayScalar(value)}
        </Fact>
      ))}
    </dl>
  );
}

/** Who changed a group, when, and which fields, newest first. */
function GroupHistory({ group, entries }: { group: EditableSettingsGroup; entries: readonly SettingsHistoryEntry[] }) {
  return (
    <details>
      <summary>Change history ({entries.length})</summary>
      <ol className="plain stack">
        {entries.map((entry) => (
          <li key={entry.version}>
            <p className="hint">
              Version {entry.version} · <time dateTime={entry.at}>{formatDateTime(entry.at)}</time> ·{' '}
              {entry.actor.name ?? entry.actor.id}
            </p>
            {entry.kind === 'initialized' ? (
              <p>First version recorded.</p>
            ) : (
              <ul>
                {entry.changes.map((change) => (
                  <li key={change.field}>
                    {fieldLabel(group, change.field)}: {displayScalar(change.from)} → {displayScalar(change.to)}
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
    </details>
  );
}

function SettingsSection({
  storeId,
  version,
  view,
  history,
  onSaved,
}: {
  storeId: string;
  version: number;
  view: SettingsGroupView;
  history: readonly SettingsHistoryEntry[] | undefined;
  onSaved: (message: string) => void;
}) {
  const id = useId();
  const client = useQueryClient();
  const label = SETTINGS_GROUP_LABELS[view.group];
  const save = useMutation({
    mutationFn: (change: SettingsChange) => api.changeSettings(storeId, change, version),
    onSuccess: async () => {
      onSaved(`${label} settings saved.`);
      await client.invalidateQueries({ queryKey: storeSettingsQueries.all(storeId) });
    },
  });
  const editable = view.updatable && view.group !== 'general' && view.group !== 'branding';
  const formKey = `${view.group}:${view.lastChange?.version ?? 0}`;
  let body = <GroupFacts view={view} />;
  if (editable && view.group === 'metadata') {
    body = (
      <MetadataForm
        key={formKey}
        entries={view.value.entries}
        busy={save.isPending}
        onSave={(change) => save.mutate(change)}
      />
    );
  } else if (editable && view.group !== 'metadata') {
    body = (
      <SettingsGroupForm
        key={formKey}
        group={view.group}
        value={view.value}
        busy={save.isPending}
        onSave={(change) => save.mutate(change)}
      />
    );
  }
  const versioned = view.group !== 'general' && view.group !== 'branding';
  return (
    <section className="card stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{label}</h2>
      {view.lastChange ? (
        <p className="hint">
          Last changed <time dateTime={view.lastChange.at}>{formatDateTime(view.lastChange.at)}</time> by{' '}
          {view.lastChange.actor.name ?? view.lastChange.actor.id}
        </p>
      ) : null}
      {!view.updatable && versioned ? (
        <p className="hint">
          You may read these settings; changing them needs {SETTINGS_GROUP_ACCESS[view.group].update}.
        </p>
      ) : null}
      {view.group === 'branding' ? <p className="hint">The branding editor changes these.</p> : null}
      {body}
      {save.isError ? <Alert>{errorText(save.error)}</Alert> : null}
      {versioned && history ? (
        <GroupHistory group={view.group} entries={history.filter((entry) => entry.group === view.group)} />
      ) : null}
    </section>
  );
}

/** `/admin/settings`: a store's settings, one section per group the user may read, editable where they may update it. */
export function SettingsPage() {
  const me = useMe();
  const navigate = useNavigate();
  const search = useSearch({ from: '/app/settings' });
  const stores = me.stores.filter((s) =>
    SETTINGS_GROUPS.some((group) => s.permissions.includes(SETTINGS_GROUP_ACCESS[group].read)),
  );
  const store = stores.find((s) => s.id === search.store) ?? stores[0];
  const storeId = store?.id ?? '';
  const settings = useQuery({ ...storeSettingsQueries.current(storeId), enabled: Boolean(store) });
  const mayReadHistory = EDITABLE_SETTINGS_GROUPS.some((group) =>
    store?.permissions.includes(SETTINGS_GROUP_ACCESS[group].read),
  );
  const history = useQuery({ ...storeSettingsQueries.history(storeId), enabled: Boolean(store) && mayReadHistory });
  const [notice, setNotice] = useState<string | null>(null);
  if (!store) return <NoStorePage title="Settings" what="settings" />;
  return (
    <Page title={`Settings of ${store.name}`}>
      <StorePicker
        stores={stores}
        value={storeId}
        onChange={(next) => {
          setNotice(null);
          void navigate({ to: '/settings', search: { store: next } });
        }}
      />
      <div role="status">{notice ? <p className="alert alert-success">{notice}</p> : null}</div>
      {settings.isPending ? (
        <p role="status" className="muted">
          Loading the settings…
        </p>
      ) : null}
      {settings.isError ? <Alert>The settings could not be loaded: {errorText(settings.error)}</Alert> : null}
      {history.isError ? <Alert>The change history could not be loaded: {errorText(history.error)}</Alert> : null}
      {settings.data ? (
        <div className="stack">
          {settings.data.groups.map((view) => (
            <SettingsSection
              key={view.group}
              storeId={storeId}
              version={settings.data.version}
              view={view}
              history={history.data?.entries}
              onSaved={setNotice}
            />
          ))}
        </div>
      ) : null}
    </Page>
  );
}
