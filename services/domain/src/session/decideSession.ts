import type { DomainEvent, SessionCommand } from '@claims/contracts';
import { fail, ok, type Result } from '../result.js';
import type { Decider } from '../decider.js';
import { sameJson } from '../sameJson.js';
import { evolveSession, type SessionState } from './sessionState.js';

/** Saves what changed and nothing else, so an unchanged save leaves no event. */
export function decideSession(command: SessionCommand, state: SessionState): Result<DomainEvent[]> {
  switch (command.type) {
    case 'UpdateSession': {
      const events: DomainEvent[] = [];
      if (!state) {
        events.push({
          type: 'ClaimSessionStarted',
          data: { sessionId: command.sessionId, orderId: command.orderId, email: command.email },
        });
      } else if (state.orderId !== command.orderId || state.email.toLowerCase() !== command.email.toLowerCase()) {
        return fail('session_not_found', 'No claim session matches that order and email.');
      }
      if (command.status && command.status !== state?.status) {
        events.push({
          type: 'ClaimSessionStatusChanged',
          data: { sessionId: command.sessionId, status: command.status },
        });
      }
      if (command.metadata && !sameJson(command.metadata, state?.metadata ?? null)) {
        events.push({
          type: 'ClaimSessionMetadataSaved',
          data: { sessionId: command.sessionId, metadata: command.metadata },
        });
      }
      return ok(events);
    }
    case 'DeleteSession':
      if (!state) return fail('session_not_found', 'No claim session with that id.');
      return ok([{ type: 'ClaimSessionDeleted', data: { sessionId: command.sessionId, reason: command.reason } }]);
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
}

/** A shopper's draft claim: one stream per order (its id derived from the order's). */
export const sessionDecider: Decider<SessionState, SessionCommand> = {
  initialState: null,
  evolve: evolveSession,
  decide: decideSession,
};
