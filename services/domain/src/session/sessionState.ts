import type { ClaimSession, DomainEvent } from '@claims/contracts';

/** A claim session as its events make it; null before it starts and after it is deleted. */
export type SessionState = Omit<ClaimSession, 'updatedAt'> | null;

export function evolveSession(state: SessionState, event: DomainEvent): SessionState {
  switch (event.type) {
    case 'ClaimSessionStarted':
      return {
        id: event.data.sessionId,
        orderId: event.data.orderId,
        email: event.data.email,
        status: null,
        metadata: null,
      };
    case 'ClaimSessionStatusChanged':
      return state && { ...state, status: event.data.status };
    case 'ClaimSessionMetadataSaved':
      return state && { ...state, metadata: event.data.metadata };
    case 'ClaimSessionDeleted':
      return null;
    default:
      return state;
  }
}
