import { toDecimal, type Claim, type ClaimStoreCredit } from '@claims/contracts';
import { storedDomainEvent } from '@claims/event-store';
import { storeCreditDecider } from '@claims/domain';
import type { AppContext } from '../context.js';
import { loadAggregate } from '../eventsourcing/commandHandler.js';
import { creditStreamOf } from './storeCreditLedger.js';
import { storeCreditLinesOf, type StoredEvent } from './storeCreditLines.js';

/**
 * The store credit a claim gives its shopper, in the claim's currency with its bonus, when the customer's credit
 * ledger issued each line (the issuing reaction runs after the decision, so at first it may not have), and what a
 * reversal reclaimed of it and found redeemed already.
 */
export async function claimStoreCredits(
  ctx: AppContext,
  claim: Claim,
  events: readonly StoredEvent[],
): Promise<ClaimStoreCredit[]> {
  const lines = storeCreditLinesOf(claim.currency, events);
  if (lines.length === 0) return [];
  const ledger = await loadAggregate(ctx, storeCreditDecider, creditStreamOf(claim.storeId, claim.customer.email));
  const issuedAt = new Map<string, string>();
  const reclaimed = new Map<string, NonNullable<ClaimStoreCredit['reclaimed']>>();
  for (const recorded of ledger.events) {
    if (recorded.type !== 'StoreCreditIssued' && recorded.type !== 'StoreCreditReclaimed') continue;
    const event = storedDomainEvent(recorded);
    if (event.type === 'StoreCreditIssued') issuedAt.set(event.data.resolutionId, event.data.issuedAt);
    if (event.type === 'StoreCreditReclaimed') {
      const { currency } = event.data;
      reclaimed.set(event.data.resolutionId, {
        currency,
        amount: toDecimal(event.data.amount, currency),
        redeemed: toDecimal(event.data.redeemed, currency),
        at: event.data.reclaimedAt,
      });
    }
  }
  return lines.map(({ resolutionId, claim: value }) => ({
    resolutionId,
    currency: value.currency,
    credit: toDecimal(value.credit, value.currency),
    bonus: toDecimal(value.bonus, value.currency),
    total: toDecimal(value.total, value.currency),
    issuedAt: issuedAt.get(resolutionId) ?? null,
    reclaimed: reclaimed.get(resolutionId) ?? null,
  }));
}
