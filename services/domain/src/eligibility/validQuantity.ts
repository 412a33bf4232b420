import type { OrderItem } from '@claims/contracts';

/** What is left to claim of a line: ordered minus already refunded, never below zero. */
export function remainingQuantity(item: Pick<OrderItem, 'quantity' | 'refundedQuantity'>): number {
  return Math.max(0, item.quantity - item.refundedQuantity);
}

/**
 * The remaining amount is used when nothing remains or the claim asks for more than
 * remains; otherwise the claimed quantity (docs/product.md#claimable-quantity).
 */
export function validQuantity(item: Pick<OrderItem, 'quantity' | 'refundedQuantity'>, claimed: number): number {
  const remaining = remainingQuantity(item);
  return remaining <= 0 || claimed > remaining ? remaining : claimed;
}
