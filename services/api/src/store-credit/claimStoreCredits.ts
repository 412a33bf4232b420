import { toDecimal, type Claim, type ClaimStoreCredit } from '@claims/contracts';
import { storedDomainEvent } from '@claims/event-store';
import { storeCreditDecider } from '@claims/domain';
import type { AppContext } from '../context.js';
import { loadAggregate } from '../eventsourcing/commandHandler.js';
import { creditStreamOf } from './storeCreditLedger.js';
import { storeCreditLinesOf, type StoredEvent } from './storeCreditLines.js';

/**
 * The store credit a claim gives its shopper, in the claim's currency with its bonus, and when the customer's
 * credit ledger issued each line (the issuing reaction runs after the decision, so at first it may not have).
 */
export async function claimStoreCredits(ctx: AppContext, claim: Claim, events: readonly StoredEvent[]): Promise<ClaimStoreCredit[]> {
  const lines = storeCreditLinesOf(claim.currency, events);
  if (lines.length === 0) return [];
  const ledger = await loadAggregate(ctx, storeCreditDecider, creditStreamOf(claim.storeId, claim.customer.email));
  const issuedAt = new Map(ledger.events.flatMap((recorded) => {
    if (recorded.type !== 'StoreCreditIssued') return [];
    const event = storedDomainEvent(recorded);
    return event.type === 'StoreCreditIssued' ? [[event.data.resolutionId, event.data.issuedAt] as const] : [];
  }));
  return lines.map(({ resolutionId, claim: value }) => ({
    resolutionId, currency: value.currency, credit: toDecimal(value.credit, value.currency), bonus: toDecimal(value.bonus, value.currency),
    total: toDecimal(value.total, value.currency), issuedAt: issuedAt.get(resolutionId) ?? null,
  }));
}
