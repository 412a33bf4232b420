import type { Kysely } from 'kysely';
import {
  catchUpCheckpoint,
  hasReached,
  loadCheckpoint,
  readAll,
  startPollingLoop,
  storeCheckpoint,
  type EventStoreTables,
  type RecordedEvent,
} from '@claims/event-store';
import type { Logger } from 'pino';
import type { Projection } from './projection.js';
import { projectionCheckpointName } from './readerProgress.js';
import {
  DEFAULT_FAULT_POLICY,
  ProjectorGuard,
  RetryLater,
  type FaultPolicy,
  type ProjectorStatus,
} from './projectionFaults.js';

export interface Follower {
  /** Resolves once every event committed before the call has been applied (or parked). */
  catchUp(): Promise<void>;
  wake(): void;
  status(): ProjectorStatus;
  stop(): Promise<void>;
}

const positionOf = (event: RecordedEvent) => ({
  transactionId: event.transactionId,
  globalPosition: event.globalPosition,
});

/**
 * Reads the event store directly (no Kafka): polls, and wakes early when this process appends. A
 * failing batch is retried after a growing pause, and an event failing every try is parked.
 */
export function followStore(
  db: Kysely<EventStoreTables>,
  projection: Projection,
  log: Logger,
  pollMs = 250,
  policy: FaultPolicy = DEFAULT_FAULT_POLICY,
): Follower {
  const guard = new ProjectorGuard(db, projection, log, policy);
  let retryAt = 0;

  async function drain(): Promise<void> {
    if (Date.now() < retryAt) return;
    let position = await loadCheckpoint(db, projectionCheckpointName(projection));
    for (;;) {
      // Only the types it handles: the rest would be parsed and dropped (docs/benchmarks.md, "Projections").
      const page = await readAll(db, position, 1000, projection.handles);
      if (page.events.length === 0) {
        // Nothing of its own up to the head: the checkpoint still moves, so catchUp sees it there.
        if (!hasReached(position, page.next))
          await storeCheckpoint(db, projectionCheckpointName(projection), page.next);
        return;
      }
      try {
        await guard.apply(page.events, page.events.map(positionOf));
      } catch (error) {
        if (!(error instanceof RetryLater)) throw error;
        retryAt = Date.now() + error.delayMs;
        return;
      }
      position = page.next;
    }
  }

  const loop = startPollingLoop(drain, pollMs, (error) =>
    log.error({ err: error, projection: projection.name }, 'projection failed; retrying'),
  );

  let stopping = false;
  /**
   * Waits out a backoff too: a batch to be retried is not caught up (a failing event ends parked, so this ends).
   * And waits for the events committed before the call that readAll cannot return yet, because a transaction
   * open elsewhere on the server holds its horizon back (another database's load does).
   */
  const catchUp = () =>
    catchUpCheckpoint(db, loop, projectionCheckpointName(projection), {
      givenUp: () => stopping,
      pending: () => guard.status().state !== 'ok',
      pauseMs: () => Math.max(retryAt - Date.now(), Math.min(pollMs, 50)),
    });

  return {
    catchUp,
    wake: loop.wake,
    status: () => guard.status(),
    stop: () => {
      stopping = true;
      return loop.stop();
    },
  };
}
