import {
  decideBy,
  ignoring,
  readerOfTable,
  SHOPPER_MAILED_STATUSES,
  type DecisionTable,
  type DomainEvent,
  type EventOf,
  type EventReader,
  type EventTypeIn,
  type NotificationKind,
  type TeamNotificationKind,
} from '@claims/contracts';
import { ok, type Result } from '../result.js';
import type { Decider } from '../decider.js';
import { decidesWholeClaim } from '../claim/wholeDecision.js';

type ShopperNotificationKind = Exclude<NotificationKind, TeamNotificationKind>;

/** Which of a claim's events the shopper hears about by mail, and as what: a decision on every claim event. */
const SHOPPER_MAIL: DecisionTable<'claim', ShopperNotificationKind | null> = {
  ClaimFiled: () => 'claim_filed',
  // Their own messages are not mailed back to them.
  ClaimMessageSent: (event) => (event.data.senderType === 'customer' ? null : 'store_reply'),
  ClaimStatusChanged: (event) => (SHOPPER_MAILED_STATUSES.includes(event.data.to) ? 'status_changed' : null),
  // One decision mail, once the claim as a whole is decided (contract §Notifications): not one per item decided.
  ClaimResolved: (event) => (decidesWholeClaim(event.data) ? 'claim_resolved' : null),
  // What they did themselves, or the back-office's own.
  ClaimReviewed: 'ignore',
  ClaimAssigned: 'ignore',
  // The claim goes back to work: the shopper hears of the new decision when it is made.
  ClaimResolutionReversed: 'ignore',
  // The desk's marks are its own; the shopper starts a return on the claim page, which shows its label and status.
  ...ignoring('deskMarks', 'returns'),
};

/** Which of a claim's events its store's team may hear about by mail (each member as they chose), and as what. */
const TEAM_MAIL: DecisionTable<'claim', TeamNotificationKind | null> = {
  ClaimFiled: () => 'new_claim',
  // The team writes the other messages itself.
  ClaimMessageSent: (event) => (event.data.senderType === 'customer' ? 'customer_reply' : null),
  // The rest is the team's own work, which it sees on the desk.
  ClaimStatusChanged: 'ignore',
  ClaimReviewed: 'ignore',
  ClaimAssigned: 'ignore',
  ...ignoring('decisions', 'deskMarks', 'returns'),
};

/** What the shopper's mail reads: the claim events it may mail about. */
export const SHOPPER_MAIL_READER: EventReader<EventTypeIn<'claim'>> = readerOfTable(['claim'], SHOPPER_MAIL);
/** What the team's mail reads. */
export const TEAM_MAIL_READER: EventReader<EventTypeIn<'claim'>> = readerOfTable(['claim'], TEAM_MAIL);

/** Which of a claim's events the shopper hears about by mail, and as what. */
export const notificationKindOf = (event: DomainEvent): ShopperNotificationKind | null => decideBy(SHOPPER_MAIL, event);

/** Which of a claim's events its store's team may hear about by mail, and as what. */
export const teamNotificationKindOf = (event: DomainEvent): TeamNotificationKind | null => decideBy(TEAM_MAIL, event);

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
      return {
        sent: new Set([...state.sent, event.data.notificationId]),
        attempts: new Map([...state.attempts, [event.data.notificationId, event.data.attempt]]),
      };
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
    return ok([
      command.outcome.sent
        ? { type: 'ClaimNotificationSent', data: { ...scope, attempt, sentAt: now } }
        : {
            type: 'ClaimNotificationFailed',
            data: {
              ...scope,
              attempt,
              error: command.outcome.error,
              failedAt: now,
              nextAttemptAt: command.outcome.nextAttemptAt,
            },
          },
    ]);
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
  decide: (command) =>
    ok([
      {
        type: 'ClaimLinkIssued',
        data: { claimId: command.claimId, tokenHash: command.tokenHash, issuedAt: command.now },
      },
    ]),
};
