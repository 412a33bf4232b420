import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type QueryExecutorProvider } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { EventEnvelope } from '@claims/contracts';
import { ANY, appendToStream, type Database, type EventStoreTables, type NewEvent } from '@claims/event-store';
import { createKafka, ensureTopic } from '@claims/relay';
import {
  consumeFromKafka,
  followStore,
  listRebuilds,
  parkedCounts,
  projectionFaultMigrations,
  projectionRuntimeMigrations,
  rebuild,
  RebuildRunning,
  startRebuild,
  type Projection,
} from '../src/index.js';
import { eventually } from '../../../test/support/testDatabase.js';
import { migratedTestDatabase } from '../../../test/support/migratedDatabase.js';
import { postgresServer } from '../../../test/support/postgresServers.js';

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** A read model with one row per labelled event; its apply throws on the label "poison". */
function labelProjection(name: string): Projection<'ClaimLabelAdded'> {
  const table = `${name.replace(/-/g, '_')}_rows`;
  return {
    name,
    streams: ['claim'],
    decisions: { ClaimLabelAdded: 'handle' },
    handles: ['ClaimLabelAdded'],
    tables: [table],
    migrations: {
      [`0900_${table}`]: {
        async up(db: Kysely<unknown>) {
          await sql`create table ${sql.table(table)} (stream_id text not null, version bigint not null, label text not null, primary key (stream_id, version))`.execute(
            db,
          );
        },
      },
    },
    async applyBatch(trx: QueryExecutorProvider, events) {
      if (events.some((event) => event.data.label === 'poison')) throw new Error('cannot project a poisoned label');
      await sql`insert into ${sql.table(table)} (stream_id, version, label)
        select * from unnest(${events.map((e) => e.streamId)}::text[], ${events.map((e) => e.streamVersion)}::bigint[], ${events.map((e) => e.data.label)}::text[])`.execute(
        trx,
      );
    },
  };
}

const labelled = (label: string): NewEvent => ({
  eventId: randomUUID(),
  type: 'ClaimLabelAdded',
  data: { claimId: randomUUID(), label },
  metadata: { actor: { type: 'system', id: 'test' }, correlationId: randomUUID(), causationId: null, schemaVersion: 1 },
});

const rows = async (db: Kysely<EventStoreTables>, projection: Projection) =>
  (
    await sql<{
      stream_id: string;
      version: number;
    }>`select stream_id, version from ${sql.table(projection.tables[0]!)} order by stream_id, version`.execute(db)
  ).rows;

const rebuilt = labelProjection('rebuilt');
const beside = labelProjection('beside');
const poisoned = labelProjection('poisoned');
const poisonedOnKafka = labelProjection('poisoned-kafka');
const firstOnKafka = labelProjection('first-kafka');
const joinedOnKafka = labelProjection('joined-kafka');

describe('projection runtime on PostgreSQL', () => {
  let database: Database;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    ({ database, dispose } = await migratedTestDatabase(
      postgresServer().databaseUrl,
      projectionRuntimeMigrations,
      projectionFaultMigrations,
      rebuilt.migrations,
      beside.migrations,
      poisoned.migrations,
      poisonedOnKafka.migrations,
      firstOnKafka.migrations,
      joinedOnKafka.migrations,
    ));
  });
  afterAll(() => dispose());

  const append = (streamId: string, label: string) =>
    appendToStream(database.db, {
      streamId,
      streamType: 'test',
      storeId: null,
      expectedVersion: ANY,
      events: [labelled(label)],
    });

  it('loses no row when a rebuild runs beside a live follower while events are appended', async () => {
    const streams = Array.from({ length: 40 }, () => randomUUID());
    // History in one append per stream (50 events each): the race under test is the one with the appender below.
    for (const [s, streamId] of streams.entries()) {
      await appendToStream(database.db, {
        streamId,
        streamType: 'test',
        storeId: null,
        expectedVersion: ANY,
        events: Array.from({ length: 50 }, (_, i) => labelled(`before ${s}.${i}`)),
      });
    }
    const follower = followStore(database.db, rebuilt, log, 5);
    await follower.catchUp();
    let appending = true;
    const appender = (async () => {
      for (let i = 0; appending || i < 200; i++) await append(streams[i % streams.length]!, `during ${i}`);
    })();
    await rebuild(database.db, rebuilt);
    appending = false;
    await appender;
    await follower.catchUp();
    await follower.catchUp();
    await follower.stop();
    const live = await rows(database.db, rebuilt);
    const { rows: events } = await sql<{ stream_id: string; stream_version: number }>`
      select stream_id, stream_version from events where stream_id = any(${streams}::text[]) order by stream_id, stream_version`.execute(
      database.db,
    );
    expect(live).toEqual(events.map((e) => ({ stream_id: e.stream_id, version: e.stream_version })));
    await rebuild(database.db, rebuilt);
    expect(await rows(database.db, rebuilt)).toEqual(live);
  });

  it('builds a new version beside the live one while queries read the old rows and live workers go on, then switches in one step', async () => {
    const stream = randomUUID();
    for (let i = 0; i < 30; i++) await append(stream, `label ${i}`);
    const follower = followStore(database.db, beside, log, 5);
    await follower.catchUp();
    // A row the events do not make: the old version's, gone once the rebuilt version takes over.
    await sql`insert into beside_rows (stream_id, version, label) values ('stale', 1, 'from an old version')`.execute(
      database.db,
    );
    const expected = async () =>
      (
        await sql<{ stream_id: string; version: number }>`
      select stream_id, stream_version as version from events where type = 'ClaimLabelAdded' and stream_id = ${stream} order by stream_id, stream_version`.execute(
          database.db,
        )
      ).rows;
    let duringRebuild: Awaited<ReturnType<typeof rows>> = [];
    const progress: number[] = [];
    await rebuild(database.db, beside, ({ done }) => progress.push(done), {
      beforeSwitch: async () => {
        // Queries still answer from the live tables, and the live follower still applies new events to them.
        await append(stream, 'while rebuilding');
        await follower.catchUp();
        duringRebuild = (await rows(database.db, beside)).filter(
          (r) => r.stream_id === stream || r.stream_id === 'stale',
        );
        expect((await listRebuilds(database.db)).find((r) => r.projection === 'beside')).toMatchObject({
          status: 'running',
        });
        await expect(startRebuild(database.db, beside)).rejects.toBeInstanceOf(RebuildRunning);
      },
    });
    expect(duringRebuild.map((r) => r.stream_id)).toContain('stale');
    expect(duringRebuild.filter((r) => r.stream_id === stream)).toHaveLength(31);
    expect(progress.at(-1)).toBeGreaterThanOrEqual(30);

    const after = (await rows(database.db, beside)).filter((r) => r.stream_id === stream || r.stream_id === 'stale');
    expect(after.map((r) => ({ stream_id: r.stream_id, version: Number(r.version) }))).toEqual(
      (await expected()).map((e) => ({ ...e, version: Number(e.version) })),
    );
    expect((await listRebuilds(database.db)).find((r) => r.projection === 'beside')).toMatchObject({
      status: 'done',
      error: null,
    });
    const { rows: schemas } = await sql<{
      name: string;
    }>`select nspname as name from pg_namespace where nspname like 'projection_%'`.execute(database.db);
    expect(schemas).toEqual([]);

    // The follower goes on after the switch from the build's offsets: nothing twice, nothing missed.
    await append(stream, 'after the switch');
    await follower.catchUp();
    await follower.stop();
    expect((await rows(database.db, beside)).filter((r) => r.stream_id === stream)).toHaveLength(32);
  });

  it('parks an event whose apply keeps failing, after a few tries with backoff, and moves on', async () => {
    const stream = randomUUID();
    const other = randomUUID();
    await append(stream, 'one');
    const poison = await append(stream, 'poison');
    await append(stream, 'three');
    await append(other, 'elsewhere');
    const follower = followStore(database.db, poisoned, log, 5, { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 100 });
    await eventually(async () => {
      await follower.catchUp();
      expect(await parkedCounts(database.db)).toEqual([{ projection: 'poisoned', parked: 1 }]);
    });
    await follower.catchUp();
    expect(follower.status()).toEqual({ state: 'ok' });
    await follower.stop();
    const { rows: parked } =
      await sql`select stream_id, stream_version, type, error, attempts from projection_parked where projection = 'poisoned'`.execute(
        database.db,
      );
    expect(parked).toEqual([
      {
        stream_id: stream,
        stream_version: 2,
        type: 'ClaimLabelAdded',
        error: 'cannot project a poisoned label',
        attempts: 3,
      },
    ]);
    expect(poison.ok).toBe(true);
    const applied = await rows(database.db, poisoned);
    expect(applied.filter((r) => r.stream_id === stream).map((r) => Number(r.version))).toEqual([1, 3]);
    expect(applied.some((r) => r.stream_id === other)).toBe(true);
  });

  it('parks a poison event read from Kafka instead of crashing the consumer and stalling its partition', async () => {
    const kafka = createKafka(inject('kafkaBrokers'), log);
    const topic = `claims.events.test.parking.${randomUUID().slice(0, 8)}`;
    await ensureTopic(kafka, topic);
    const stream = randomUUID();
    const envelopes: EventEnvelope[] = ['a', 'poison', 'c'].map((label, i) => {
      const event = labelled(label);
      return {
        ...event,
        streamId: stream,
        streamVersion: i + 1,
        globalPosition: i + 1,
        storeId: null,
        occurredAt: new Date().toISOString(),
      };
    });
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, messages: envelopes.map((e) => ({ key: e.streamId, value: JSON.stringify(e) })) });
    await producer.disconnect();
    const projector = await consumeFromKafka(
      kafka,
      database.db,
      [poisonedOnKafka],
      log,
      { topic, groupPrefix: `test.${randomUUID()}` },
      { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 100 },
    );
    try {
      await eventually(async () => {
        expect((await rows(database.db, poisonedOnKafka)).map((r) => Number(r.version))).toEqual([1, 3]);
      }, 30_000);
      expect(await parkedCounts(database.db)).toContainEqual({ projection: 'poisoned-kafka', parked: 1 });
    } finally {
      await projector.stop();
    }
  });

  it('reads the topic from its beginning for a projection new to the shared consumer group, while the others go on from where they stood', async () => {
    const kafka = createKafka(inject('kafkaBrokers'), log);
    const topic = `claims.events.test.joining.${randomUUID().slice(0, 8)}`;
    const subscription = { topic, groupPrefix: `test.${randomUUID()}` };
    await ensureTopic(kafka, topic);
    const stream = randomUUID();
    const producer = kafka.producer();
    await producer.connect();
    const publish = (labels: string[], from: number) =>
      producer.send({
        topic,
        messages: labels.map((label, i) => {
          const event: EventEnvelope = {
            ...labelled(label),
            streamId: stream,
            streamVersion: from + i,
            globalPosition: from + i,
            storeId: null,
            occurredAt: new Date().toISOString(),
          };
          return { key: stream, value: JSON.stringify(event) };
        }),
      });
    const versions = async (projection: Projection) =>
      (await rows(database.db, projection)).map((r) => Number(r.version));
    try {
      await publish(['a', 'b', 'c'], 1);
      const first = await consumeFromKafka(kafka, database.db, [firstOnKafka], log, subscription);
      try {
        await eventually(async () => expect(await versions(firstOnKafka)).toEqual([1, 2, 3]), 30_000);
      } finally {
        await first.stop();
      }
      await publish(['d', 'e'], 4);
      const both = await consumeFromKafka(kafka, database.db, [firstOnKafka, joinedOnKafka], log, subscription);
      try {
        await eventually(async () => {
          expect(await versions(firstOnKafka)).toEqual([1, 2, 3, 4, 5]);
          expect(await versions(joinedOnKafka)).toEqual([1, 2, 3, 4, 5]);
        }, 30_000);
      } finally {
        await both.stop();
      }
    } finally {
      await producer.disconnect();
    }
  });
});
