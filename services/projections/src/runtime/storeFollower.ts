import type { Kysely } from 'kysely';
import { loadCheckpoint, readAll, startPollingLoop, type EventStoreTables } from '@claims/event-store';
import type { Logger } from 'pino';
import { applyEvents } from './applyEvents.js';
import type { Projection } from './projection.js';

export interface Follower {
  /** Resolves once every event committed before the call has been applied. */
  catchUp(): Promise<void>;
  wake(): void;
  stop(): Promise<void>;
}

const checkpointName = (projection: Projection) => `projection:${projection.name}`;

/** Reads the event store directly (no Kafka): polls, and wakes early when this process appends. */
export function followStore(db: Kysely<EventStoreTables>, projection: Projection, log: Logger, pollMs = 250): Follower {
  async function drain(): Promise<void> {
    let position = await loadCheckpoint(db, checkpointName(projection));
    for (;;) {
      const page = await readAll(db, position, 1000);
      if (page.events.length === 0) return;
      await applyEvents(db, projection, page.events, { name: checkpointName(projection), position: page.next });
      position = page.next;
    }
  }

  const loop = startPollingLoop(drain, pollMs, (error) => log.error({ err: error, projection: projection.name }, 'projection failed; retrying'));
  return { catchUp: loop.runNow, wake: loop.wake, stop: loop.stop };
}
