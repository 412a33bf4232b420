import { z } from 'zod';
import { CurrencyCode, DecimalAmount, OrderAmount } from './money.js';
import { EligibilityCode, ShipmentStatus } from './enums.js';

export const Address = z.object({
  name: z.string().trim().min(1).max(200),
  address1: z.string().trim().min(1).max(200),
  address2: z.string().trim().max(200).optional(),
  city: z.string().trim().min(1).max(120),
  province: z.string().trim().max(120).optional(),
  provinceCode: z.string().trim().max(20).optional(),
  zip: z.string().trim().max(20).optional(),
  country: z.string().trim().min(1).max(120),
  countryCode: z.string().trim().length(2),
  phone: z.string().trim().max(40).optional(),
});
export type Address = z.infer<typeof Address>;

export const SelectedOptions = z.record(z.string(), z.string());

/** An order line in minor units, as the domain keeps it. */
export const OrderItem = z.object({
  sourceItemId: z.string().min(1),
  sourceProductId: z.string(),
  sourceVariantId: z.string(),
  sku: z.string(),
  productName: z.string(),
  productImage: z.string().optional(),
  productUrl: z.string().optional(),
  price: z.number().int(),
  quantity: z.number().int().positive(),
  refundedQuantity: z.number().int().nonnegative(),
  tax: z.number().int(),
  discount: z.number().int(),
  selectedOptions: SelectedOptions,
});
export type OrderItem = z.infer<typeof OrderItem>;

export const FulfillmentLine = z.object({ sourceItemId: z.string(), quantity: z.number().int().positive() });

export const Fulfillment = z.object({
  sourceFulfillmentId: z.string().min(1),
  status: ShipmentStatus,
  shippedAt: z.iso.datetime().nullable(),
  deliveredAt: z.iso.datetime().nullable(),
  trackingCompany: z.string().nullable(),
  trackingNumbers: z.array(z.string()),
  trackingUrls: z.array(z.string()),
  items: z.array(FulfillmentLine),
});
export type Fulfillment = z.infer<typeof Fulfillment>;

export const Policy = z.object({
  insuredAmount: z.number().int(),
  premiumPaid: z.number().int(),
  premiumCurrency: CurrencyCode,
  removedAt: z.iso.datetime().nullable(),
});
export type Policy = z.infer<typeof Policy>;

/** The order as the domain keeps it (money in minor units of `currency`). */
export const Order = z.object({
  id: z.uuid(),
  storeId: z.uuid(),
  sourceOrderId: z.string().min(1),
  orderNumber: z.string().min(1),
  customerEmail: z.string(),
  currency: CurrencyCode,
  exchangeRate: z.number().positive(),
  createdAt: z.iso.datetime(),
  protected: z.boolean(),
  policy: Policy.nullable(),
  shippingCost: z.number().int(),
  shippingCostTax: z.number().int(),
  tax: z.number().int(),
  shippingAddress: Address,
  items: z.array(OrderItem),
  fulfillments: z.array(Fulfillment),
});
export type Order = z.infer<typeof Order>;

/** The order a merchant sends through `PUT /api/v1/orders/{sourceOrderId}`: decimals and ISO times. */
export const OrderInput = z.object({
  orderNumber: z.string().trim().min(1).max(64),
  customerEmail: z.email(),
  currency: CurrencyCode,
  exchangeRate: z.number().positive().max(1_000_000).default(1),
  createdAt: z.iso.datetime(),
  protected: z.boolean(),
  policy: z
    .object({
      insuredAmount: OrderAmount,
      premiumPaid: OrderAmount,
      premiumCurrency: CurrencyCode,
      removedAt: z.iso.datetime().nullable().optional(),
    })
    .nullable(),
  shippingCost: OrderAmount.default(0),
  shippingCostTax: OrderAmount.default(0),
  tax: OrderAmount.default(0),
  shippingAddress: Address,
  items: z
    .array(
      OrderItem.extend({
        price: OrderAmount,
        quantity: z.number().int().positive().max(100_000),
        tax: OrderAmount.default(0),
        discount: OrderAmount.default(0),
        refundedQuantity: z.number().int().nonnegative().default(0),
        selectedOptions: SelectedOptions.default({}),
      }),
    )
    .min(1),
  fulfillments: z
    .array(
      Fulfillment.extend({
        shippedAt: z.iso
          .datetime()
          .nullable()
          .optional()
          .transform((v) => v ?? null),
        deliveredAt: z.iso
          .datetime()
          .nullable()
          .optional()
          .transform((v) => v ?? null),
        trackingCompany: z
          .string()
          .nullable()
          .optional()
          .transform((v) => v ?? null),
        trackingNumbers: z.array(z.string()).default([]),
        trackingUrls: z.array(z.string()).default([]),
      }),
    )
    .default([]),
});
export type OrderInput = z.infer<typeof OrderInput>;

/** What a store offers its shoppers (and so what its claims may be resolved with) (docs/product.md#store-capabilities). */
export const StoreCapabilities = z.object({
  credit: z.boolean(),
  refund: z.boolean(),
  reship: z.boolean(),
  returns: z.boolean(),
});
export type StoreCapabilities = z.infer<typeof StoreCapabilities>;

/** Order settings: what the customer order carries of its store's settings (docs/product.md#claim-records). */
export const OrderSettings = z.object({
  capabilities: StoreCapabilities,
  credit: z.object({
    enabled: z.boolean(),
    bonus: z.number().nonnegative(),
    bonusType: z.enum(['fixed', 'percentage']),
  }),
  returns: z.object({ portalUrl: z.string().nullable(), trackingUrl: z.string().nullable() }),
});
export type OrderSettings = z.infer<typeof OrderSettings>;

/** Store rules the eligibility decision reads. */
export const ClaimPolicySettings = z.object({
  claimWaitDays: z.number().int().nonnegative(),
  claimWindowDays: z.number().int().positive(),
  allowOneTimeAppeasement: z.boolean(),
});
export type ClaimPolicySettings = z.infer<typeof ClaimPolicySettings>;

/**
 * SLA timers of a store (docs/decisions/sla-timers.md): every field optional, {@link SLA_DEFAULTS}
 * fill what a store leaves out.
 */
export const SlaSettings = z.object({
  enabled: z.boolean().optional(),
  /** WAITING_FOR_CUSTOMER with no activity for this many days → CLOSED (reason NO_RESPONSE). */
  waitingForCustomerDays: z.number().int().min(1).max(365).optional(),
  /** WAITING_FOR_BRAND with no activity for this many hours → WAITING_FOR_OP. */
  waitingForBrandHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .optional(),
});
export type SlaSettings = z.infer<typeof SlaSettings>;
export const SLA_DEFAULTS = {
  enabled: true,
  waitingForCustomerDays: 7,
  waitingForBrandHours: 48,
} as const satisfies Required<SlaSettings>;

/** An order line as the shopper sees it (decimals). */
export const CustomerItem = OrderItem.extend({ price: DecimalAmount, tax: DecimalAmount, discount: DecimalAmount });
export type CustomerItem = z.infer<typeof CustomerItem>;

export const CustomerFulfillment = z.object({
  id: z.string(),
  sourceFulfillmentId: z.string(),
  fulfillmentStatus: ShipmentStatus,
  shippedAt: z.iso.datetime().nullable(),
  deliveredAt: z.iso.datetime().nullable(),
  eligible: z.boolean(),
  eligibleAt: z.iso.datetime().nullable(),
  eligibilityCode: EligibilityCode.nullable(),
  items: z.array(z.object({ item: CustomerItem, quantity: z.number().int() })),
  trackingCompany: z.string().nullable(),
  trackingNumber: z.array(z.string()),
  trackingUrl: z.array(z.string()),
});
export type CustomerFulfillment = z.infer<typeof CustomerFulfillment>;

export const ExistingClaim = z.object({
  claimId: z.uuid(),
  claimNumber: z.string(),
  token: z.string().optional(),
  sourceItemIds: z.array(z.string()),
  createdAt: z.iso.datetime(),
});

/** Customer order: the answer of `GET /api/order-lookup` (docs/product.md#claim-records). */
export const CustomerOrder = z.object({
  systemOrderId: z.uuid(),
  orderId: z.string(),
  orderNumber: z.string(),
  storeId: z.uuid(),
  currency: CurrencyCode,
  exchangeRate: z.number(),
  protected: z.boolean(),
  isOneTimeAppeasement: z.boolean(),
  customerEmail: z.string(),
  eligibility: z.record(z.string(), z.number().int().nonnegative()),
  existingClaims: z.array(ExistingClaim),
  returns: z.array(z.object({ id: z.string() })),
  shippingAddress: Address,
  fulfillments: z.array(CustomerFulfillment),
  settings: OrderSettings,
  /** A draft claim is saved for this order: the portal asks for it only then (a missing draft is not an error). */
  hasDraft: z.boolean(),
});
export type CustomerOrder = z.infer<typeof CustomerOrder>;
