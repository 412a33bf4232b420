import { storedDomainEvent } from '@claims/event-store';
import { storeCreditOf, type StoreCreditValue } from '@claims/domain';

export type StoredEvent = { type: string; data: unknown };

/** Each STORE_CREDIT line a claim's events decided, valued under the rules recorded with its decision. */
export function storeCreditLinesOf(
  claimCurrency: string,
  events: readonly StoredEvent[],
): Array<{ resolutionId: string; claim: StoreCreditValue; store: StoreCreditValue }> {
  return events.flatMap((recorded) => {
    if (recorded.type !== 'ClaimResolved') return [];
    const event = storedDomainEvent(recorded);
    if (event.type !== 'ClaimResolved') return [];
    return event.data.resolutions.flatMap((line) => {
      const value = storeCreditOf(line, claimCurrency, event.data.valuation);
      return value ? [{ resolutionId: line.id, ...value }] : [];
    });
  });
}
