import { useEffect, type ReactNode } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Page } from '@claims/ui/components';
import { orderQueries } from '../queries.js';

/**
 * The back-office link `/claims/view/{orderId}` (docs/product.md#merchant-claim-view): a system or source order id opens that order's
 * page (several stores' orders with one source id are listed); any other reference shows `fallback`.
 */
export function OrderReference({ reference, fallback }: { reference: string; fallback: ReactNode }) {
  const navigate = useNavigate();
  const found = useQuery(orderQueries.byReference(reference));
  const only = found.data?.data.length === 1 ? found.data.data[0] : undefined;
  useEffect(() => {
    if (only) void navigate({ to: '/orders/$orderId', params: { orderId: only.id }, replace: true });
  }, [only, navigate]);
  if (found.isPending || only)
    return (
      <Page title="Finding the order">
        <p role="status">Looking up {reference}…</p>
      </Page>
    );
  if (found.isError)
    return (
      <Page title="Something went wrong">
        <Alert>{found.error.message}</Alert>
      </Page>
    );
  if (found.data.data.length === 0) return <>{fallback}</>;
  return (
    <Page title={`Orders ${reference}`}>
      <ul className="plain">
        {found.data.data.map((o) => (
          <li key={o.id}>
            <Link to="/orders/$orderId" params={{ orderId: o.id }}>
              Order {o.orderNumber} of {o.store.name}
            </Link>
          </li>
        ))}
      </ul>
    </Page>
  );
}
