import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  ANY,
  appendToStream,
  EventTooLargeError,
  MAX_EVENT_BYTES,
  type Database,
  type NewEvent,
} from '@claims/event-store';
import {
  createKafka,
  DEFAULT_TOPIC_SETTINGS,
  ensureTopic,
  relayMigrations,
  startRelay,
  TopicSettingsError,
} from '../src/index.js';
import { eventually } from '../../../test/support/testDatabase.js';
import { migratedTestDatabase } from '../../../test/support/migratedDatabase.js';
import { postgresServer } from '../../../test/support/postgresServers.js';

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
const kafka = () => createKafka(inject('kafkaBrokers'), log);
const topicName = (what: string) => `claims.events.test.${what}.${randomUUID().slice(0, 8)}`;

const noted = (note: string): NewEvent => ({
  eventId: randomUUID(),
  type: 'Noted',
  data: { note },
  metadata: { actor: { type: 'system', id: 'test' }, correlationId: randomUUID(), causationId: null, schemaVersion: 1 },
});

async function createTopic(
  topic: string,
  configEntries: Array<{ name: string; value: string }>,
  replicationFactor = 1,
): Promise<void> {
  const admin = kafka().admin();
  await admin.connect();
  try {
    await admin.createTopics({
      waitForLeaders: true,
      topics: [{ topic, numPartitions: 3, replicationFactor, configEntries }],
    });
  } finally {
    await admin.disconnect();
  }
}

/** Every message on the topic, as the notes of its events. */
async function published(topic: string, expected: number): Promise<string[]> {
  const consumer = kafka().consumer({ groupId: `check.${randomUUID()}` });
  const notes: string[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) =>
      void notes.push((JSON.parse(message.value!.toString()) as { data: { note: string } }).data.note),
  });
  try {
    await eventually(async () => expect(notes).toHaveLength(expected), 30_000);
    return notes;
  } finally {
    await consumer.disconnect();
  }
}

describe('relay and topic against a real broker', () => {
  let database: Database;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    ({ database, dispose } = await migratedTestDatabase(postgresServer().databaseUrl, relayMigrations));
  });
  afterAll(() => dispose());

  const append = (events: NewEvent[]) =>
    appendToStream(database.db, {
      streamId: randomUUID(),
      streamType: 'test',
      storeId: null,
      expectedVersion: ANY,
      events,
    });

  it('refuses an event larger than the cap at append, with a typed error, and stores nothing', async () => {
    const before = await sql<{ n: number }>`select count(*)::int as n from events`.execute(database.db);
    await expect(append([noted('x'.repeat(MAX_EVENT_BYTES))])).rejects.toBeInstanceOf(EventTooLargeError);
    await expect(append([noted('x'.repeat(MAX_EVENT_BYTES))])).rejects.toThrow(
      /Noted of stream .* is 257 KB; an event may be at most 256 KB/,
    );
    expect(await sql<{ n: number }>`select count(*)::int as n from events`.execute(database.db)).toEqual(before);
  });

  it('creates the topic with the configured durability and an explicit max.message.bytes', async () => {
    const topic = topicName('created');
    const described = await ensureTopic(kafka(), topic);
    expect({ ...described, partitions: described.partitions.length }).toEqual({
      partitions: DEFAULT_TOPIC_SETTINGS.numPartitions,
      replicationFactor: 1,
      minInsyncReplicas: 1,
      maxMessageBytes: DEFAULT_TOPIC_SETTINGS.maxMessageBytes,
    });
  });

  it("publishes each stream in order to the partition kafkajs' own partitioner gives its key", async () => {
    const topic = topicName('partitions');
    const probes = topicName('probes');
    await createTopic(topic, []);
    await createTopic(probes, []);
    await sql`delete from checkpoints`.execute(database.db);
    await sql`delete from events`.execute(database.db);
    const streams = Array.from({ length: 12 }, () => randomUUID());
    for (const round of [1, 2, 3])
      for (const streamId of streams)
        await appendToStream(database.db, {
          streamId,
          streamType: 'test',
          storeId: null,
          expectedVersion: ANY,
          events: [noted(`${streamId} ${round}`)],
        });
    const producer = kafka().producer();
    await producer.connect();
    const expected = new Map<string, number>();
    try {
      for (const streamId of streams) {
        const [sent] = await producer.send({ topic: probes, messages: [{ key: streamId, value: 'probe' }] });
        expected.set(streamId, sent!.partition);
      }
    } finally {
      await producer.disconnect();
    }
    const relay = startRelay(database, kafka(), log, { topic, pollMs: 50 });
    const consumer = kafka().consumer({ groupId: `check.${randomUUID()}` });
    const seen = new Map<string, Array<{ partition: number; note: string }>>();
    try {
      await relay.catchUp();
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ partition, message }) => {
          const streamId = message.key!.toString();
          const note = (JSON.parse(message.value!.toString()) as { data: { note: string } }).data.note;
          seen.set(streamId, [...(seen.get(streamId) ?? []), { partition, note }]);
        },
      });
      await eventually(async () => expect([...seen.values()].flat()).toHaveLength(36), 30_000);
    } finally {
      await consumer.disconnect();
      await relay.stop();
    }
    for (const streamId of streams)
      expect(seen.get(streamId)).toEqual(
        [1, 2, 3].map((round) => ({ partition: expected.get(streamId), note: `${streamId} ${round}` })),
      );
    expect(new Set(expected.values()).size, 'the streams spread over several partitions').toBeGreaterThan(1);
  });

  it('refuses a topic whose durability contradicts the configuration, saying what differs', async () => {
    const topic = topicName('contradicting');
    await createTopic(topic, [{ name: 'min.insync.replicas', value: '2' }]);
    const refusal = ensureTopic(kafka(), topic);
    await expect(refusal).rejects.toBeInstanceOf(TopicSettingsError);
    await expect(ensureTopic(kafka(), topic)).rejects.toThrow(/min\.insync\.replicas is 2, configured 1/);
    await expect(
      ensureTopic(kafka(), topic, { ...DEFAULT_TOPIC_SETTINGS, minInsyncReplicas: 2 }),
    ).resolves.toMatchObject({ minInsyncReplicas: 2 });
  });

  it('splits sends below the topic limit, quarantines what the broker refuses and moves on', async () => {
    const topic = topicName('tiny');
    await createTopic(topic, [{ name: 'max.message.bytes', value: '4096' }]);
    await sql`delete from checkpoints`.execute(database.db);
    await sql`delete from events`.execute(database.db);
    // Twenty 1 KB events: one send of them all would be five times the topic's limit.
    for (let i = 0; i < 20; i++) await append([noted(`small ${i} ${'s'.repeat(1000)}`)]);
    const big = noted(`big ${'b'.repeat(10_000)}`);
    await append([big]);
    await append([noted('after the big one')]);
    const relay = startRelay(database, kafka(), log, { topic, pollMs: 50 });
    try {
      await eventually(async () => {
        await relay.catchUp();
        const { rows } = await sql<{
          event_id: string;
          type: string;
          error: string;
        }>`select event_id, type, error from relay_quarantine`.execute(database.db);
        expect(rows).toEqual([
          {
            event_id: big.eventId,
            type: 'Noted',
            error: expect.stringMatching(/^MESSAGE_TOO_LARGE|^RECORD_LIST_TOO_LARGE/),
          },
        ]);
      }, 30_000);
      expect(relay.status()).toEqual({ state: 'publishing' });
      const notes = await published(topic, 21);
      expect(notes).toContain('after the big one');
      expect(notes.some((n) => n.startsWith('big'))).toBe(false);
    } finally {
      await relay.stop();
    }
  });
});
