import type { Kysely } from 'kysely';
import type { Consumer, Kafka } from 'kafkajs';
import { CLAIM_EVENTS_TOPIC, EventEnvelope } from '@claims/contracts';
import type { Logger } from 'pino';
import { parsedDomainEvent } from './applyEvents.js';
import type { Projection } from './projection.js';
import { DEFAULT_FAULT_POLICY, ProjectorGuard, RetryLater, type FaultPolicy, type ProjectorStatus } from './projectionFaults.js';

/**
 * A projection as a Kafka consumer group. Offsets are committed only after the batch's database
 * transaction, and the per-stream offsets inside it skip anything redelivered.
 */
export interface KafkaSubscription {
  topic: string;
  groupPrefix: string;
}

export const DEFAULT_SUBSCRIPTION: KafkaSubscription = { topic: CLAIM_EVENTS_TOPIC, groupPrefix: 'projection' };

export interface KafkaProjector {
  readonly name: string;
  readonly consumer: Consumer;
  status(): ProjectorStatus;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Kafka evicts a member silent for longer than its session timeout (30 s by default); stay well below. */
const MAX_SILENT_MS = 3_000;

export async function consumeFromKafka<DB>(
  kafka: Kafka,
  db: Kysely<DB>,
  projection: Projection,
  log: Logger,
  subscription: KafkaSubscription = DEFAULT_SUBSCRIPTION,
  policy: FaultPolicy = DEFAULT_FAULT_POLICY,
): Promise<KafkaProjector> {
  // Messages come from outside the process: their data is parsed, as the store's own reads need not be.
  const guard = new ProjectorGuard(db, projection, log, policy, parsedDomainEvent);
  const consumer = kafka.consumer({ groupId: `${subscription.groupPrefix}.${projection.name}`, allowAutoTopicCreation: false });
  await consumer.connect();
  await consumer.subscribe({ topic: subscription.topic, fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachBatch: async ({ batch, resolveOffset, commitOffsetsIfNecessary, heartbeat, isRunning, isStale }) => {
      const events = batch.messages.map((message) => EventEnvelope.parse(JSON.parse(message.value?.toString('utf8') ?? 'null')));
      // Failures stay inside the batch (backing off, heartbeating) instead of crashing the consumer
      // and stalling its partition; the guard parks an event that fails every try.
      for (;;) {
        if (!isRunning() || isStale()) return;
        try {
          await guard.apply(events);
          break;
        } catch (error) {
          const delayMs = error instanceof RetryLater ? error.delayMs : policy.baseDelayMs;
          if (!(error instanceof RetryLater)) log.error({ err: error, projection: projection.name }, 'projection batch failed; retrying');
          for (let waited = 0; waited < delayMs; waited += MAX_SILENT_MS) {
            await pause(Math.min(MAX_SILENT_MS, delayMs - waited));
            await heartbeat();
          }
        }
      }
      const last = batch.messages.at(-1);
      if (last) resolveOffset(last.offset);
      await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: (BigInt(last?.offset ?? '-1') + 1n).toString() }]);
      await commitOffsetsIfNecessary();
      await heartbeat();
    },
  });
  consumer.on(consumer.events.CRASH, (e) => log.error({ err: e.payload.error, projection: projection.name }, 'kafka consumer crashed'));
  return { name: projection.name, consumer, status: () => guard.status() };
}
