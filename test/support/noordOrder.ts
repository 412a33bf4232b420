import { OrderInput } from '@claims/contracts';

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

/** A delivered, protected one-item order (EUR) of Noord, the store the onboarding tests create, as its platform would send it. */
export const noordOrder = (orderNumber: string): OrderInput =>
  OrderInput.parse({
    orderNumber,
    customerEmail: 'noor@example.com',
    currency: 'EUR',
    createdAt: ago(12),
    protected: true,
    policy: { insuredAmount: 80, premiumPaid: 2, premiumCurrency: 'EUR' },
    shippingAddress: {
      name: 'Noor Shopper',
      address1: '1 Canal St',
      city: 'Amsterdam',
      country: 'Netherlands',
      countryCode: 'NL',
    },
    items: [
      {
        sourceItemId: 'li-n1',
        sourceProductId: 'p',
        sourceVariantId: 'v',
        sku: 'NS-1',
        productName: 'Linen shirt',
        price: 40,
        quantity: 1,
      },
    ],
    fulfillments: [
      {
        sourceFulfillmentId: 'f-n1',
        status: 'DELIVERED',
        shippedAt: ago(11),
        deliveredAt: ago(10),
        items: [{ sourceItemId: 'li-n1', quantity: 1 }],
      },
    ],
  });
