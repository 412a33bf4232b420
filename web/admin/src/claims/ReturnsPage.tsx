import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { RETURN_METHOD_LABELS, RETURN_REASON_LABELS, RETURN_STATUS_LABELS, ReturnStatus } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDateTime } from '@claims/format';
import { Alert, Page } from '@claims/ui/components';
import { storesWith, useMe } from '../shared/session.js';
import { StorePicker } from '../shared/components/StorePicker.js';
import { returnQueries } from './queries.js';
import { DataTable } from '../shared/components/DataTable.js';
import { Options } from '../shared/components/Options.js';
import { NoStorePage } from '../shared/components/NoStorePage.js';

export const ReturnsSearch = z.object({
  store: z.uuid().optional().catch(undefined),
  status: ReturnStatus.optional().catch(undefined),
});
export type ReturnsSearch = z.infer<typeof ReturnsSearch>;

/** `/admin/returns`: a store's returns, newest first, by status (`returns:read`); each opens its claim, where it is worked. */
export function ReturnsPage() {
  const me = useMe();
  const navigate = useNavigate();
  const search = useSearch({ from: '/app/returns' });
  const stores = storesWith(me, 'returns:read');
  const store = stores.find((s) => s.id === search.store) ?? stores[0];
  const storeId = store?.id ?? '';
  const returns = useQuery({ ...returnQueries.list(storeId, search.status), enabled: Boolean(store) });
  if (!store) return <NoStorePage title="Returns" what="returns" />;
  return (
    <Page title={`Returns of ${store.name}`}>
      <div className="inline-form">
        <StorePicker
          stores={stores}
          value={storeId}
          onChange={(next) => void navigate({ to: '/returns', search: { store: next, status: search.status } })}
        />
        <div className="field field-inline">
          <label htmlFor="returns-status">Status</label>
          <select
            id="returns-status"
            value={search.status ?? ''}
            onChange={(e) =>
              void navigate({
                to: '/returns',
                search: { store: storeId, status: ReturnStatus.safeParse(e.target.value).data },
              })
            }
          >
            <option value="">Every status</option>
            <Options values={ReturnStatus.options} label={(s) => RETURN_STATUS_LABELS[s]} />
          </select>
        </div>
      </div>
      {returns.isError ? (
        <Alert>{errorText(returns.error, 'The returns could not be loaded. Try again.')}</Alert>
      ) : null}
      {returns.isPending ? (
        <p className="muted" role="status">
          Loading the returns…
        </p>
      ) : null}
      {returns.data && returns.data.data.length === 0 ? <p className="muted">No returns here yet.</p> : null}
      {returns.data && returns.data.data.length > 0 ? (
        <DataTable
          caption={`Returns of ${store.name}`}
          captionHidden
          columns={['Return', 'Claim', 'Status', 'Where', 'Reason', 'Method', 'Items', 'Started']}
        >
          <tbody>
            {returns.data.data.map((r) => (
              <tr key={r.id}>
                <th scope="row">{r.code}</th>
                <td>
                  <Link to="/claims/view/$claimRef" params={{ claimRef: r.claimId }} search={{}}>
                    Claim #{r.claimNumber}
                  </Link>
                </td>
                <td>{RETURN_STATUS_LABELS[r.status]}</td>
                <td>{r.handling === 'store_portal' ? 'Store portal' : 'Here'}</td>
                <td>{RETURN_REASON_LABELS[r.reason]}</td>
                <td>{RETURN_METHOD_LABELS[r.method]}</td>
                <td className="numeric">{r.itemCount}</td>
                <td>
                  <time dateTime={r.startedAt}>{formatDateTime(r.startedAt)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      ) : null}
    </Page>
  );
}
