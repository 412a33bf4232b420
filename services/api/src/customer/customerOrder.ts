import { toDecimal, type CustomerOrder, type Order, type OrderItem, type Store } from '@claims/contracts';
import {
  fulfillmentEligibility,
  itemEligibility,
  oneTimeAppeasementAvailable,
  type OrderClaimsState,
} from '@claims/domain';

const itemAtEdge = (item: OrderItem, currency: string) => ({
  ...item,
  price: toDecimal(item.price, currency),
  tax: toDecimal(item.tax, currency),
  discount: toDecimal(item.discount, currency),
});

/** Customer order: the order with eligibility computed per fulfillment, money as decimals (docs/product.md#claim-records). */
export function toCustomerOrder(
  order: Order,
  store: Store,
  ledger: OrderClaimsState,
  now: string,
  hasDraft: boolean,
): CustomerOrder {
  const items = new Map(order.items.map((i) => [i.sourceItemId, itemAtEdge(i, order.currency)]));
  return {
    systemOrderId: order.id,
    orderId: order.sourceOrderId,
    orderNumber: order.orderNumber,
    storeId: order.storeId,
    currency: order.currency,
    exchangeRate: order.exchangeRate,
    protected: order.protected,
    isOneTimeAppeasement: oneTimeAppeasementAvailable(order, store.settings, ledger),
    customerEmail: order.customerEmail,
    eligibility: itemEligibility(order, ledger.claimedItemIds),
    existingClaims: ledger.claims.map((c) => ({
      claimId: c.claimId,
      claimNumber: c.claimNumber,
      sourceItemIds: c.sourceItemIds,
      createdAt: c.claimedAt,
    })),
    returns: [],
    shippingAddress: order.shippingAddress,
    fulfillments: order.fulfillments.map((f) => ({
      id: f.sourceFulfillmentId,
      sourceFulfillmentId: f.sourceFulfillmentId,
      fulfillmentStatus: f.status,
      shippedAt: f.shippedAt,
      deliveredAt: f.deliveredAt,
      ...fulfillmentEligibility(f, order, store.settings, ledger.claimedItemIds, now),
      items: f.items.flatMap((line) => {
        const item = items.get(line.sourceItemId);
        return item ? [{ item, quantity: line.quantity }] : [];
      }),
      trackingCompany: f.trackingCompany,
      trackingNumber: f.trackingNumbers,
      trackingUrl: f.trackingUrls,
    })),
    settings: {
      capabilities: store.settings.capabilities,
      credit: store.settings.credit,
      returns: store.settings.returns,
    },
    hasDraft,
  };
}
