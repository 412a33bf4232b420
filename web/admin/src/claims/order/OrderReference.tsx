import type { ReactNode } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { Page } from '@claims/ui/components';
import { ReferenceMatches } from '../ReferenceMatches.js';
import { orderQueries } from '../queries.js';

/**
 * The back-office link `/claims/view/{orderId}` (docs/product.md#merchant-claim-view): a system or source order id opens that order's
 * page (several stores' orders with one source id are listed); any other reference shows `fallback`.
 */
export function OrderReference({ reference, fallback }: { reference: string; fallback: ReactNode }) {
  const navigate = useNavigate();
  const found = useQuery(orderQueries.byReference(reference));
  return (
    <ReferenceMatches
      found={found}
      reference={reference}
      finding="Finding the order"
      open={(only) => void navigate({ to: '/orders/$orderId', params: { orderId: only.id }, replace: true })}
      list={(orders) =>
        orders.length === 0 ? (
          fallback
        ) : (
          <Page title={`Orders ${reference}`}>
            <ul className="plain">
              {orders.map((o) => (
                <li key={o.id}>
                  <Link to="/orders/$orderId" params={{ orderId: o.id }}>
                    Order {o.orderNumber} of {o.store.name}
                  </Link>
                </li>
              ))}
            </ul>
          </Page>
        )
      }
    />
  );
}
