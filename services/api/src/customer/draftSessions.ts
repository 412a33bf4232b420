import { readerOf, type ClaimSession, ignoring } from '@claims/contracts';
import { sessionDecider, type SessionState } from '@claims/domain';
import type { AppContext } from '../context.js';
import { handleCommandsInBatch, loadAggregate, type Handled, type Loaded } from '../eventsourcing/commandHandler.js';
import type { Reaction } from '../eventsourcing/reactions.js';
import { nameBasedId } from '../eventsourcing/nameBasedId.js';
import { AppError } from '../platform/errors.js';

/** One session per order: its id is derived from the order's id, so any device finds the same one. */
export const sessionIdOf = (orderId: string): string => nameBasedId(`claim-session:${orderId}`);

export const loadSession = (ctx: AppContext, sessionId: string) => loadAggregate(ctx, sessionDecider, sessionId);

/** The draft as the shopper sees it; updated when its last event was recorded (now, for one just decided). */
export function toSessionView(loaded: Loaded<SessionState> | Handled<SessionState>, now: string): ClaimSession | null {
  if (!loaded.state) return null;
  const updatedAt = 'decided' in loaded && loaded.decided.length > 0 ? now : (loaded.events.at(-1)?.occurredAt ?? now);
  return { ...loaded.state, updatedAt };
}

/**
 * The draft is deleted once its claim is submitted; after the claim commits, never inside its request
 * (docs/product.md#draft-claim). 500 filings at once (the store's page): each costs a session read and a deletion,
 * so a batch is two statements (every draft read in one query, every deletion appended in one) whatever its size;
 * nothing slow or outside waits.
 */
export const closeDraftOnFiling: Reaction = {
  name: 'close-draft-on-filing',
  batchSize: 500,
  ...readerOf(['claim'], {
    ClaimFiled: 'handle',
    ClaimStatusChanged: 'ignore',
    ClaimAssigned: 'ignore',
    ...ignoring('decisions', 'conversation', 'deskMarks', 'returns'),
  }),
  async react(ctx, events) {
    const commands = events.flatMap((event) => {
      if (event.type !== 'ClaimFiled') return [];
      const sessionId = sessionIdOf(event.data.orderId);
      const meta = {
        actor: { type: 'system', id: 'claim-filing', name: 'Claim filing' },
        correlationId: event.metadata.correlationId,
        causationId: event.eventId,
      } as const;
      return [
        {
          streamId: sessionId,
          storeId: event.data.storeId,
          meta,
          command: { type: 'DeleteSession', sessionId, reason: 'claim_filed' } as const,
        },
      ];
    });
    for (const outcome of await handleCommandsInBatch(ctx, sessionDecider, commands)) {
      // No draft (none was saved, or it is already closed): nothing to do, as on a repeat.
      if (!outcome.ok && !(outcome.error instanceof AppError && outcome.error.code === 'session_not_found'))
        throw outcome.error;
    }
  },
};
