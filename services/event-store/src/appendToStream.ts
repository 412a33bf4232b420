import type { Kysely, Transaction } from 'kysely';
import type pg from 'pg';
import { poolOf, queryNamed } from './database.js';
import type { EventMetadata } from '@claims/contracts';
import type { EventStoreTables } from './tables.js';
import { assertEventsFit } from './eventSize.js';

/** `NO_STREAM`: the stream must not exist yet; `ANY`: no concurrency check. */
export const NO_STREAM = 0;
export const ANY = 'any' as const;
export type ExpectedVersion = number | typeof ANY;

export interface NewEvent {
  eventId: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

export interface StreamAppend {
  streamId: string;
  streamType: string;
  storeId: string | null;
  expectedVersion: ExpectedVersion;
  events: readonly NewEvent[];
}

export type AppendResult =
  | { ok: true; nextVersion: number; globalPositions: number[] }
  | { ok: false; conflict: { streamId: string; expectedVersion: ExpectedVersion; actualVersion: number | null } };

type Executor = Kysely<EventStoreTables> | Transaction<EventStoreTables>;

export type AppendStatementMode = 'any' | 'new' | 'expected';

const modeOf = (expected: ExpectedVersion): AppendStatementMode =>
  expected === ANY ? 'any' : expected === NO_STREAM ? 'new' : 'expected';

const STREAM_UPSERT: Record<AppendStatementMode, string> = {
  any: `insert into streams as s (stream_id, stream_type, version, store_id) values ($1, $2, $3::bigint, $4::uuid)
        on conflict (stream_id) do update set version = s.version + $3::bigint, updated_at = now()
        returning s.version`,
  new: `insert into streams (stream_id, stream_type, version, store_id) values ($1, $2, $3::bigint, $4::uuid)
        on conflict (stream_id) do nothing
        returning version`,
  expected: `update streams set version = version + $3::bigint, updated_at = now()
             where stream_id = $1 and version = $5::bigint
             returning version`,
};

/**
 * One statement per stream: the stream row's version moves and the events are inserted together,
 * so a single-stream append costs one round trip and stays atomic without an explicit transaction.
 * A stale version matches no row, inserts nothing and comes back as a conflict. One event binds as
 * plain parameters, several as one jsonb array: both plan far cheaper than parallel arrays.
 */
export function appendStatementText(mode: AppendStatementMode, many: boolean): string {
  return `with stream as (${STREAM_UPSERT[mode]})
    ${insertEvents('stream')}
    from stream, ${eventsSource(mode, many)}
    returning global_position, stream_version`;
}

/** `$n` of a statement written for one stream, moved past the `offset` parameters of the streams before it. */
const shifted = (text: string, offset: number) => text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);

function eventsSource(mode: AppendStatementMode, many: boolean): string {
  const first = mode === 'expected' ? 6 : 5;
  return many
    ? `(select (x.ev->>'i')::uuid as event_id, x.ev->>'t' as type, (x.ev->>'v')::int as schema_version,
               x.ev->'d' as data, x.ev->'m' as metadata, x.ord
        from jsonb_array_elements($${first}::jsonb) with ordinality as x(ev, ord)) as e`
    : `(select $${first}::uuid as event_id, $${first + 1}::text as type, $${first + 2}::int as schema_version,
               $${first + 3}::jsonb as data, $${first + 4}::jsonb as metadata, 1::bigint as ord) as e`;
}

const insertEvents = (
  stream: string,
) => `insert into events (event_id, stream_id, stream_type, stream_version, type, schema_version, store_id, data, metadata)
    select e.event_id, $1, $2, ${stream}.version - $3::bigint + e.ord, e.type, e.schema_version, $4::uuid, e.data, e.metadata`;

/**
 * Appends to several streams in one statement, so all or nothing without begin and commit (three round trips
 * fewer for a filing's two streams). Only for the shape `inOneStatement` accepts: the first stream at any
 * expectation, every other one new. The first stream's row comes first (it is the contended one: its lock is
 * taken before anything else is written); every other stream is inserted once per row the first returned, so a
 * stale first stream writes nothing at all, and a plain insert (no `on conflict`) of a stream that exists
 * already fails the whole statement on the key.
 */
function chainStatementText(appends: readonly StreamAppend[]): string {
  const parts: string[] = [];
  let offset = 0;
  for (const [k, append] of appends.entries()) {
    const mode = modeOf(append.expectedVersion);
    const many = append.events.length > 1;
    const stream =
      k === 0
        ? STREAM_UPSERT[mode]
        : 'insert into streams (stream_id, stream_type, version, store_id) select $1, $2, $3::bigint, $4::uuid from s0 returning version';
    parts.push(`s${k} as (${shifted(stream, offset)})`);
    parts.push(
      `e${k} as (${shifted(`${insertEvents(`s${k}`)} from s${k}, ${eventsSource(mode, many)} returning global_position, stream_version`, offset)})`,
    );
    offset += statementValues(append).length;
  }
  return `with ${parts.join(',\n')}\n${appends.map((_, k) => `select ${k} as k, global_position, stream_version from e${k}`).join('\nunion all ')}`;
}

/** The multi-stream appends one statement can make all or nothing: see chainStatementText. */
const inOneStatement = (appends: readonly StreamAppend[]) =>
  appends.length > 1 && appends.slice(1).every((a) => a.expectedVersion === NO_STREAM);

function statementValues(append: StreamAppend): unknown[] {
  const head: unknown[] = [append.streamId, append.streamType, append.events.length, append.storeId];
  if (typeof append.expectedVersion === 'number' && append.expectedVersion !== NO_STREAM)
    head.push(append.expectedVersion);
  if (append.events.length > 1) {
    return [
      ...head,
      JSON.stringify(
        append.events.map((e) => ({ i: e.eventId, t: e.type, v: e.metadata.schemaVersion, d: e.data, m: e.metadata })),
      ),
    ];
  }
  const [event] = append.events;
  return [
    ...head,
    event!.eventId,
    event!.type,
    event!.metadata.schemaVersion,
    JSON.stringify(event!.data),
    JSON.stringify(event!.metadata),
  ];
}

interface AppendedRow {
  global_position: number;
  stream_version: number;
}

/** Sends one statement of an append: named where the connection allows it (see queryNamed). */
type Statement = <Row extends object>(name: string, text: string, values: readonly unknown[]) => Promise<Row[]>;

const through =
  (db: Executor): Statement =>
  (name, text, values) =>
    queryNamed(db, name, text, values);

async function appendOne(run: Statement, append: StreamAppend): Promise<AppendResult> {
  const mode = modeOf(append.expectedVersion);
  const many = append.events.length > 1;
  // A named statement is parsed and planned once per connection: planning cost as much as the
  // append itself (measured: +47–75% appends/s, bench/experiments/README.md).
  const rows = await run<AppendedRow>(
    `event_store_append_${mode}_${many ? 'many' : 'one'}`,
    appendStatementText(mode, many),
    statementValues(append),
  );
  if (rows.length !== append.events.length) {
    const [actual] = await run<{ version: number }>(
      'event_store_stream_version',
      'select version from streams where stream_id = $1',
      [append.streamId],
    );
    return {
      ok: false,
      conflict: {
        streamId: append.streamId,
        expectedVersion: append.expectedVersion,
        actualVersion: actual?.version ?? null,
      },
    };
  }
  const sorted = [...rows].sort((a, b) => a.stream_version - b.stream_version);
  return {
    ok: true,
    nextVersion: Number(sorted.at(-1)!.stream_version),
    globalPositions: sorted.map((r) => Number(r.global_position)),
  };
}

async function appendAll(run: Statement, appends: readonly StreamAppend[]): Promise<AppendResult[]> {
  const done: AppendResult[] = [];
  for (const append of appends) {
    const result = await appendOne(run, append);
    if (!result.ok) throw new ConcurrencyConflict(result.conflict);
    done.push(result);
  }
  return done;
}

/**
 * The transaction on one pooled connection of its own, so its appends go as named statements too (Kysely
 * sends every statement unnamed, planned again each time): a filing appends to two streams this way.
 */
async function inPooledTransaction(pool: pg.Pool, appends: readonly StreamAppend[]): Promise<AppendResult[]> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('begin');
    try {
      const done = await appendAll(
        async (name, text, values) => (await client.query({ name, text, values: [...values] })).rows,
        appends,
      );
      await client.query('commit');
      return done;
    } catch (error) {
      await client.query('rollback').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      throw error;
    }
  } finally {
    // A connection whose rollback failed is in an unknown state: the pool drops it instead of lending it again.
    client.release(broken);
  }
}

/** See chainStatementText: one named statement per shape (each stream's mode and whether it has several events). */
async function appendInOneStatement(
  db: Kysely<EventStoreTables>,
  appends: readonly StreamAppend[],
): Promise<AppendResult[]> {
  const shape = appends.map((a) => `${modeOf(a.expectedVersion)[0]}${a.events.length > 1 ? 'n' : '1'}`).join('_');
  let rows: (AppendedRow & { k: number })[];
  try {
    rows = await queryNamed(
      db,
      `event_store_append_chain_${shape}`,
      chainStatementText(appends),
      appends.flatMap(statementValues),
    );
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // A stream meant to be new exists: find which, to answer its conflict as a transaction of appends would.
    const found = await queryNamed<{ stream_id: string; version: number }>(
      db,
      'event_store_stream_versions',
      'select stream_id, version from streams where stream_id = any($1)',
      [appends.map((a) => a.streamId)],
    );
    const actual = (a: StreamAppend) => found.find((f) => f.stream_id === a.streamId)?.version ?? null;
    const stale =
      appends.find(
        (a) =>
          a.expectedVersion !== ANY &&
          (a.expectedVersion === NO_STREAM ? actual(a) !== null : actual(a) !== a.expectedVersion),
      ) ?? appends[0]!;
    throw new ConcurrencyConflict({
      streamId: stale.streamId,
      expectedVersion: stale.expectedVersion,
      actualVersion: actual(stale),
    });
  }
  if (rows.length === 0) {
    const [first] = appends;
    const [actual] = await queryNamed<{ version: number }>(
      db,
      'event_store_stream_version',
      'select version from streams where stream_id = $1',
      [first!.streamId],
    );
    throw new ConcurrencyConflict({
      streamId: first!.streamId,
      expectedVersion: first!.expectedVersion,
      actualVersion: actual?.version ?? null,
    });
  }
  return appends.map((_, k) => {
    const own = rows.filter((r) => r.k === k).sort((a, b) => a.stream_version - b.stream_version);
    return {
      ok: true,
      nextVersion: Number(own.at(-1)!.stream_version),
      globalPositions: own.map((r) => Number(r.global_position)),
    };
  });
}

export class ConcurrencyConflict extends Error {
  constructor(readonly conflict: Extract<AppendResult, { ok: false }>['conflict']) {
    super(
      `Stream ${conflict.streamId} is at version ${conflict.actualVersion ?? 'none'}, not ${conflict.expectedVersion}`,
    );
  }
}

const appendListeners = new WeakMap<object, Set<(types: ReadonlySet<string>) => void>>();

/**
 * Calls `listener` after every append through this database commits, with the types it appended, so the
 * process's followers and relay pick new events up at once without any caller having to remember to tell them
 * (and a reaction is not woken for types it never handles).
 */
export function onAppended(db: Kysely<EventStoreTables>, listener: (types: ReadonlySet<string>) => void): () => void {
  const listeners = appendListeners.get(db) ?? new Set();
  listeners.add(listener);
  appendListeners.set(db, listeners);
  return () => listeners.delete(listener);
}

function appended(db: Kysely<EventStoreTables>, appends: readonly StreamAppend[]): void {
  const listeners = appendListeners.get(db);
  if (!listeners?.size) return;
  const types = new Set(appends.flatMap((a) => a.events.map((e) => e.type)));
  for (const listener of listeners) listener(types);
}

/** Appends to one stream with optimistic concurrency. */
export async function appendToStream(db: Kysely<EventStoreTables>, append: StreamAppend): Promise<AppendResult> {
  if (append.events.length === 0) throw new Error('appendToStream needs at least one event');
  assertEventsFit(append.streamId, append.events);
  const result = await appendOne(through(db), append);
  if (result.ok) appended(db, [append]);
  return result;
}

const MANY_STREAMS = `
  with input as (
    select x.k, x.stream_id, x.stream_type, x.store_id, x.expected, x.events, jsonb_array_length(x.events)::bigint as n
    from jsonb_to_recordset($1::jsonb) as x(k int, stream_id text, stream_type text, store_id uuid, expected bigint, events jsonb)),
  moved as (
    update streams s set version = s.version + i.n, updated_at = now()
    from input i where s.stream_id = i.stream_id and i.expected > 0 and s.version = i.expected
    returning s.stream_id, s.version),
  created as (
    insert into streams (stream_id, stream_type, version, store_id)
    select stream_id, stream_type, n, store_id from input where expected = 0
    on conflict (stream_id) do nothing
    returning stream_id, version),
  heads as (select stream_id, version from moved union all select stream_id, version from created)
  insert into events (event_id, stream_id, stream_type, stream_version, type, schema_version, store_id, data, metadata)
  select (e.ev->>'i')::uuid, i.stream_id, i.stream_type, h.version - i.n + e.ord, e.ev->>'t', (e.ev->>'v')::int,
         i.store_id, e.ev->'d', e.ev->'m'
  from heads h join input i on i.stream_id = h.stream_id
  cross join lateral jsonb_array_elements(i.events) with ordinality as e(ev, ord)
  order by i.k, e.ord
  returning stream_id, global_position, stream_version`;

/**
 * Appends to many streams in one statement, each on its own terms: a stream whose version moved meanwhile (or that
 * exists when it should be new) gets nothing and answers its conflict, the others are written (one transaction, in the
 * order given, so each stream's events keep their order in the store). What a reaction's batch decided for a hundred
 * claims is one round trip instead of a hundred; the few that conflict are decided again by the caller.
 */
export async function appendToManyStreams(
  db: Kysely<EventStoreTables>,
  appends: readonly StreamAppend[],
): Promise<AppendResult[]> {
  if (new Set(appends.map((a) => a.streamId)).size !== appends.length)
    throw new Error('appendToManyStreams takes each stream once: merge its events into one append');
  if (appends.length === 0) return [];
  const input = appends.map((append, k) => {
    if (append.expectedVersion === ANY) throw new Error('appendToManyStreams needs an expected version per stream');
    if (append.events.length === 0) throw new Error('appendToManyStreams needs at least one event per stream');
    assertEventsFit(append.streamId, append.events);
    return {
      k,
      stream_id: append.streamId,
      stream_type: append.streamType,
      store_id: append.storeId,
      expected: append.expectedVersion,
      events: append.events.map((e) => ({
        i: e.eventId,
        t: e.type,
        v: e.metadata.schemaVersion,
        d: e.data,
        m: e.metadata,
      })),
    };
  });
  // Two such statements locking the same streams in different orders may deadlock: PostgreSQL ends one, whose streams
  // then all answer their conflict (decided again one by one), never an error blamed on the events.
  const rows = await queryNamed<AppendedRow & { stream_id: string }>(
    db,
    'event_store_append_many_streams',
    MANY_STREAMS,
    [JSON.stringify(input)],
  ).catch((error: unknown) => {
    if (errorCode(error) === '40P01') return [];
    throw error;
  });
  const written = appends.filter((a) => rows.some((r) => r.stream_id === a.streamId));
  if (written.length > 0) appended(db, written);
  const missed = appends.filter((a) => !written.includes(a)).map((a) => a.streamId);
  const versions =
    missed.length === 0
      ? []
      : await queryNamed<{ stream_id: string; version: number }>(
          db,
          'event_store_stream_versions',
          'select stream_id, version from streams where stream_id = any($1)',
          [missed],
        );
  const byStream = new Map<string, AppendedRow[]>();
  for (const row of rows) byStream.set(row.stream_id, [...(byStream.get(row.stream_id) ?? []), row]);
  return appends.map((append): AppendResult => {
    const own = byStream.get(append.streamId)?.sort((a, b) => a.stream_version - b.stream_version);
    if (!own) {
      const actual = versions.find((v) => v.stream_id === append.streamId);
      return {
        ok: false,
        conflict: {
          streamId: append.streamId,
          expectedVersion: append.expectedVersion,
          actualVersion: actual ? Number(actual.version) : null,
        },
      };
    }
    return {
      ok: true,
      nextVersion: Number(own.at(-1)!.stream_version),
      globalPositions: own.map((r) => Number(r.global_position)),
    };
  });
}

/** Rows of the caller's own tables written in the append's transaction, after the events (all or nothing). */
export type Alongside = (trx: Transaction<EventStoreTables>) => Promise<void>;

/**
 * Appends to several streams in one transaction: all or nothing. Put the contended stream first,
 * so the transaction takes its id only after it holds that stream's row (keeps per-stream read order).
 */
export async function appendToStreams(
  db: Kysely<EventStoreTables>,
  appends: readonly StreamAppend[],
  alongside?: Alongside,
): Promise<AppendResult[]> {
  for (const append of appends) assertEventsFit(append.streamId, append.events);
  try {
    const pool = alongside ? null : poolOf(db);
    const results =
      !alongside && inOneStatement(appends)
        ? await appendInOneStatement(db, appends)
        : pool
          ? await inPooledTransaction(pool, appends)
          : await db.transaction().execute(async (trx) => {
              const done = await appendAll(through(trx), appends);
              if (alongside) await alongside(trx);
              return done;
            });
    appended(db, appends);
    return results;
  } catch (error) {
    if (error instanceof ConcurrencyConflict) return [{ ok: false, conflict: error.conflict }];
    if (isUniqueViolation(error))
      return [
        {
          ok: false,
          conflict: {
            streamId: appends[0]!.streamId,
            expectedVersion: appends[0]!.expectedVersion,
            actualVersion: null,
          },
        },
      ];
    throw error;
  }
}

const errorCode = (error: unknown): unknown =>
  typeof error === 'object' && error !== null && 'code' in error ? (error as { code: unknown }).code : undefined;

const isUniqueViolation = (error: unknown): boolean => errorCode(error) === '23505';
