import { useEffect, useRef } from 'react';
import { useParams, useSearch } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import JsBarcode from 'jsbarcode';
import {
  RETURN_METHOD_LABELS,
  RETURN_REASON_LABELS,
  type ClaimReturn,
  type CustomerClaimView,
} from '@claims/contracts';
import { formatDateTime } from '@claims/format';
import { Alert, ColumnHeads, Page } from '@claims/ui/components';
import { BackToClaim } from '../components.js';
import { HttpError, api } from '../api.js';
import { PrintPage as ClaimSummaryPage } from './view.js';
import { hasLabel, useReturns } from './returns.js';
import { retryWhileUnavailable } from '@claims/ui/unavailable-retry';

/** The return's code as a CODE128 barcode (what carriers' and warehouses' scanners read), drawn by JsBarcode as SVG. */
function Barcode({ value }: { value: string }) {
  const ref = useRef<SVGSVGElement>(null);
  useEffect(() => {
    if (ref.current)
      JsBarcode(ref.current, value, {
        format: 'CODE128',
        displayValue: true,
        height: 80,
        width: 2,
        margin: 8,
        fontSize: 18,
      });
  }, [value]);
  return (
    <svg ref={ref} className="barcode" role="img" aria-label={`Barcode of return code ${value}`} data-code={value} />
  );
}

function ReturnLabel({ claim, label }: { claim: CustomerClaimView; label: ClaimReturn }) {
  return (
    <article className="return-label" aria-labelledby={`label-${label.id}`}>
      <h2 id={`label-${label.id}`}>Return {label.code}</h2>
      <Barcode value={label.code} />
      <dl className="label-facts">
        <dt>Claim</dt>
        <dd>#{claim.claimNumber}</dd>
        <dt>Order</dt>
        <dd>#{claim.orderNumber}</dd>
        <dt>Reason</dt>
        <dd>{RETURN_REASON_LABELS[label.reason]}</dd>
        <dt>Sending</dt>
        <dd>{RETURN_METHOD_LABELS[label.method]}</dd>
        <dt>Started</dt>
        <dd>{formatDateTime(label.startedAt)}</dd>
      </dl>
      <table className="print-table">
        <caption className="visually-hidden">Items in return {label.code}</caption>
        <ColumnHeads columns={['Item', 'SKU', 'Qty']} />
        <tbody>
          {label.items.map((i) => (
            <tr key={i.claimItemId}>
              <td>{i.name}</td>
              <td>{i.sku}</td>
              <td>{i.quantity}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="fine-print">
        Pack the items, stick this label on the parcel and keep the code: the store scans it when your return arrives.
      </p>
    </article>
  );
}

/**
 * /print/{token}, "print a label by token" (docs/product.md#returns): the return labels of the claim's returns handled here (one with
 * `?return=`), else the claim's summary as before.
 */
export function PrintPage() {
  const params: { token?: string } = useParams({ strict: false });
  const search: { return?: unknown } = useSearch({ strict: false });
  const token = params.token ?? '';
  const claim = useQuery({
    queryKey: ['claim', token],
    queryFn: () => api.getClaim(token),
    retry: retryWhileUnavailable((n, e) => !(e instanceof HttpError) && n < 1),
  });
  const returns = useReturns(token);
  if (claim.isPending || returns.isPending) return <Page title="Loading your return label…" />;
  if (claim.isError) return <ClaimSummaryPage />;
  if (returns.isError)
    return (
      <Page title="Return label">
        <Alert>Your return could not be loaded. Please try again.</Alert>
      </Page>
    );
  const chosen = typeof search.return === 'string' ? returns.data.filter((r) => r.id === search.return) : returns.data;
  const labels = chosen.filter(hasLabel);
  if (labels.length === 0) {
    if (typeof search.return !== 'string') return <ClaimSummaryPage />;
    return (
      <Page title="Return label">
        <Alert tone="info">
          This return has no label to print: it was sent to the store's returns portal, has arrived or has ended.
        </Alert>
        <BackToClaim token={token} />
      </Page>
    );
  }
  return (
    <Page
      title={
        labels.length === 1 ? `Return label ${labels[0]!.code}` : `Return labels for claim #${claim.data.claimNumber}`
      }
      subtitle={`Claim #${claim.data.claimNumber} · Order #${claim.data.orderNumber}`}
    >
      {labels.map((label) => (
        <ReturnLabel key={label.id} claim={claim.data} label={label} />
      ))}
      <p className="actions no-print">
        <BackToClaim token={token} />
        <button type="button" className="button button-primary" onClick={() => window.print()}>
          Print label
        </button>
      </p>
    </Page>
  );
}
