import { OrderInput } from '@claims/contracts';

/** What a test's own ingestion of an order is stamped with: the system's, no request behind it. */
export const systemMeta = { actor: { type: 'system' as const, id: 'test' }, correlationId: 'test', causationId: null };

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

/** One line of a test order: its item id is the order number with `-li` unless given. */
export interface TestOrderLine {
  sourceItemId: string;
  sku: string;
  productName: string;
  price: number;
  quantity: number;
}

/** What a test says of its order; the rest is the common case (see {@link testOrder}). */
export interface TestOrderShape {
  currency: string;
  exchangeRate: number;
  customerEmail: string;
  /** Null for an order bought without protection. */
  policy: { insuredAmount: number; premiumPaid: number } | null;
  shippingAddress: OrderInput['shippingAddress'];
  /** The one line's differences from the common line, for a one-line order. */
  line: Partial<TestOrderLine>;
  /** Every line, for an order of more than one (each shipped in the one fulfillment). */
  lines: TestOrderLine[];
  shipment: { status: 'DELIVERED' | 'IN_TRANSIT'; trackingCompany?: string; trackingNumbers?: string[] };
}

/**
 * An order for `upsertOrder` or the order API: by default protected, in USD, of one line, shipped eleven days ago and
 * delivered ten days ago (inside every demo store's claim window) in fulfillment `<number>-f`.
 */
export function testOrder(orderNumber: string, shape: Partial<TestOrderShape> = {}): OrderInput {
  const currency = shape.currency ?? 'USD';
  const lines = shape.lines ?? [
    {
      sourceItemId: `${orderNumber}-li`,
      sku: 'SKU',
      productName: 'Thing',
      price: currency === 'JPY' ? 2400 : 24.5,
      quantity: 1,
      ...shape.line,
    },
  ];
  const policy = shape.policy === undefined ? { insuredAmount: 100, premiumPaid: 2 } : shape.policy;
  const { status, ...tracking } = shape.shipment ?? { status: 'DELIVERED' };
  return OrderInput.parse({
    orderNumber,
    customerEmail: shape.customerEmail ?? `${orderNumber.toLowerCase()}@example.com`,
    currency,
    exchangeRate: shape.exchangeRate ?? 1,
    createdAt: ago(12),
    protected: policy !== null,
    policy: policy && { ...policy, premiumCurrency: currency },
    shippingAddress: shape.shippingAddress ?? {
      name: 'Pat Doe',
      address1: '1 Main St',
      city: 'Springfield',
      country: 'United States',
      countryCode: 'US',
    },
    items: lines.map((line) => ({ ...line, sourceProductId: 'p', sourceVariantId: 'v' })),
    fulfillments: [
      {
        sourceFulfillmentId: `${orderNumber}-f`,
        status,
        ...tracking,
        shippedAt: ago(11),
        deliveredAt: status === 'DELIVERED' ? ago(10) : null,
        items: lines.map((line) => ({ sourceItemId: line.sourceItemId, quantity: line.quantity })),
      },
    ],
  });
}
