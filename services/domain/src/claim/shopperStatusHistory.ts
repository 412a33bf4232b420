import {
  CLAIM_STATUS_LABELS,
  SHOPPER_VISIBLE_STATUSES,
  type DomainEvent,
  type ShopperStatusChange,
} from '@claims/contracts';
import { evolveClaim, type ClaimStateOrNone } from './claimState.js';

/** The statuses a claim's events moved it through, each with when, keeping only those a shopper sees. */
export function shopperStatusHistory(events: ReadonlyArray<{ event: DomainEvent; at: string }>): ShopperStatusChange[] {
  const history: ShopperStatusChange[] = [];
  let state: ClaimStateOrNone = null;
  for (const { event, at } of events) {
    const before = state?.status;
    state = evolveClaim(state, event);
    if (state && state.status !== before && SHOPPER_VISIBLE_STATUSES.includes(state.status)) {
      history.push({ status: state.status, statusLabel: CLAIM_STATUS_LABELS[state.status], at });
    }
  }
  return history;
}
