import type { DomainEvent } from '@claims/contracts';
import type { Decider } from '../decider.js';
import { ok } from '../result.js';

/** An order's requests for its claim links: which were answered by mail, and how many tries each took. */
export interface ClaimLinksRequests {
  sent: ReadonlySet<string>;
  attempts: ReadonlyMap<string, number>;
  lastRequestedAt: string | null;
}

/** At most one mail of links per order this often, however many ask (an inbox is not a target to flood). */
export const CLAIM_LINKS_INTERVAL_MS = 5 * 60_000;

interface RequestScope {
  orderId: string;
  storeId: string;
  requestId: string;
}

export type ClaimLinksCommand =
  | { type: 'RequestClaimLinks'; scope: RequestScope; now: string }
  | {
      type: 'RecordClaimLinksMail';
      scope: RequestScope;
      to: string;
      outcome:
        | { sent: true; claimIds: string[]; subject: string }
        | { sent: false; error: string; nextAttemptAt: string | null };
      now: string;
    };

const evolve = (state: ClaimLinksRequests, event: DomainEvent): ClaimLinksRequests => {
  switch (event.type) {
    case 'ClaimLinksRequested':
      return { ...state, lastRequestedAt: event.data.requestedAt };
    case 'ClaimLinksMailSent':
      return {
        ...state,
        sent: new Set([...state.sent, event.data.requestId]),
        attempts: new Map([...state.attempts, [event.data.requestId, event.data.attempt]]),
      };
    case 'ClaimLinksMailFailed':
      return { ...state, attempts: new Map([...state.attempts, [event.data.requestId, event.data.attempt]]) };
    default:
      return state;
  }
};

/**
 * The stream `order-notifications:<order id>`: a request is recorded unless one was within `CLAIM_LINKS_INTERVAL_MS`
 * (that mail answers both), and its mail once sent (a repeat records nothing).
 */
export const claimLinksRequestDecider: Decider<ClaimLinksRequests, ClaimLinksCommand> = {
  initialState: { sent: new Set(), attempts: new Map(), lastRequestedAt: null },
  evolve,
  decide(command, state) {
    switch (command.type) {
      case 'RequestClaimLinks': {
        const recent =
          state.lastRequestedAt !== null &&
          Date.parse(command.now) - Date.parse(state.lastRequestedAt) < CLAIM_LINKS_INTERVAL_MS;
        return ok(
          recent ? [] : [{ type: 'ClaimLinksRequested', data: { ...command.scope, requestedAt: command.now } }],
        );
      }
      case 'RecordClaimLinksMail': {
        const { scope, outcome, to, now } = command;
        if (state.sent.has(scope.requestId)) return ok([]);
        const attempt = (state.attempts.get(scope.requestId) ?? 0) + 1;
        return ok([
          outcome.sent
            ? {
                type: 'ClaimLinksMailSent',
                data: { ...scope, claimIds: outcome.claimIds, to, subject: outcome.subject, attempt, sentAt: now },
              }
            : {
                type: 'ClaimLinksMailFailed',
                data: {
                  ...scope,
                  to,
                  attempt,
                  error: outcome.error,
                  failedAt: now,
                  nextAttemptAt: outcome.nextAttemptAt,
                },
              },
        ]);
      }
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  },
};
