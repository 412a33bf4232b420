import { abAssignmentsStreamOf, storeAbTestsStreamOf, type Claim } from '@claims/contracts';
import { abAssignmentsDecider, abTestsDecider, offeredVariant } from '@claims/domain';
import type { AppContext } from '../context.js';
import { loadAggregate } from '../eventsourcing/commandHandler.js';
import { sessionIdOf } from '../customer/index.js';

/** The store-credit bonus an A/B test offered this claim's shopper, so the credit issued is the one promised; null outside a test. */
export async function offeredCreditOf(
  ctx: AppContext,
  claim: Claim,
): Promise<{ bonus: number; bonusType: 'percentage' } | null> {
  const [tests, assignments] = await Promise.all([
    loadAggregate(ctx, abTestsDecider, storeAbTestsStreamOf(claim.storeId)),
    loadAggregate(ctx, abAssignmentsDecider, abAssignmentsStreamOf(sessionIdOf(claim.orderId))),
  ]);
  const variant = offeredVariant(tests.state, assignments.state, claim.filedAt);
  return variant ? { bonus: variant.creditBonus, bonusType: variant.creditBonusType } : null;
}
