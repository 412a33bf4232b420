import { Link, useParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import type { AdminOrderView } from '@claims/contracts';
import { formatDateTime, formatItemMoney, humanizeCode } from '@claims/format';
import { Alert, Page, TrackingLinks } from '@claims/ui/components';
import { isHttpError } from '../shared/api.js';
import { can, useMe } from '../shared/session.js';
import { Fact, StatusBadge } from '../shared/components/ui.js';
import { ProtectionSection } from './order/ProtectionSection.js';
import { StaffClaimForm } from './order/StaffClaimForm.js';
import { orderQueries } from './queries.js';
import { DataTable } from '../shared/components/DataTable.js';

/** `/admin/orders/$orderId`: an order's items, shipments, protection and claims; protection changes and a staff-filed claim. */
export function OrderPage() {
  const me = useMe();
  const { orderId } = useParams({ from: '/app/orders/$orderId' });
  const order = useQuery(orderQueries.detail(orderId));
  if (order.isPending)
    return (
      <Page title="Loading the order">
        <p role="status">Loading…</p>
      </Page>
    );
  if (order.isError) {
    const missing = isHttpError(order.error, 404);
    return (
      <Page title={missing ? 'Order not found' : 'Something went wrong'}>
        <Alert>{missing ? 'No order you can see has that reference.' : order.error.message}</Alert>
        <Link to="/" search={{}}>
          Back to the claims
        </Link>
      </Page>
    );
  }
  const data: AdminOrderView = order.data;
  const store = data.store.id;
  return (
    <Page
      title={`Order ${data.orderNumber}`}
      subtitle={`${data.store.name} · placed ${formatDateTime(data.createdAt)}`}
      actions={
        <Link to="/" search={{}} className="button button-link">
          Back to the claims
        </Link>
      }
    >
      <div className="claim-grid">
        <div className="stack">
          <section className="card" aria-labelledby="order-facts">
            <h2 id="order-facts">Order</h2>
            <dl className="facts facts-compact">
              <Fact term="Order number">{data.orderNumber}</Fact>
              <Fact term="Source order id">{data.sourceOrderId}</Fact>
              <Fact term="Customer email">{data.customerEmail}</Fact>
              <Fact term="Ship to">
                {[
                  data.shippingAddress.name,
                  data.shippingAddress.address1,
                  data.shippingAddress.city,
                  data.shippingAddress.country,
                ].join(', ')}
              </Fact>
            </dl>
          </section>
          <section className="card" aria-labelledby="order-items">
            <h2 id="order-items">Items</h2>
            <DataTable columns={['Product', 'SKU', 'Quantity', 'Price', 'Claimed']}>
              <tbody>
                {data.items.map((item) => (
                  <tr key={item.sourceItemId}>
                    <th scope="row">{item.productName}</th>
                    <td>{item.sku}</td>
                    <td>{item.quantity}</td>
                    <td>{formatItemMoney(item.price, data.currency)}</td>
                    <td>{item.claimed ? 'Yes' : 'No'}</td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
          </section>
          <section className="card" aria-labelledby="order-shipments">
            <h2 id="order-shipments">Shipments</h2>
            {data.fulfillments.length === 0 ? (
              <p className="muted">Nothing shipped yet.</p>
            ) : (
              <ul className="plain">
                {data.fulfillments.map((f) => (
                  <li key={f.sourceFulfillmentId}>
                    <dl className="facts facts-compact">
                      <Fact term="Shipment">{f.sourceFulfillmentId}</Fact>
                      <Fact term="Status">{humanizeCode(f.status)}</Fact>
                      {f.shippedAt ? (
                        <Fact term="Shipped">
                          <time dateTime={f.shippedAt}>{formatDateTime(f.shippedAt)}</time>
                        </Fact>
                      ) : null}
                      {f.deliveredAt ? (
                        <Fact term="Delivered">
                          <time dateTime={f.deliveredAt}>{formatDateTime(f.deliveredAt)}</time>
                        </Fact>
                      ) : null}
                      <Fact term="Tracking">
                        {f.trackingNumbers.length + f.trackingUrls.length > 0 ? <TrackingLinks shipment={f} /> : 'None'}
                      </Fact>
                      <Fact term="Items">
                        {f.items
                          .map(
                            (line) =>
                              `${data.items.find((i) => i.sourceItemId === line.sourceItemId)?.productName ?? line.sourceItemId} × ${line.quantity}`,
                          )
                          .join(', ')}
                      </Fact>
                    </dl>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
        <div className="stack">
          <ProtectionSection
            order={data}
            canAdd={can(me, 'protection:add', store)}
            canRemove={can(me, 'protection:remove', store)}
          />
          <section className="card" aria-labelledby="order-claims">
            <h2 id="order-claims">Claims</h2>
            {data.claims.length === 0 ? (
              <p className="muted">No claims on this order.</p>
            ) : (
              <ul className="plain">
                {data.claims.map((c) => (
                  <li key={c.id}>
                    <Link to="/claims/view/$claimRef" params={{ claimRef: c.id }} search={{}}>
                      Claim #{c.claimNumber}
                    </Link>{' '}
                    <StatusBadge status={c.status} /> · filed{' '}
                    <time dateTime={c.claimedAt}>{formatDateTime(c.claimedAt)}</time>
                    {c.isOta ? ' · ota' : ''}
                  </li>
                ))}
              </ul>
            )}
          </section>
          {can(me, 'claim:create', store) ? (
            <StaffClaimForm key={data.claims.length} order={data} staffName={me.user.name} />
          ) : null}
        </div>
      </div>
    </Page>
  );
}
