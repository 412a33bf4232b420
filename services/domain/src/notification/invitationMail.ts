import type { DomainEvent, EventOf, InvitationMailStatus } from '@claims/contracts';
import type { Decider } from '../decider.js';
import { ok } from '../result.js';

/** An invitee's invitation mail: which went out, and how many tries each took. */
export interface InvitationMailState {
  sent: ReadonlySet<string>;
  attempts: ReadonlyMap<string, number>;
}

export interface RecordInvitationMail {
  type: 'RecordInvitationMail';
  scope: Omit<EventOf<'InvitationMailFailed'>['data'], 'attempt' | 'error' | 'failedAt' | 'nextAttemptAt'>;
  /** A failure says when it is tried again (null: given up). */
  outcome: { sent: true; subject: string } | { sent: false; error: string; nextAttemptAt: string | null };
  now: string;
}

const evolve = (state: InvitationMailState, event: DomainEvent): InvitationMailState => {
  switch (event.type) {
    case 'InvitationMailSent':
      return {
        sent: new Set([...state.sent, event.data.notificationId]),
        attempts: new Map([...state.attempts, [event.data.notificationId, event.data.attempt]]),
      };
    case 'InvitationMailFailed':
      return { ...state, attempts: new Map([...state.attempts, [event.data.notificationId, event.data.attempt]]) };
    default:
      return state;
  }
};

/** The stream `invitation-mail:<user id>`: a mail is recorded once sent (a repeat records nothing), each failure counts a try. */
export const invitationMailDecider: Decider<InvitationMailState, RecordInvitationMail> = {
  initialState: { sent: new Set(), attempts: new Map() },
  evolve,
  decide(command, state) {
    const { scope, outcome, now } = command;
    if (state.sent.has(scope.notificationId)) return ok([]);
    const attempt = (state.attempts.get(scope.notificationId) ?? 0) + 1;
    return ok([
      outcome.sent
        ? { type: 'InvitationMailSent', data: { ...scope, subject: outcome.subject, attempt, sentAt: now } }
        : {
            type: 'InvitationMailFailed',
            data: { ...scope, attempt, error: outcome.error, failedAt: now, nextAttemptAt: outcome.nextAttemptAt },
          },
    ]);
  },
};

/** How the latest try of an invitee's invitation mail went (null: none yet), for the team's page. */
export function latestInvitationMail(events: readonly DomainEvent[]): InvitationMailStatus | null {
  const last = events.findLast((e) => e.type === 'InvitationMailSent' || e.type === 'InvitationMailFailed');
  if (last?.type === 'InvitationMailSent') {
    return {
      to: last.data.to,
      sent: true,
      attempt: last.data.attempt,
      at: last.data.sentAt,
      error: null,
      nextAttemptAt: null,
    };
  }
  if (last?.type === 'InvitationMailFailed') {
    return {
      to: last.data.to,
      sent: false,
      attempt: last.data.attempt,
      at: last.data.failedAt,
      error: last.data.error,
      nextAttemptAt: last.data.nextAttemptAt,
    };
  }
  return null;
}
