import type { CustomerOrder } from '@claims/contracts';

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

/** The built-in sample order the `fake` query flag loads for demos (nothing reaches the server) (docs/product.md#access-guard). */
export function sampleOrder(): CustomerOrder {
  const item = (id: string, name: string, price: number, quantity: number, options: Record<string, string>) => ({
    sourceItemId: id,
    sourceProductId: `p-${id}`,
    sourceVariantId: `v-${id}`,
    sku: id.toUpperCase(),
    productName: name,
    price,
    quantity,
    refundedQuantity: 0,
    tax: 0,
    discount: 0,
    selectedOptions: options,
  });
  const jacket = item('demo-1', 'Trail Jacket', 129, 1, { color: 'Blue', size: 'M' });
  const socks = item('demo-2', 'Wool Socks', 12, 3, { size: 'L' });
  return {
    systemOrderId: '00000000-0000-4000-8000-00000000000f',
    orderId: 'demo-order',
    orderNumber: 'DEMO-1001',
    storeId: '00000000-0000-4000-8000-0000000000aa',
    currency: 'USD',
    exchangeRate: 1,
    protected: true,
    isOneTimeAppeasement: false,
    customerEmail: 'sample@example.com',
    eligibility: { 'demo-1': 1, 'demo-2': 3 },
    existingClaims: [],
    returns: [],
    hasDraft: false,
    shippingAddress: {
      name: 'Sam Sample',
      address1: '1 Sample Street',
      city: 'Springfield',
      province: 'Illinois',
      provinceCode: 'IL',
      zip: '62701',
      country: 'United States',
      countryCode: 'US',
    },
    fulfillments: [
      {
        id: 'demo-f1',
        sourceFulfillmentId: 'demo-f1',
        fulfillmentStatus: 'DELIVERED',
        shippedAt: daysAgo(9),
        deliveredAt: daysAgo(6),
        eligible: true,
        eligibleAt: daysAgo(3),
        eligibilityCode: null,
        items: [
          { item: jacket, quantity: 1 },
          { item: socks, quantity: 3 },
        ],
        trackingCompany: 'USPS',
        trackingNumber: ['9400000000000000000000'],
        trackingUrl: [],
      },
    ],
    settings: {
      capabilities: { credit: true, refund: true, reship: true, returns: false },
      credit: { enabled: true, bonus: 10, bonusType: 'percentage' },
      returns: { portalUrl: null, trackingUrl: null },
    },
  };
}
