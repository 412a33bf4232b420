import { z } from 'zod';
import { Address, OrderInput } from './order.js';
import { StoreSettings } from './storeSettings.js';
import { Branding } from './store.js';
import { CustomerIssueType, CustomerResolution } from './enums.js';
import { CurrencyCode } from './money.js';

/** The shape of `fixtures/demo.json`: times are whole days before the moment of seeding. */
const demoFulfillment = OrderInput.shape.fulfillments
  .unwrap()
  .element.omit({ shippedAt: true, deliveredAt: true })
  .extend({ shippedDaysAgo: z.number().optional(), deliveredDaysAgo: z.number().optional() });

export const DemoOrder = OrderInput.omit({ createdAt: true, fulfillments: true }).extend({
  store: z.string(),
  sourceOrderId: z.string(),
  createdDaysAgo: z.number(),
  fulfillments: z.array(demoFulfillment),
  existingClaims: z
    .array(
      z.object({
        sourceItemId: z.string(),
        claimType: CustomerIssueType,
        resolution: CustomerResolution,
        filedDaysAgo: z.number(),
      }),
    )
    .default([]),
  shippingAddress: Address,
  expect: z.string().optional(),
});
export type DemoOrder = z.infer<typeof DemoOrder>;

export const DemoData = z.object({
  accounts: z.array(z.object({ slug: z.string(), name: z.string() })),
  stores: z.array(
    z.object({
      slug: z.string(),
      account: z.string(),
      name: z.string(),
      domain: z.string().nullable(),
      currency: CurrencyCode,
      settings: StoreSettings,
      branding: Branding,
    }),
  ),
  users: z.array(
    z.object({
      email: z.string(),
      name: z.string(),
      password: z.string(),
      roles: z.array(z.object({ role: z.string(), account: z.string().optional(), store: z.string().optional() })),
    }),
  ),
  orders: z.array(DemoOrder),
});
export type DemoData = z.infer<typeof DemoData>;
