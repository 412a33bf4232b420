import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  announceAppends,
  ANY,
  appendToStream,
  appendToStreams,
  countAfter,
  countOfTypes,
  EVENTS_APPENDED_CHANNEL,
  eventStoreMigrations,
  lastCommittedPosition,
  leaseGroup,
  migrate,
  NO_STREAM,
  onAppended,
  openDatabase,
  readAll,
  readAllOfTypes,
  readStream,
  START,
  textsNamedInEvents,
  type Database,
  type NewEvent,
} from '../src/index.js';
import { createTestDatabase, eventually } from '../../../test/support/testDatabase.js';
import { postgresServer } from '../../../test/support/postgresServers.js';

const event = (type = 'Happened'): NewEvent => ({
  eventId: randomUUID(),
  type,
  data: { at: Date.now() },
  metadata: { actor: { type: 'system', id: 'test' }, correlationId: randomUUID(), causationId: null, schemaVersion: 1 },
});
const append = (db: Database, streamId: string, expectedVersion: number | typeof ANY, events = [event()]) =>
  appendToStream(db.db, { streamId, streamType: 'test', storeId: null, expectedVersion, events });

async function readEverything(database: Database) {
  const all = [];
  let position = START;
  for (;;) {
    const page = await readAll(database.db, position, 100);
    if (page.events.length === 0) return all;
    all.push(...page.events);
    position = page.next;
  }
}

const modes = ['pglite', 'postgres'] as const;

describe.each(modes)('event store on %s', (mode) => {
  let database: Database;
  let drop: () => Promise<void> = async () => undefined;
  let url: string | undefined;

  beforeAll(async () => {
    if (mode === 'postgres') {
      const created = await createTestDatabase(postgresServer().databaseUrl);
      url = created.url;
      drop = created.drop;
    }
    database = await openDatabase({ databaseUrl: url, dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'es-')) });
    await migrate(database, eventStoreMigrations);
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  it('appends with versions and refuses a stale or missing expected version', async () => {
    const stream = randomUUID();
    expect(await append(database, stream, NO_STREAM, [event('A'), event('B')])).toMatchObject({
      ok: true,
      nextVersion: 2,
    });
    expect(await append(database, stream, NO_STREAM)).toMatchObject({ ok: false, conflict: { actualVersion: 2 } });
    expect(await append(database, stream, 1)).toMatchObject({
      ok: false,
      conflict: { expectedVersion: 1, actualVersion: 2 },
    });
    expect(await append(database, stream, 2)).toMatchObject({ ok: true, nextVersion: 3 });
    expect(await append(database, randomUUID(), 4)).toMatchObject({ ok: false, conflict: { actualVersion: null } });
    expect(await append(database, stream, ANY)).toMatchObject({ ok: true, nextVersion: 4 });
    const read = await readStream(database.db, stream);
    expect(read.version).toBe(4);
    expect(read.events.map((e) => [e.type, e.streamVersion])).toEqual([
      ['A', 1],
      ['B', 2],
      ['Happened', 3],
      ['Happened', 4],
    ]);
    expect((await readStream(database.db, stream, 2)).events).toHaveLength(2);
  });

  it('appends several streams all or nothing', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await append(database, b, NO_STREAM);
    const results = await appendToStreams(database.db, [
      { streamId: a, streamType: 'test', storeId: null, expectedVersion: NO_STREAM, events: [event()] },
      { streamId: b, streamType: 'test', storeId: null, expectedVersion: NO_STREAM, events: [event()] },
    ]);
    expect(results[0]!.ok).toBe(false);
    expect((await readStream(database.db, a)).events).toHaveLength(0);
  });

  it('appends a stream at its version and new streams beside it all or nothing, naming the stream that conflicted', async () => {
    const [ledger, taken, fresh] = [randomUUID(), randomUUID(), randomUUID()];
    await append(database, ledger, NO_STREAM);
    await append(database, taken, NO_STREAM, [event('A'), event('B')]);
    const filing = (expectedVersion: number, beside: string) =>
      appendToStreams(database.db, [
        {
          streamId: ledger,
          streamType: 'test',
          storeId: null,
          expectedVersion,
          events: [event('Claimed'), event('Claimed')],
        },
        { streamId: beside, streamType: 'test', storeId: null, expectedVersion: NO_STREAM, events: [event('Filed')] },
      ]);
    expect(await filing(1, taken)).toEqual([
      { ok: false, conflict: { streamId: taken, expectedVersion: NO_STREAM, actualVersion: 2 } },
    ]);
    expect(await filing(0, fresh)).toEqual([
      { ok: false, conflict: { streamId: ledger, expectedVersion: 0, actualVersion: 1 } },
    ]);
    expect((await readStream(database.db, ledger)).version).toBe(1);
    expect((await readStream(database.db, fresh)).version).toBe(0);
    const [own, beside] = await filing(1, fresh);
    expect(own).toMatchObject({ ok: true, nextVersion: 3 });
    expect(beside).toMatchObject({ ok: true, nextVersion: 1 });
    expect((await readStream(database.db, ledger)).events.map((e) => [e.type, e.streamVersion])).toEqual([
      ['Happened', 1],
      ['Claimed', 2],
      ['Claimed', 3],
    ]);
    expect((await readStream(database.db, fresh)).events.map((e) => e.type)).toEqual(['Filed']);
    if (own?.ok && beside?.ok) expect(Math.max(...own.globalPositions)).toBeLessThan(beside.globalPositions[0]!);
  });

  it('lets exactly one of many concurrent writers at the same version win', async () => {
    const stream = randomUUID();
    await append(database, stream, NO_STREAM);
    const results = await Promise.all(Array.from({ length: 16 }, () => append(database, stream, 1)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect((await readStream(database.db, stream)).version).toBe(2);
  });

  it('reads everything in commit order, each event once, with the contract envelope', async () => {
    const stored = await database.db
      .selectFrom('events')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    // Another transaction open anywhere in the cluster holds the horizon back for a moment.
    const all = await eventually(async () => {
      const read = await readEverything(database);
      expect(read).toHaveLength(Number(stored.n));
      return read;
    });
    expect(new Set(all.map((e) => e.eventId)).size).toBe(all.length);
    const first = all[0]!;
    expect(first).toMatchObject({
      streamVersion: 1,
      metadata: { actor: { type: 'system', id: 'test' }, schemaVersion: 1 },
    });
    expect(typeof first.globalPosition).toBe('number');
  });

  it('reads the events of some types with readAll, and its position reaches the head past events of other types', async () => {
    const stream = randomUUID();
    await append(database, stream, ANY, [
      event('Wanted'),
      event('Other'),
      event('Wanted'),
      event('Other'),
      event('Other'),
    ]);
    const everything = await readEverything(database);
    const wanted = everything.filter((e) => e.type === 'Wanted');
    const read = [];
    let position = START;
    for (;;) {
      const page = await readAll(database.db, position, 1, ['Wanted']);
      read.push(...page.events);
      if (page.events.length === 0 && page.next.globalPosition === position.globalPosition) break;
      position = page.next;
    }
    expect(read.map((e) => e.eventId)).toEqual(wanted.map((e) => e.eventId));
    expect(position.globalPosition).toBe(everything.at(-1)!.globalPosition);
    expect(await countAfter(database.db, START, ['Wanted'])).toBe(wanted.length);
  });

  it('reads some types only, in the same order and at the same times as readAll, with only the fields asked of a type', async () => {
    const stream = randomUUID();
    const big = { ...event('Big'), data: { keep: 'k', also: 2, heavy: 'x'.repeat(1_000) } };
    await append(database, stream, NO_STREAM, [event('Skipped'), big, event('Kept'), event('Skipped')]);
    const everything = await eventually(async () => {
      const read = await readEverything(database);
      expect(read.map((e) => e.streamId)).toContain(stream);
      return read.filter((e) => e.type === 'Big' || e.type === 'Kept');
    });
    const facts = [];
    for (let position = START; ;) {
      const page = await readAllOfTypes(database.db, position, ['Big', 'Kept'], {
        limit: 1,
        fields: { Big: ['keep', 'also'] },
      });
      if (page.events.length === 0) break;
      facts.push(...page.events);
      position = page.next;
    }
    expect(facts.map((f) => [f.eventId, f.type, f.streamVersion, f.occurredAt])).toEqual(
      everything.map((e) => [e.eventId, e.type, e.streamVersion, e.occurredAt]),
    );
    expect(facts.find((f) => f.type === 'Big')!.data).toEqual({ keep: 'k', also: 2 });
    expect(facts.find((f) => f.type === 'Kept')!.data).toEqual(everything.find((e) => e.type === 'Kept')!.data);
    expect(await countOfTypes(database.db, ['Big', 'Kept'])).toBe(everything.length);
  });

  it('answers which texts the data of an event since a given time names, without the reader scanning events', async () => {
    const named = `media/${randomUUID()}.jpg`;
    const unnamed = `media/${randomUUID()}.jpg`;
    await append(database, randomUUID(), NO_STREAM, [{ ...event('Imaged'), data: { url: `https://x.test/${named}` } }]);
    const past = new Date(Date.now() - 3_600_000).toISOString();
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect(
      await textsNamedInEvents(database.db, [
        { text: named, since: past },
        { text: unnamed, since: past },
      ]),
    ).toEqual(new Set([named]));
    // Only events from `since` on count: a key named before its upload was made is no reference to it.
    expect(await textsNamedInEvents(database.db, [{ text: named, since: future }])).toEqual(new Set());
    expect(await textsNamedInEvents(database.db, [])).toEqual(new Set());
  });
});

describe('reading the whole store on a real PostgreSQL', () => {
  let database: Database;
  let drop: () => Promise<void> = async () => undefined;
  let url: string;
  beforeAll(async () => {
    const created = await createTestDatabase(postgresServer().databaseUrl);
    url = created.url;
    drop = created.drop;
    database = await openDatabase({ databaseUrl: url, dataDir: os.tmpdir() });
    await migrate(database, eventStoreMigrations);
    await append(database, randomUUID(), NO_STREAM);
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  it('never skips an event whose transaction commits after a later one', async () => {
    const before = await eventually(async () => {
      const read = await readEverything(database);
      expect(read.length).toBeGreaterThan(0);
      return read;
    });
    const last = before.at(-1)!;
    const slow = new pg.Client({ connectionString: url });
    await slow.connect();
    try {
      await slow.query('begin');
      const early = randomUUID();
      await slow.query(
        `insert into events (event_id, stream_id, stream_type, stream_version, type, schema_version, data, metadata)
         values ($1, $2, 'test', 1, 'Early', 1, '{}', '{}')`,
        [randomUUID(), early],
      );
      const late = randomUUID();
      await append(database, late, NO_STREAM, [event('Late')]);
      const whileOpen = await readAll(database.db, {
        transactionId: last.transactionId,
        globalPosition: last.globalPosition,
      });
      expect(whileOpen.events.map((e) => e.type)).not.toContain('Late');
      await slow.query('commit');
      const afterCommit = await eventually(async () => {
        const page = await readAll(database.db, {
          transactionId: last.transactionId,
          globalPosition: last.globalPosition,
        });
        expect(page.events.map((e) => e.type)).toEqual(['Early', 'Late']);
        return page;
      });
      expect(afterCommit.events[0]!.globalPosition).toBeLessThan(afterCommit.events[1]!.globalPosition);
    } finally {
      await slow.end();
    }
  });
});

describe('ordering by transaction id on a real PostgreSQL', () => {
  it('orders transaction ids as numbers, not as text (9 before 10), reading and finding the last', async () => {
    const created = await createTestDatabase(postgresServer().databaseUrl);
    const database = await openDatabase({ databaseUrl: created.url, dataDir: os.tmpdir() });
    try {
      await migrate(database, eventStoreMigrations);
      const insert = (tx: number, stream: string) =>
        sql`
        insert into events (transaction_id, event_id, stream_id, stream_type, stream_version, type, schema_version, data, metadata)
        values (${String(tx)}::xid8, ${randomUUID()}, ${stream}, 'test', 1, ${`tx${tx}`}, 1, '{}', '{}')`.execute(
          database.db,
        );
      await insert(10, randomUUID());
      await insert(9, randomUUID());
      const page = await readAll(database.db, START);
      expect(page.events.map((e) => e.type)).toEqual(['tx9', 'tx10']);
      // The last committed event too (where a reader that skips the past begins, and what catching up waits for).
      expect(await lastCommittedPosition(database.db)).toEqual({
        transactionId: '10',
        globalPosition: page.events[1]!.globalPosition,
      });
    } finally {
      await database.close();
      await created.drop();
    }
  });
});

describe('leases on a real PostgreSQL', () => {
  it('gives each name to one process at a time, and to another once the holder releases it or its connection dies', async () => {
    const created = await createTestDatabase(postgresServer().databaseUrl);
    const database = await openDatabase({ databaseUrl: created.url, dataDir: os.tmpdir() });
    const first = leaseGroup(database, 0);
    const second = leaseGroup(database, 0);
    try {
      expect(await first.holds('reaction:mail')).toBe(true);
      expect(await second.holds('reaction:mail')).toBe(false);
      // Another name is free for the second while the first keeps its own.
      expect(await second.holds('reaction:credit')).toBe(true);
      expect(await first.holds('reaction:credit')).toBe(false);
      expect(await first.holds('reaction:mail')).toBe(true);

      await first.release();
      expect(await first.holds('reaction:mail')).toBe(false);
      expect(await second.holds('reaction:mail')).toBe(true);

      // The second's connection ends as a dead process's would: its leases are free for a third.
      const admin = new pg.Client({ connectionString: created.url });
      await admin.connect();
      await admin.query(
        `select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and pid <> pg_backend_pid()`,
      );
      await admin.end();
      const third = leaseGroup(database, 0);
      try {
        await eventually(async () => expect(await third.holds('reaction:mail')).toBe(true));
        expect(await third.holds('reaction:credit')).toBe(true);
        await eventually(async () => expect(await second.holds('reaction:mail')).toBe(false));
      } finally {
        await third.release();
      }
    } finally {
      await first.release();
      await second.release();
      await database.close();
      await created.drop();
    }
  });
});

describe('append announcements on a real PostgreSQL', () => {
  it('tells another process that this one appended, in announcements it can tell apart from its own', async () => {
    const created = await createTestDatabase(postgresServer().databaseUrl);
    const appender = await openDatabase({ databaseUrl: created.url, dataDir: os.tmpdir() });
    const reader = await openDatabase({ databaseUrl: created.url, dataDir: os.tmpdir() });
    const heard: string[] = [];
    let listening = false;
    const subscription = reader.listen(
      EVENTS_APPENDED_CHANNEL,
      (payload) => {
        if (payload === undefined) listening = true;
        else heard.push(payload);
      },
      (error) => {
        throw error;
      },
    );
    const stopAnnouncing = onAppended(
      appender.db,
      announceAppends(appender.db, 'appender', () => undefined),
    );
    try {
      await eventually(async () => expect(listening).toBe(true));
      await migrate(appender, eventStoreMigrations);
      await Promise.all(Array.from({ length: 20 }, (_, i) => append(appender, `announced-${i}`, NO_STREAM)));
      await eventually(async () => expect(heard.length).toBeGreaterThan(0));
      expect(new Set(heard)).toEqual(new Set(['appender']));
    } finally {
      stopAnnouncing();
      await subscription.stop();
      await appender.close();
      await reader.close();
      await created.drop();
    }
  });
});

describe('embedded database', () => {
  it('refuses a second process on the same data folder with a clear message', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-'));
    fs.mkdirSync(path.join(dir, 'pglite'), { recursive: true });
    // PID 1 is always alive: it stands for another process holding the folder.
    fs.writeFileSync(path.join(dir, 'pglite', 'pglite.lock'), '1');
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(
      /already open in process 1.*one process per data folder/,
    );
  });
});
