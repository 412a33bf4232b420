import type { DomainEvent, EventReader } from '@claims/contracts';
import { catchUpCheckpoint, storedDomainEvent, initCheckpoint, lastCommittedPosition, loadCheckpoint, readAll, startPollingLoop, storeCheckpoint, type PollingLoop, type Position, type RecordedEvent } from '@claims/event-store';
import type { AppContext } from '../context.js';

/** An event as a reaction receives it: where it was recorded, with its data typed by its type. */
export type ReactedEvent = Omit<RecordedEvent, 'type' | 'data'> & DomainEvent;

/**
 * What the product does after a commit, outside the request that caused it (closing a draft once its
 * claim is filed, and the like), with its decision on every event type of the streams it reads (`readerOf`).
 * Delivery is at least once, so `react` must be safe to repeat.
 */
export interface Reaction extends EventReader {
  readonly name: string;
  /**
   * A reaction added to a product already running starts where the store is on its first run, instead of at the
   * first event ever (a new kind of mail is not sent about years of old claims).
   */
  readonly fromFirstRun?: 'beginning' | 'now';
  react(ctx: AppContext, event: ReactedEvent): Promise<void>;
}

/** Where a reaction's checkpoint lives in `checkpoints`. */
export const reactionCheckpointName = (reaction: Pick<Reaction, 'name'>) => `reaction:${reaction.name}`;
const checkpointName = reactionCheckpointName;

/**
 * A reaction that starts `now` on its first run gets its checkpoint at the last committed event, before its loop and
 * the server start (a no-op once it has one), so what is appended after start-up is its to handle.
 */
export async function prepareReaction(ctx: AppContext, reaction: Reaction): Promise<void> {
  if (reaction.fromFirstRun !== 'now') return;
  await initCheckpoint(ctx.database.db, checkpointName(reaction), await lastCommittedPosition(ctx.database.db));
}

const PAGE = 500;

const movedPast = (next: Position, from: Position) => next.transactionId !== from.transactionId || next.globalPosition !== from.globalPosition;

/** After a failure the reaction waits this long before trying again, doubling up to a minute. */
const FIRST_RETRY_MS = 500;
const LONGEST_RETRY_MS = 60_000;

/** A running reaction: its loop, and whether its last try failed (and why). */
export interface ReactionLoop extends PollingLoop {
  /**
   * Resolves once every event committed before the call has been handled, or once the reaction is failing (it retries
   * on its own, up to a minute apart). One run is not enough: events committed behind a transaction still open
   * elsewhere are not readable yet (readAll), and a run inside a retry's pause does nothing.
   */
  catchUp(): Promise<void>;
  status(): { state: 'ok' } | { state: 'failing'; reason: string };
}

/**
 * Follows the event store from the reaction's own checkpoint, which moves after each event is
 * handled: a crash repeats at most the event in hand, never skips one. A failing event holds the
 * reaction back and is retried with a growing delay (a dead mail server is not hammered).
 */
export function startReaction(ctx: AppContext, reaction: Reaction, pollMs = 250): ReactionLoop {
  const db = ctx.database.db;
  let failures = 0;
  let retryAt = 0;
  let lastError = '';
  async function drain(): Promise<void> {
    if (Date.now() < retryAt) return;
    try {
      await drainFromCheckpoint();
      failures = 0;
    } catch (error) {
      failures++;
      lastError = error instanceof Error ? error.message : String(error);
      retryAt = Date.now() + Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** (failures - 1));
      throw error;
    }
  }
  // Only the types it handles come over the wire (five reactions each read and parsed every event before).
  const types = [...reaction.handles];
  async function drainFromCheckpoint(): Promise<void> {
    let position = await loadCheckpoint(db, checkpointName(reaction));
    for (;;) {
      const page = await readAll(db, position, PAGE, types);
      if (page.events.length === 0 && !movedPast(page.next, position)) return;
      for (const [i, event] of page.events.entries()) {
        await reaction.react(ctx, { ...event, ...storedDomainEvent(event) });
        // The last event's own checkpoint would be overwritten at once by the page's below.
        if (i < page.events.length - 1) await storeCheckpoint(db, checkpointName(reaction), { transactionId: event.transactionId, globalPosition: event.globalPosition });
      }
      // Past the events of other types too, so the next read starts at the head.
      await storeCheckpoint(db, checkpointName(reaction), page.next);
      position = page.next;
      // A page that is not full read everything visible (readAll).
      if (page.events.length < PAGE) return;
    }
  }
  const loop = startPollingLoop(drain, pollMs, (error) => ctx.log.error({ err: error, reaction: reaction.name }, 'reaction failed; retrying'));
  let stopping = false;
  return {
    ...loop,
    catchUp: () => catchUpCheckpoint(db, loop, checkpointName(reaction), { givenUp: () => stopping || failures > 0, pauseMs: () => Math.min(pollMs, 50) }),
    stop: () => {
      stopping = true;
      return loop.stop();
    },
    status: () => (failures === 0 ? { state: 'ok' } : { state: 'failing', reason: `${failures} failed tries; last: ${lastError}` }),
  };
}
