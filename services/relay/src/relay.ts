import type { Kysely } from 'kysely';
import type { Kafka, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { CLAIM_EVENTS_TOPIC } from '@claims/contracts';
import {
  loadCheckpoint, readAll, startPollingLoop, storeCheckpoint, toEnvelope, tryLead,
  type Database, type EventStoreTables, type Leadership,
} from '@claims/event-store';

export const RELAY_CHECKPOINT = 'relay:kafka';
const LEADERSHIP_LOCK = 'claims-relay';

export interface Relay {
  wake(): void;
  /** Resolves once every event committed before the call has been published. */
  catchUp(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Publishes the event store to Kafka in (transaction, position) order, key = stream id, so each
 * stream keeps its order within its partition. The checkpoint moves only after the broker has
 * acknowledged, so a crash republishes rather than loses (consumers skip what they have applied).
 */
async function publishPending(db: Kysely<EventStoreTables>, producer: Producer, topic: string): Promise<number> {
  let position = await loadCheckpoint(db, RELAY_CHECKPOINT);
  let published = 0;
  for (;;) {
    const page = await readAll(db, position, 500);
    if (page.events.length === 0) return published;
    await producer.send({
      topic,
      acks: -1,
      messages: page.events.map((event) => ({
        key: event.streamId,
        value: JSON.stringify(toEnvelope(event)),
        headers: { 'event-type': event.type },
      })),
    });
    await storeCheckpoint(db, RELAY_CHECKPOINT, page.next);
    position = page.next;
    published += page.events.length;
  }
}

/** Starts the relay; only the instance holding the advisory lock publishes, the others wait their turn. */
export async function startRelay(database: Database, kafka: Kafka, log: Logger, topic = CLAIM_EVENTS_TOPIC, pollMs = 200): Promise<Relay> {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: true });
  await producer.connect();
  let leadership: Leadership | null = null;
  let stopped = false;

  async function step(): Promise<void> {
    if (stopped) return;
    if (!leadership) {
      leadership = await tryLead(database, LEADERSHIP_LOCK);
      if (!leadership) return;
      log.info('relay leads: publishing to %s', topic);
      void leadership.lost.then(() => {
        if (!stopped) log.warn('relay lost its lock; will try to lead again');
        leadership = null;
      });
    }
    const count = await publishPending(database.db, producer, topic);
    if (count > 0) log.debug({ count }, 'relay published');
  }

  const loop = startPollingLoop(step, pollMs, (error) => log.error({ err: error }, 'relay step failed; retrying'));

  return {
    wake: loop.wake,
    catchUp: loop.runNow,
    async stop() {
      stopped = true;
      await loop.stop();
      await leadership?.release();
      await producer.disconnect();
    },
  };
}
