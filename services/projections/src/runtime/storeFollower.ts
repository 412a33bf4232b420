import type { Kysely } from 'kysely';
import { loadCheckpoint, readAll, type EventStoreTables } from '@claims/event-store';
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
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  async function drain(): Promise<void> {
    let position = await loadCheckpoint(db, checkpointName(projection));
    for (;;) {
      const page = await readAll(db, position, 1000);
      if (page.events.length === 0) return;
      await applyEvents(db, projection, page.events, { name: checkpointName(projection), position: page.next });
      position = page.next;
    }
  }

  function tick(): Promise<void> {
    running = running.then(drain).catch((error: unknown) => log.error({ err: error, projection: projection.name }, 'projection failed; retrying'));
    return running;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => void tick().then(schedule), pollMs);
  }
  schedule();

  return {
    catchUp: () => tick(),
    wake: () => void tick(),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
