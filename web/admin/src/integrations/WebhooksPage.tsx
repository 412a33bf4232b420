import { useState } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import type { CreateWebhookEndpointResponse, WebhookEndpoint } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDateTime } from '@claims/format';
import { Alert, ColumnHeads, EmptyState, Page, Skeleton, Table } from '@claims/ui/components';
import { Dialog } from '../shared/components/Dialog.js';
import { can, storesWith, useMe } from '../shared/session.js';
import { Badge } from '../shared/components/ui.js';
import { SecretValue } from './secrets/SecretValue.js';
import { StorePicker } from '../shared/components/StorePicker.js';
import { AddEndpointForm } from './webhooks/AddEndpointForm.js';
import { EndpointPanel } from './webhooks/EndpointPanel.js';
import { webhookQueries } from './queries.js';
import { NoStorePage } from '../shared/components/NoStorePage.js';

const ENDPOINTS_REFRESH_MS = 5_000;

export const WebhooksSearch = z.object({
  store: z.uuid().optional().catch(undefined),
  /** The endpoint whose actions and delivery log are open. */
  endpoint: z.uuid().optional().catch(undefined),
});

const StatusBadge = ({ endpoint }: { endpoint: WebhookEndpoint }) =>
  endpoint.status === 'enabled' ? <Badge tone="success">active</Badge> : <Badge tone="warning">turned off</Badge>;

/** `/admin/webhooks`: a store's webhook endpoints — add (secret shown once), test, pause, resume, rotate, delete, and each one's delivery log. */
export function WebhooksPage() {
  const me = useMe();
  const navigate = useNavigate();
  const search = useSearch({ from: '/app/webhooks' });
  const stores = storesWith(me, 'webhook:read');
  const store = stores.find((s) => s.id === search.store) ?? stores[0];
  const storeId = store?.id ?? '';
  // Refreshed while open: the delivery worker turns endpoints off (410, persistent failure) behind the page's back.
  const endpoints = useQuery({
    ...webhookQueries.endpoints(storeId),
    enabled: Boolean(store),
    refetchInterval: ENDPOINTS_REFRESH_MS,
  });
  const [created, setCreated] = useState<CreateWebhookEndpointResponse | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  if (!store) return <NoStorePage title="Webhooks" what="webhooks" />;
  const open = endpoints.data?.data.find((e) => e.id === search.endpoint) ?? null;
  const show = (endpointId: string | undefined) =>
    void navigate({ to: '/webhooks', search: { store: storeId, endpoint: endpointId } });
  return (
    <Page title={`Webhooks of ${store.name}`}>
      <StorePicker
        stores={stores}
        value={storeId}
        onChange={(next) => void navigate({ to: '/webhooks', search: { store: next } })}
      />
      <p className="hint">
        Each endpoint receives this store&apos;s events as signed POST requests (Standard Webhooks). A failed delivery
        is retried for a day; an endpoint whose deliveries keep failing for days is turned off until you resume it.
      </p>
      <div role="status">{notice ? <p className="alert alert-success">{notice}</p> : null}</div>
      {can(me, 'webhook:create', storeId) ? (
        <AddEndpointForm
          key={storeId}
          storeId={storeId}
          onCreated={(endpoint) => {
            setNotice(null);
            setCreated(endpoint);
            show(endpoint.id);
          }}
        />
      ) : null}
      <section className="stack" aria-labelledby="endpoints-title">
        <h2 id="endpoints-title">Endpoints</h2>
        {endpoints.isPending ? <Skeleton label="Loading the endpoints…" /> : null}
        {endpoints.isError ? <Alert>The endpoints could not be loaded: {errorText(endpoints.error)}</Alert> : null}
        {endpoints.data && endpoints.data.data.length === 0 ? (
          <EmptyState title="No endpoints yet.">
            {can(me, 'webhook:create', storeId) ? (
              <p>Add an endpoint above to have this store&apos;s events sent to it.</p>
            ) : null}
          </EmptyState>
        ) : null}
        {endpoints.data && endpoints.data.data.length > 0 ? (
          <Table caption={`Webhook endpoints of ${store.name}`} captionHidden className="claims-table">
            <ColumnHeads columns={['URL', 'Description', 'Event types', 'Status', 'Added']} />
            <tbody>
              {endpoints.data.data.map((endpoint) => (
                <tr key={endpoint.id}>
                  <th scope="row">
                    <Link
                      to="/webhooks"
                      search={{ store: storeId, endpoint: endpoint.id }}
                      aria-current={endpoint.id === open?.id ? 'true' : undefined}
                    >
                      {endpoint.url}
                    </Link>
                  </th>
                  <td>{endpoint.description ?? <span className="muted">—</span>}</td>
                  <td>{endpoint.eventTypes ? endpoint.eventTypes.join(', ') : 'Every type'}</td>
                  <td>
                    <StatusBadge endpoint={endpoint} />
                  </td>
                  <td>
                    <time dateTime={endpoint.createdAt}>{formatDateTime(endpoint.createdAt)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        ) : null}
        {endpoints.data && endpoints.data.data.length > 0 && !open ? (
          <p className="muted">Choose an endpoint to see its delivery log.</p>
        ) : null}
      </section>
      {open ? (
        <EndpointPanel
          key={open.id}
          storeId={storeId}
          endpoint={open}
          rights={{ update: can(me, 'webhook:update', storeId), remove: can(me, 'webhook:delete', storeId) }}
          onDeleted={(endpoint) => {
            setNotice(`The endpoint ${endpoint.url} was deleted; nothing more is sent to it.`);
            show(undefined);
          }}
        />
      ) : null}
      <Dialog open={created !== null} title="Endpoint added" onClose={() => setCreated(null)}>
        <p>
          Events are sent to <code>{created?.url}</code>. Verify each delivery&apos;s <code>webhook-signature</code>{' '}
          with this secret.
        </p>
        {created ? <SecretValue label="Signing secret" value={created.secret} /> : null}
        <div className="actions">
          <button type="button" className="button button-primary" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      </Dialog>
    </Page>
  );
}
