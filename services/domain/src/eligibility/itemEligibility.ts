import type { Order } from '@claims/contracts';
import { remainingQuantity } from './validQuantity.js';

/** `eligibility`: how many of each line may still be claimed (0 once a claim holds it) (docs/product.md#claimable-quantity). */
export function itemEligibility(
  order: Pick<Order, 'items'>,
  claimedItemIds: ReadonlySet<string>,
): Record<string, number> {
  return Object.fromEntries(
    order.items.map((item) => [item.sourceItemId, claimedItemIds.has(item.sourceItemId) ? 0 : remainingQuantity(item)]),
  );
}
