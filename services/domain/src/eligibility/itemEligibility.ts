import type { Order } from '@claims/contracts';
import { remainingQuantity } from './validQuantity.js';

/** Spec §3 `eligibility`: how many of each line may still be claimed (0 once a claim holds it). */
export function itemEligibility(
  order: Pick<Order, 'items'>,
  claimedItemIds: ReadonlySet<string>,
): Record<string, number> {
  return Object.fromEntries(
    order.items.map((item) => [item.sourceItemId, claimedItemIds.has(item.sourceItemId) ? 0 : remainingQuantity(item)]),
  );
}
