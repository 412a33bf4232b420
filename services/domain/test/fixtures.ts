import type {
  ClaimCommand,
  ClaimResolution,
  ClaimStatus,
  DomainEvent,
  FileClaim,
  Order,
  StoreSettings,
} from '@claims/contracts';
import { orderClaimsDecider, unrecordedValuation, type FileClaimOnOrder } from '../src/index.js';

export const NOW = '2026-11-22T12:00:00.000Z';
const daysAgo = (days: number) => new Date(Date.parse(NOW) - days * 86_400_000).toISOString();

export const settings: StoreSettings = {
  capabilities: { credit: true, refund: true, reship: true, returns: true },
  credit: { enabled: true, bonus: 10, bonusType: 'percentage' },
  returns: { portalUrl: null, trackingUrl: null },
  claimWaitDays: 3,
  claimWindowDays: 30,
  allowOneTimeAppeasement: true,
};

/** Order 1001 of the demo data: three lines in one delivered parcel. */
export const order: Order = {
  id: '7d353c4f-a9d3-4ab9-a7b9-74ae9c3f881c',
  storeId: 'a0cea1ca-8017-4455-8392-fa5be97b8803',
  sourceOrderId: 'acme-5001',
  orderNumber: '1001',
  customerEmail: 'ava@example.com',
  currency: 'USD',
  exchangeRate: 1,
  createdAt: daysAgo(16),
  protected: true,
  policy: { insuredAmount: 21450, premiumPaid: 298, premiumCurrency: 'USD', removedAt: null },
  shippingCost: 750,
  shippingCostTax: 60,
  tax: 1640,
  shippingAddress: {
    name: 'Ava Stone',
    address1: '12 Harbor St',
    city: 'Portland',
    country: 'United States',
    countryCode: 'US',
  },
  items: [
    {
      sourceItemId: 'li-1',
      sourceProductId: 'p-10',
      sourceVariantId: 'v-101',
      sku: 'JKT',
      productName: 'Trail Jacket',
      price: 12900,
      quantity: 1,
      refundedQuantity: 0,
      tax: 1032,
      discount: 0,
      selectedOptions: {},
    },
    {
      sourceItemId: 'li-2',
      sourceProductId: 'p-11',
      sourceVariantId: 'v-111',
      sku: 'SOCK',
      productName: 'Merino Socks',
      price: 1800,
      quantity: 3,
      refundedQuantity: 0,
      tax: 432,
      discount: 300,
      selectedOptions: {},
    },
    {
      sourceItemId: 'li-3',
      sourceProductId: 'p-12',
      sourceVariantId: 'v-121',
      sku: 'MUG',
      productName: 'Enamel Camp Mug',
      price: 1450,
      quantity: 1,
      refundedQuantity: 0,
      tax: 176,
      discount: 0,
      selectedOptions: {},
    },
  ],
  fulfillments: [
    {
      sourceFulfillmentId: 'f-1',
      status: 'DELIVERED',
      shippedAt: daysAgo(14),
      deliveredAt: daysAgo(10),
      trackingCompany: 'UPS',
      trackingNumbers: ['1Z'],
      trackingUrls: [],
      items: [
        { sourceItemId: 'li-1', quantity: 1 },
        { sourceItemId: 'li-2', quantity: 3 },
        { sourceItemId: 'li-3', quantity: 1 },
      ],
    },
  ],
};

export const deliveredDaysAgo = (days: number): Order => ({
  ...order,
  fulfillments: order.fulfillments.map((f) => ({ ...f, deliveredAt: daysAgo(days), shippedAt: daysAgo(days + 2) })),
});

/** The shopper's claim on two of the socks of order 1001, with what it is decided against (`on` replaces either). */
export const fileClaim = (
  overrides: Partial<FileClaim['request']> = {},
  on: Partial<Pick<FileClaimOnOrder, 'order' | 'settings'>> = {},
): FileClaimOnOrder => ({
  order,
  settings,
  ...on,
  type: 'FileClaim',
  claimId: '11111111-1111-4111-8111-111111111111',
  claimNumber: '10001',
  tokenHash: 'hash',
  itemIds: [
    '21111111-1111-4111-8111-111111111111',
    '31111111-1111-4111-8111-111111111111',
    '41111111-1111-4111-8111-111111111111',
  ],
  now: NOW,
  request: {
    email: ' AVA@example.com ',
    fulfillmentIssues: [
      {
        sourceFulfillmentId: 'f-1',
        issues: [{ sourceItemId: 'li-2', claimType: 'DAMAGED', quantity: 2, details: 'torn', images: [] }],
      },
    ],
    resolution: { desiredMethod: 'REFUND', customerSignature: 'Ava Stone' },
    ...overrides,
  },
});

/** A final resolution line of one item, decided now by an agent: what the money rules are tested on. */
export const resolutionLine = (
  resolutionType: ClaimResolution['resolutionType'],
  paidValue: number,
  shippingAmount = 0,
): ClaimResolution => ({
  id: '51111111-1111-4111-8111-111111111111',
  relatedClaimItemId: null,
  resolutionType,
  reason: null,
  resolutionDescription: '',
  quantity: 1,
  percentage: 100,
  paidValue,
  shippingAmount,
  creditStore: false,
  final: true,
  resolvedBy: { type: 'user', id: 'u', name: 'U' },
  createdAt: NOW,
});

/** A claim request on two of order 1001's lines, the jacket and the mug, one of each damaged: for decisions on some items. */
export const jacketAndMug: Partial<FileClaim['request']> = {
  fulfillmentIssues: [
    {
      sourceFulfillmentId: 'f-1',
      issues: ['li-1', 'li-3'].map((sourceItemId) => ({
        sourceItemId,
        claimType: 'DAMAGED' as const,
        quantity: 1,
        details: '',
        images: [],
      })),
    },
  ],
};

/** Filing that claim: the order ledger's `OrderItemsClaimed` and the claim's `ClaimFiled`, the history of both streams. */
export const filing: readonly DomainEvent[] = (() => {
  const decided = orderClaimsDecider.decide(fileClaim(), orderClaimsDecider.initialState);
  if (!decided.ok) throw new Error(`The fixture claim is refused: ${decided.error.message}`);
  return decided.value;
})();

export const claimId = fileClaim().claimId;
export const actor = { type: 'user' as const, id: 'u-1', name: 'Riley Agent' };
export const statusChanged = (from: ClaimStatus, to: ClaimStatus): DomainEvent => ({
  type: 'ClaimStatusChanged',
  data: { claimId, from, to, note: null },
});
export const changeStatus = (to: ClaimStatus): ClaimCommand => ({ type: 'ChangeClaimStatus', claimId, to, note: null });

/** What a resolution of a claim on order 1001 is decided with: the store's capabilities and money rules. */
export const storeTerms = { capabilities: settings.capabilities, valuation: unrecordedValuation('USD') };
