import type { FileClaimRequest } from '@claims/contracts';

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

/** An order as a merchant's platform sends it to PUT /api/v1/orders/{sourceOrderId}: decimals and absolute times, delivered 10 days ago. */
export const orderBody = (orderNumber: string, items = 1) => ({
  orderNumber,
  customerEmail: `buyer-${orderNumber}@example.com`,
  currency: 'USD',
  createdAt: ago(14),
  protected: true,
  policy: { insuredAmount: 60.5, premiumPaid: 1.25, premiumCurrency: 'USD' },
  shippingCost: 5,
  tax: 3.3,
  shippingAddress: {
    name: 'Lee Buyer',
    address1: '5 Elm St',
    city: 'Austin',
    country: 'United States',
    countryCode: 'US',
  },
  items: Array.from({ length: items }, (_, i) => ({
    sourceItemId: `${orderNumber}-li-${i}`,
    sourceProductId: `p-${i}`,
    sourceVariantId: `v-${i}`,
    sku: `SKU-${i}`,
    productName: `Item ${i}`,
    price: 19.99,
    quantity: 1,
  })),
  fulfillments: [
    {
      sourceFulfillmentId: `${orderNumber}-f`,
      status: 'DELIVERED',
      shippedAt: ago(12),
      deliveredAt: ago(10),
      items: Array.from({ length: items }, (_, i) => ({ sourceItemId: `${orderNumber}-li-${i}`, quantity: 1 })),
    },
  ],
});

/** The shopper's claim on the first item of an {@link orderBody} order, as the portal POSTs it to /api/claims/{sourceOrderId}. */
export const filingBody = (orderNumber: string): FileClaimRequest => ({
  email: `buyer-${orderNumber}@example.com`,
  fulfillmentIssues: [
    {
      sourceFulfillmentId: `${orderNumber}-f`,
      issues: [
        {
          sourceItemId: `${orderNumber}-li-0`,
          claimType: 'DAMAGED',
          quantity: 1,
          details: 'Arrived broken.',
          images: [],
        },
      ],
    },
  ],
  resolution: { desiredMethod: 'REFUND', customerSignature: 'Lee Buyer', updatedShippingAddress: null },
});
