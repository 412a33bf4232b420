import { z } from 'zod';
import { CurrencyCode, DecimalAmount } from './money.js';
import { Address, Fulfillment } from './order.js';
import { ClaimStatus } from './enums.js';
import { ProtectionStatus } from './queue.js';
import { PolicyView, StoreRef } from './backoffice.js';
import { FileClaimRequest } from './claim.js';

/**
 * The desk's order page (`/api/admin/orders/...`): an order of a store the user may read (`order:read`),
 * its lines, shipments, protection and the claims filed on it. Money as decimals of the order's currency.
 */
export const AdminOrderView = z.object({
  id: z.uuid(),
  store: StoreRef,
  sourceOrderId: z.string(),
  orderNumber: z.string(),
  customerEmail: z.string(),
  currency: CurrencyCode,
  createdAt: z.iso.datetime(),
  /** Protection status of the order: protected, removed or unprotected (never ota, which is a claim's) (docs/product.md#protection-status). */
  protectionStatus: ProtectionStatus,
  policy: PolicyView.nullable(),
  /** The version of the order's premium stream, the `expectedVersion` of a protection change. */
  protectionVersion: z.number().int().nonnegative(),
  shippingAddress: Address,
  items: z.array(
    z.object({
      sourceItemId: z.string(),
      sku: z.string(),
      productName: z.string(),
      productImage: z.string().optional(),
      quantity: z.number().int(),
      price: DecimalAmount,
      claimed: z.boolean(),
    }),
  ),
  fulfillments: z.array(Fulfillment),
  claims: z.array(
    z.object({
      id: z.uuid(),
      claimNumber: z.string(),
      status: ClaimStatus,
      isOta: z.boolean(),
      claimedAt: z.iso.datetime(),
    }),
  ),
});
export type AdminOrderView = z.infer<typeof AdminOrderView>;

/** `GET /api/admin/orders?ref=`: the orders a system id or a source order id names, among the stores the user may read. */
export const AdminOrderRefQuery = z.object({ ref: z.string().trim().min(1).max(200) });
export const AdminOrderRefList = z.object({
  data: z.array(z.object({ id: z.uuid(), store: StoreRef, orderNumber: z.string(), sourceOrderId: z.string() })),
});
export type AdminOrderRefList = z.infer<typeof AdminOrderRefList>;

/**
 * `POST /api/admin/orders/{orderId}/protection` (`protection:add`): protects the order again (a removed
 * policy is restored) or for the first time, with the premium the shopper paid in the order's currency.
 */
export const AddProtectionRequest = z.object({
  premiumPaid: DecimalAmount.positive().optional(),
  expectedVersion: z.number().int().nonnegative().optional(),
});
export type AddProtectionRequest = z.infer<typeof AddProtectionRequest>;

/** `DELETE /api/admin/orders/{orderId}/protection` (`protection:remove`): the premium is reversed. */
export const RemoveProtectionQuery = z.object({ expectedVersion: z.coerce.number().int().nonnegative().optional() });

/**
 * `POST /api/admin/orders/{orderId}/claims` (`claim:create`): a claim a staff member files for the shopper,
 * the portal's submission without the email (the order's own is used) and decided by the same FileClaim command.
 */
export const StaffFileClaimRequest = FileClaimRequest.omit({ email: true });
export type StaffFileClaimRequest = z.infer<typeof StaffFileClaimRequest>;
