import type { DomainEvent, EventReader } from '@claims/contracts';
import {
  catchUpCheckpoint,
  storedDomainEvent,
  initCheckpoint,
  lastCommittedPosition,
  loadCheckpoint,
  readAll,
  startPollingLoop,
  storeCheckpoint,
  type Leases,
  type PollingLoop,
  type Position,
  type RecordedEvent,
} from '@claims/event-store';
import { sql } from 'kysely';
import type { FaultPolicy } from '@claims/projections';
import type { AppContext } from '../context.js';
import { parkReactionEvent } from './reactionFaults.js';

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
  /**
   * How many of its events it takes at once (each reaction says why its number): its checkpoint moves once per batch,
   * and a crash repeats at most one batch.
   */
  readonly batchSize: number;
  /**
   * Handles events in the store's order, several at once (reading and writing what they share in a few statements,
   * never one round trip per event where a batch would do), each stream's own still in order. A failure fails the
   * batch: the runtime then halves it down to the event that fails alone.
   */
  react(ctx: AppContext, events: readonly ReactedEvent[]): Promise<void>;
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

const movedPast = (next: Position, from: Position) =>
  next.transactionId !== from.transactionId || next.globalPosition !== from.globalPosition;

/**
 * An event that fails `maxAttempts` times is parked; between tries the reaction waits `baseDelayMs`, doubling up to
 * `maxDelayMs` (a dead mail server is not hammered).
 */
export const REACTION_FAULT_POLICY: FaultPolicy = { maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 60_000 };

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

export interface ReactionLoopOptions {
  pollMs?: number;
  faults?: FaultPolicy;
  /**
   * The process's leases (`leaseGroup`): a reaction runs only where its checkpoint's lease is held, so processes
   * running the same reactions never handle one event twice at once; another takes over when the holder dies.
   */
  leases?: Leases;
}

/**
 * Follows the event store from the reaction's own checkpoint, a batch (`batchSize`) at a time, the checkpoint moving
 * once the batch is handled: a crash repeats at most the batch in hand, never skips an event. A failing batch is halved
 * down to the one event that fails alone (the events around it still go in batches, about 2·log2(n) tries); that event
 * holds the reaction back and is retried with a growing delay, and after `maxAttempts` tries it is parked
 * (reaction_parked, an error log) and the reaction moves on past it, so one bad event does not stop the reaction for
 * every store. Failures while the database does not answer are not the events' and never park one.
 */
export function startReaction(ctx: AppContext, reaction: Reaction, options: ReactionLoopOptions = {}): ReactionLoop {
  const pollMs = options.pollMs ?? 250;
  const policy = options.faults ?? REACTION_FAULT_POLICY;
  const db = ctx.database.db;
  let failures = 0;
  let retryAt = 0;
  let lastError = '';
  /** Failed tries per event not yet handled nor parked (this process's count: a restart tries afresh). */
  const attempts = new Map<string, number>();
  async function drain(): Promise<void> {
    if (Date.now() < retryAt) return;
    try {
      if (options.leases && !(await options.leases.holds(checkpointName(reaction)))) return;
      await drainFromCheckpoint();
      failures = 0;
    } catch (error) {
      failures++;
      lastError = error instanceof Error ? error.message : String(error);
      retryAt = Date.now() + Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failures - 1));
      throw error;
    }
  }
  const databaseAnswers = () =>
    sql`select 1`.execute(db).then(
      () => true,
      () => false,
    );
  /** After a failed try of `event` alone: parks it once it has had every try, else rethrows to retry later. */
  async function failed(event: ReactedEvent, error: unknown): Promise<void> {
    if (!(await databaseAnswers())) throw error;
    const tries = (attempts.get(event.eventId) ?? 0) + 1;
    if (tries < policy.maxAttempts) {
      attempts.set(event.eventId, tries);
      throw error;
    }
    await parkReactionEvent(db, reaction.name, checkpointName(reaction), event, error, tries);
    attempts.delete(event.eventId);
    ctx.log.error(
      {
        err: error,
        reaction: reaction.name,
        eventId: event.eventId,
        streamId: event.streamId,
        type: event.type,
        attempts: tries,
        alert: 'reaction_parked',
      },
      'reaction parked an event it could not handle; it moves on without it',
    );
  }
  /**
   * Handles events[from..to) as one batch; failing, each half in turn, down to the event that fails alone. Slices go in
   * order, so when one throws every event before it is handled (`handled` says up to where).
   */
  async function handleSlice(
    events: readonly ReactedEvent[],
    from: number,
    to: number,
    handled: { through: number },
  ): Promise<void> {
    try {
      await reaction.react(ctx, events.slice(from, to));
      for (const event of events.slice(from, to)) attempts.delete(event.eventId);
      handled.through = to - 1;
      return;
    } catch (error) {
      if (to - from === 1) {
        // Parked (else it throws): the checkpoint is past it.
        await failed(events[from]!, error);
        handled.through = from;
        return;
      }
      if (!(await databaseAnswers())) throw error;
    }
    const middle = from + Math.ceil((to - from) / 2);
    await handleSlice(events, from, middle, handled);
    await handleSlice(events, middle, to, handled);
  }
  // Only the types it handles come over the wire (five reactions each read and parsed every event before).
  const types = [...reaction.handles];
  async function drainFromCheckpoint(): Promise<void> {
    let position = await loadCheckpoint(db, checkpointName(reaction));
    for (;;) {
      const page = await readAll(db, position, reaction.batchSize, types);
      if (page.events.length === 0 && !movedPast(page.next, position)) return;
      const events = page.events.map((recorded): ReactedEvent => ({ ...recorded, ...storedDomainEvent(recorded) }));
      const handled = { through: -1 };
      try {
        if (events.length > 0) await handleSlice(events, 0, events.length, handled);
      } catch (error) {
        // What was handled before the failure is not handled again on the retry.
        const last = events[handled.through];
        if (last)
          await storeCheckpoint(db, checkpointName(reaction), {
            transactionId: last.transactionId,
            globalPosition: last.globalPosition,
          }).catch(() => undefined);
        throw error;
      }
      // Past the events of other types too, so the next read starts at the head.
      await storeCheckpoint(db, checkpointName(reaction), page.next);
      position = page.next;
      // A page that is not full read everything visible (readAll).
      if (page.events.length < reaction.batchSize) return;
    }
  }
  const loop = startPollingLoop(drain, pollMs, (error) =>
    ctx.log.error({ err: error, reaction: reaction.name }, 'reaction failed; retrying'),
  );
  let stopping = false;
  return {
    ...loop,
    catchUp: () =>
      catchUpCheckpoint(db, loop, checkpointName(reaction), {
        givenUp: () => stopping || failures > 0,
        pauseMs: () => Math.min(pollMs, 50),
      }),
    stop: () => {
      stopping = true;
      return loop.stop();
    },
    status: () =>
      failures === 0 ? { state: 'ok' } : { state: 'failing', reason: `${failures} failed tries; last: ${lastError}` },
  };
}
