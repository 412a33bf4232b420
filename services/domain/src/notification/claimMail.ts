import { SHOPPER_MAILED_STATUSES, type DomainEvent, type EventOf, type NotificationKind, type TeamNotificationKind } from '@claims/contracts';
import { ok, type Result } from '../result.js';
import type { Decider } from '../decider.js';
import { decidesWholeClaim } from '../claim/wholeDecision.js';

/** Which of a claim's events the shopper hears about by mail, and as what. */
export function notificationKindOf(event: DomainEvent): Exclude<NotificationKind, TeamNotificationKind> | null {
  switch (event.type) {
    case 'ClaimFiled':
      return 'claim_filed';
    // Their own messages are not mailed back to them.
    case 'ClaimMessageSent':
      return event.data.senderType === 'customer' ? null : 'store_reply';
    case 'ClaimStatusChanged':
      return SHOPPER_MAILED_STATUSES.includes(event.data.to) ? 'status_changed' : null;
    // One decision mail, once the claim as a whole is decided (contract §Notifications): not one per item decided.
    case 'ClaimResolved':
      return decidesWholeClaim(event.data) ? 'claim_resolved' : null;
    default:
      return null;
  }
}

/** Which of a claim's events its store's team may hear about by mail (each member as they chose), and as what. */
export function teamNotificationKindOf(event: DomainEvent): TeamNotificationKind | null {
  switch (event.type) {
    case 'ClaimFiled':
      return 'new_claim';
    // The team writes the other messages itself.
    case 'ClaimMessageSent':
      return event.data.senderType === 'customer' ? 'customer_reply' : null;
    default:
      return null;
  }
}

/** A claim's mail: which notifications went out and how many attempts each took. */
export interface ClaimMailState {
  sent: ReadonlySet<string>;
  attempts: ReadonlyMap<string, number>;
}

export interface RecordNotification {
  type: 'RecordNotification';
  scope: Omit<EventOf<'ClaimNotificationSent'>['data'], 'attempt' | 'sentAt'>;
  /** A failure says when it is tried again (null: given up). */
  outcome: { sent: true } | { sent: false; error: string; nextAttemptAt: string | null };
  now: string;
}

const evolve = (state: ClaimMailState, event: DomainEvent): ClaimMailState => {
  switch (event.type) {
    case 'ClaimNotificationSent':
      return { sent: new Set([...state.sent, event.data.notificationId]), attempts: new Map([...state.attempts, [event.data.notificationId, event.data.attempt]]) };
    case 'ClaimNotificationFailed':
      return { ...state, attempts: new Map([...state.attempts, [event.data.notificationId, event.data.attempt]]) };
    default:
      return state;
  }
};

/** A notification is recorded once sent; a repeat of a sent one records nothing, each failure counts an attempt. */
export const claimMailDecider: Decider<ClaimMailState, RecordNotification> = {
  initialState: { sent: new Set(), attempts: new Map() },
  evolve,
  decide(command, state): Result<DomainEvent[]> {
    const { scope, now } = command;
    if (state.sent.has(scope.notificationId)) return ok([]);
    const attempt = (state.attempts.get(scope.notificationId) ?? 0) + 1;
    return ok([command.outcome.sent
      ? { type: 'ClaimNotificationSent', data: { ...scope, attempt, sentAt: now } }
      : { type: 'ClaimNotificationFailed', data: { ...scope, attempt, error: command.outcome.error, failedAt: now, nextAttemptAt: command.outcome.nextAttemptAt } }]);
  },
};

export interface IssueClaimLink {
  type: 'IssueClaimLink';
  claimId: string;
  tokenHash: string;
  now: string;
}

/** A claim's further links: the hashes of every token issued after the first (which the claim itself holds). */
export const claimLinksDecider: Decider<readonly string[], IssueClaimLink> = {
  initialState: [],
  evolve: (state, event) => (event.type === 'ClaimLinkIssued' ? [...state, event.data.tokenHash] : state),
  decide: (command) => ok([{ type: 'ClaimLinkIssued', data: { claimId: command.claimId, tokenHash: command.tokenHash, issuedAt: command.now } }]),
};
