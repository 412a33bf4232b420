import type { Kysely } from 'kysely';
import type { Consumer, Kafka } from 'kafkajs';
import { CLAIM_EVENTS_TOPIC, EventEnvelope } from '@claims/contracts';
import type { Logger } from 'pino';
import { applyEvents } from './applyEvents.js';
import type { Projection } from './projection.js';

/**
 * A projection as a Kafka consumer group. Offsets are committed only after the batch's database
 * transaction, and the per-stream offsets inside it skip anything redelivered.
 */
export interface KafkaSubscription {
  topic: string;
  groupPrefix: string;
}

export const DEFAULT_SUBSCRIPTION: KafkaSubscription = { topic: CLAIM_EVENTS_TOPIC, groupPrefix: 'projection' };

export async function consumeFromKafka<DB>(
  kafka: Kafka,
  db: Kysely<DB>,
  projection: Projection,
  log: Logger,
  subscription: KafkaSubscription = DEFAULT_SUBSCRIPTION,
): Promise<Consumer> {
  const consumer = kafka.consumer({ groupId: `${subscription.groupPrefix}.${projection.name}`, allowAutoTopicCreation: true });
  await consumer.connect();
  await consumer.subscribe({ topic: subscription.topic, fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachBatch: async ({ batch, resolveOffset, commitOffsetsIfNecessary, heartbeat }) => {
      const events = batch.messages.map((message) => EventEnvelope.parse(JSON.parse(message.value?.toString('utf8') ?? 'null')));
      await applyEvents(db, projection, events);
      const last = batch.messages.at(-1);
      if (last) resolveOffset(last.offset);
      await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: (BigInt(last?.offset ?? '-1') + 1n).toString() }]);
      await commitOffsetsIfNecessary();
      await heartbeat();
    },
  });
  consumer.on(consumer.events.CRASH, (e) => log.error({ err: e.payload.error, projection: projection.name }, 'kafka consumer crashed'));
  return consumer;
}
