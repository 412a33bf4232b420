import { useId, useMemo, useState, type FormEvent } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  API_TOKEN_EXPIRY_WARNING_DAYS,
  CreateApiTokenRequest,
  DEFAULT_API_TOKEN_LIFETIME_DAYS,
  MAX_API_TOKEN_LIFETIME_DAYS,
  type ApiTokenSummary,
  type CreateApiTokenResponse,
} from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDateTime, pluralize } from '@claims/format';
import { api } from '../shared/api.js';
import { can, storesWith, useMe } from '../shared/session.js';
import { Alert, ColumnHeads, EmptyState, Page, Skeleton, Table } from '@claims/ui/components';
import { Dialog } from '../shared/components/Dialog.js';
import { Badge } from '../shared/components/ui.js';
import { ConfirmDialog } from '../shared/components/ConfirmDialog.js';
import { SecretValue } from './secrets/SecretValue.js';
import { StorePicker } from '../shared/components/StorePicker.js';
import { apiTokenQueries } from './queries.js';
import { ProblemList } from '../shared/components/ProblemList.js';
import { Options } from '../shared/components/Options.js';
import { NoStorePage } from '../shared/components/NoStorePage.js';

const time = (iso: string | null) => (iso ? <time dateTime={iso}>{formatDateTime(iso)}</time> : '—');

const DAY_MS = 86_400_000;
/** The lifetimes offered when creating a token; the server's default first. */
const LIFETIMES_DAYS = [DEFAULT_API_TOKEN_LIFETIME_DAYS, 30, 180, MAX_API_TOKEN_LIFETIME_DAYS];

/** Whole days until the token expires (0 within the last day), or null for a token that never expires. */
const daysLeft = (token: ApiTokenSummary, now: number) =>
  token.expiresAt ? Math.floor((Date.parse(token.expiresAt) - now) / DAY_MS) : null;

/** A token about to expire: still active, and expiring within the warning period. */
const expiresSoon = (token: ApiTokenSummary, now: number) => {
  const left = daysLeft(token, now);
  return (
    !token.revokedAt && left !== null && Date.parse(token.expiresAt!) > now && left < API_TOKEN_EXPIRY_WARNING_DAYS
  );
};

function TokenState({ token, now }: { token: ApiTokenSummary; now: number }) {
  if (token.revokedAt) return <Badge tone="neutral">revoked</Badge>;
  if (token.expiresAt && Date.parse(token.expiresAt) <= now) return <Badge tone="neutral">expired</Badge>;
  if (expiresSoon(token, now)) {
    const left = daysLeft(token, now)!;
    return <Badge tone="warning">{left === 0 ? 'expires today' : `expires in ${pluralize(left, 'day')}`}</Badge>;
  }
  return <Badge tone="success">active</Badge>;
}

/** Name and permissions: only permissions the user holds on this store are offered (the server refuses others). */
function CreateTokenForm({
  storeId,
  held,
  onCreated,
}: {
  storeId: string;
  held: readonly string[];
  onCreated: (token: CreateApiTokenResponse) => void;
}) {
  const id = useId();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [lifetimeDays, setLifetimeDays] = useState(DEFAULT_API_TOKEN_LIFETIME_DAYS);
  const [filter, setFilter] = useState('');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set());
  const [problems, setProblems] = useState<string[]>([]);
  const sorted = useMemo(() => [...held].sort(), [held]);
  const shown = sorted.filter((p) => p.includes(filter.trim().toLowerCase()));
  const create = useMutation({
    mutationFn: (body: CreateApiTokenRequest) => api.createApiToken(storeId, body),
    onSuccess: async (token) => {
      setName('');
      setLifetimeDays(DEFAULT_API_TOKEN_LIFETIME_DAYS);
      setChosen(new Set());
      setFilter('');
      onCreated(token);
      await client.invalidateQueries({ queryKey: apiTokenQueries.of(storeId).queryKey });
    },
  });
  function toggle(permission: string, on: boolean) {
    setChosen((previous) => {
      const next = new Set(previous);
      if (on) next.add(permission);
      else next.delete(permission);
      return next;
    });
  }
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const expiresAt = new Date(Date.now() + lifetimeDays * DAY_MS).toISOString();
    const parsed = CreateApiTokenRequest.safeParse({
      name,
      permissions: sorted.filter((p) => chosen.has(p)),
      expiresAt,
    });
    if (!parsed.success) {
      setProblems(
        parsed.error.issues.map((i) =>
          i.path[0] === 'name' ? 'Name the token (up to 100 characters).' : 'Choose at least one permission.',
        ),
      );
      return;
    }
    setProblems([]);
    create.mutate(parsed.data);
  }
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Create a token</h2>
      <form className="stack" onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-name`}>Token name</label>
          <input
            id={`${id}-name`}
            type="text"
            maxLength={100}
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-describedby={`${id}-name-hint`}
          />
          <p id={`${id}-name-hint`} className="hint">
            What uses it, e.g. "Warehouse sync".
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-lifetime`}>Expires after</label>
          <select
            id={`${id}-lifetime`}
            value={lifetimeDays}
            onChange={(e) => setLifetimeDays(Number(e.target.value))}
            aria-describedby={`${id}-lifetime-hint`}
          >
            <Options values={LIFETIMES_DAYS} label={(days) => pluralize(days, 'day')} />
          </select>
          <p id={`${id}-lifetime-hint`} className="hint">
            Then the token is refused; create a new one before and replace it where it is used.
          </p>
        </div>
        <fieldset className="field">
          <legend>
            Permissions{' '}
            <span className="muted">
              ({chosen.size} of {sorted.length} chosen)
            </span>
          </legend>
          <p className="hint" id={`${id}-perm-hint`}>
            A token can have only permissions you hold on this store.
          </p>
          <div className="inline-form">
            <div className="field">
              <label htmlFor={`${id}-filter`}>Filter permissions</label>
              <input id={`${id}-filter`} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
            </div>
            <button
              type="button"
              className="button button-secondary"
              onClick={() => setChosen((c) => new Set([...c, ...shown]))}
            >
              Choose all shown
            </button>
            <button type="button" className="button button-secondary" onClick={() => setChosen(new Set())}>
              Clear
            </button>
          </div>
          <div
            className="permission-list"
            role="group"
            aria-describedby={`${id}-perm-hint`}
            aria-label="Permissions to give the token"
          >
            {shown.map((permission) => (
              <label key={permission} className="checkbox">
                <input
                  type="checkbox"
                  checked={chosen.has(permission)}
                  onChange={(e) => toggle(permission, e.target.checked)}
                />
                <code>{permission}</code>
              </label>
            ))}
            {shown.length === 0 ? <p className="muted">No permission matches the filter.</p> : null}
          </div>
        </fieldset>
        <ProblemList problems={problems} />
        {create.isError ? <Alert>{errorText(create.error)}</Alert> : null}
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={create.isPending}>
            Create token
          </button>
        </div>
      </form>
    </section>
  );
}

/** `/admin/api-tokens`: a store's API tokens — create (shown once), list, revoke. */
export function ApiTokensPage() {
  const me = useMe();
  const navigate = useNavigate();
  const search = useSearch({ from: '/app/api-tokens' });
  const client = useQueryClient();
  const stores = storesWith(me, 'api-tokens:read');
  const store = stores.find((s) => s.id === search.store) ?? stores[0];
  const storeId = store?.id ?? '';
  const tokens = useQuery({ ...apiTokenQueries.of(storeId), enabled: Boolean(store) });
  const [created, setCreated] = useState<CreateApiTokenResponse | null>(null);
  const [revoking, setRevoking] = useState<ApiTokenSummary | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const now = tokens.dataUpdatedAt || Date.now();
  const soon = tokens.data ? tokens.data.data.filter((t) => expiresSoon(t, now)) : [];
  const revoke = useMutation({
    mutationFn: (token: ApiTokenSummary) => api.revokeApiToken(storeId, token.id),
    onSuccess: async (_, token) => {
      setRevoking(null);
      setNotice(`The token "${token.name}" was revoked; it is refused from now on.`);
      await client.invalidateQueries({ queryKey: apiTokenQueries.of(storeId).queryKey });
    },
  });
  if (!store) return <NoStorePage title="API tokens" what="API tokens" />;
  const mayRevoke = can(me, 'api-tokens:delete', storeId);
  return (
    <Page title={`API tokens of ${store.name}`}>
      <StorePicker
        stores={stores}
        value={storeId}
        onChange={(next) => void navigate({ to: '/api-tokens', search: { store: next } })}
      />
      <p className="hint">
        Tokens call the public API (<code>/api/v1</code>) as this store, with the permissions they were given.
      </p>
      <div role="status">{notice ? <p className="alert alert-success">{notice}</p> : null}</div>
      {can(me, 'api-tokens:create', storeId) ? (
        <CreateTokenForm
          key={storeId}
          storeId={storeId}
          held={store.permissions}
          onCreated={(t) => {
            setNotice(null);
            setCreated(t);
          }}
        />
      ) : null}
      <section className="stack" aria-labelledby="tokens-title">
        <h2 id="tokens-title">Tokens</h2>
        {tokens.isPending ? <Skeleton label="Loading the tokens…" /> : null}
        {tokens.isError ? <Alert>The tokens could not be loaded: {tokens.error.message}</Alert> : null}
        {tokens.data && tokens.data.data.length === 0 ? (
          <EmptyState title="No tokens yet.">
            {can(me, 'api-tokens:create', storeId) ? (
              <p>Create a token above to let another system call this store&apos;s API.</p>
            ) : null}
          </EmptyState>
        ) : null}
        {soon.length > 0 ? (
          <Alert tone="warning">
            {soon.length === 1 ? `The token "${soon[0]!.name}" expires` : `${soon.length} tokens expire`} within{' '}
            {API_TOKEN_EXPIRY_WARNING_DAYS} days: create a new one and replace it where it is used before then.
          </Alert>
        ) : null}
        {tokens.data && tokens.data.data.length > 0 ? (
          <Table caption={`API tokens of ${store.name}`} captionHidden className="claims-table">
            <ColumnHeads
              columns={['Name', 'Starts with', 'Permissions', 'Created', 'Last used', 'Expires', 'Status']}
              actions={mayRevoke}
            />
            <tbody>
              {tokens.data.data.map((token) => (
                <tr key={token.id}>
                  <th scope="row">{token.name}</th>
                  <td>
                    <code>{token.prefix}…</code>
                  </td>
                  <td>
                    <details>
                      <summary>
                        {pluralize(token.permissions.length, 'permission')}
                        <span className="visually-hidden"> of {token.name}</span>
                      </summary>
                      <ul className="plain">
                        {token.permissions.map((p) => (
                          <li key={p}>
                            <code>{p}</code>
                          </li>
                        ))}
                      </ul>
                    </details>
                  </td>
                  <td>
                    {time(token.createdAt)} <span className="muted">by {token.createdBy.name}</span>
                  </td>
                  <td>{time(token.lastUsedAt)}</td>
                  <td>{token.expiresAt ? time(token.expiresAt) : 'never'}</td>
                  <td>
                    <TokenState token={token} now={now} />
                  </td>
                  {mayRevoke ? (
                    <td>
                      {token.revokedAt ? null : (
                        <button
                          type="button"
                          className="button button-link"
                          onClick={() => {
                            revoke.reset();
                            setRevoking(token);
                          }}
                        >
                          Revoke<span className="visually-hidden"> {token.name}</span>
                        </button>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </Table>
        ) : null}
      </section>
      <Dialog open={created !== null} title="Token created" onClose={() => setCreated(null)}>
        <p>
          The token <strong>{created?.name}</strong> is ready. Send it as <code>Authorization: Bearer …</code>.
        </p>
        {created ? <SecretValue label="API token" value={created.token} /> : null}
        <div className="actions">
          <button type="button" className="button button-primary" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      </Dialog>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke "${revoking?.name ?? 'token'}"?`}
        confirmLabel="Revoke token"
        busy={revoke.isPending}
        onConfirm={() => {
          if (revoking) revoke.mutate(revoking);
        }}
        onClose={() => setRevoking(null)}
      >
        <p>Anything using this token is refused (401) at once. This cannot be undone.</p>
        {revoke.isError ? <Alert>{errorText(revoke.error)}</Alert> : null}
      </ConfirmDialog>
    </Page>
  );
}
