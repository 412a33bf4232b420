import { Kysely, PostgresDialect, sql, type QueryExecutorProvider, type Transaction } from 'kysely';
import type pg from 'pg';
import {
  countAfter,
  poolOf,
  readAll,
  START,
  storeCheckpoint,
  type EventStoreTables,
  type Position,
} from '@claims/event-store';
import { applyEvents, applyInTransaction, lockProjection, rebuildLockKey } from './applyEvents.js';
import { projectionRuntimeMigrations } from './projectionMigrations.js';
import { projectionCheckpointName } from './readerProgress.js';
import type { Projection } from './projection.js';
import { finishRebuild, recordRebuildProgress, startRebuildRecord } from './rebuildRecords.js';

export interface RebuildProgress {
  done: number;
  total: number;
}

/** Progress to the caller and, unless `record` is false, to `projection_rebuilds`. */
type Report = (progress: RebuildProgress, record?: boolean) => Promise<void>;

export interface RebuildOptions {
  /** Called once the new tables have caught up, just before they take over (tests read the live tables there). */
  beforeSwitch?: () => Promise<void>;
}

/** Another rebuild of the projection is under way (in this process or another). */
export class RebuildRunning extends Error {
  constructor(readonly projection: string) {
    super(`A rebuild of ${projection} is already running`);
  }
}

/**
 * Events read per batch of a rebuild: each batch costs a fixed handful of statements (read, a few bulk
 * writes, offsets), so larger batches amortise them; 5,000 events (a few MB of parsed JSON) keep each
 * transaction short. The rate it gives is in docs/benchmarks.md, "Projections". Reading the next batch while
 * writing this one was tried at 1M events (2026-11-26): within the runs' noise, so the loop stays sequential.
 */
const REBUILD_BATCH = 5_000;

const schemaOf = (projection: Projection, role: 'rebuild' | 'retired') =>
  `projection_${role}_${projection.name.replace(/[^a-z0-9]/gi, '_').toLowerCase()}`;

/**
 * The projection's tables and offsets, created by its own migrations in a schema of its own, without the
 * indexes it builds after loading: their definitions are returned for `indexAfterLoad`.
 */
async function createBeside(db: Kysely<EventStoreTables>, projection: Projection, build: Build): Promise<string[]> {
  await sql`drop schema if exists ${sql.id(build.schema)} cascade`.execute(db);
  await sql`create schema ${sql.id(build.schema)}`.execute(db);
  await db.transaction().execute(async (trx) => {
    await onlyIn(trx, build);
    const migrations = { ...projectionRuntimeMigrations, ...projection.migrations };
    for (const key of Object.keys(migrations).sort()) {
      // The runtime's other tables (parked events, rebuild records) stay shared: only the offsets are the build's own.
      if (key in projectionRuntimeMigrations && key !== '0100_projection_offsets') continue;
      await migrations[key]!.up(trx);
    }
  });
  const deferred = projection.indexedAfterLoad ?? [];
  if (deferred.length === 0) return [];
  const { rows } = await sql<{ name: string; definition: string }>`
    select indexname as name, indexdef as definition from pg_indexes
    where schemaname = ${build.schema} and indexname = any(${[...deferred]}::text[])`.execute(db);
  const missing = deferred.filter((name) => !rows.some((r) => r.name === name));
  if (missing.length > 0)
    throw new Error(`${projection.name} names indexes its migrations do not create: ${missing.join(', ')}`);
  for (const { name } of rows) await sql`drop index ${sql.id(build.schema, name)}`.execute(db);
  return rows.map((r) => r.definition);
}

/** The indexes left out while loading, each built once over the loaded rows (`indexdef` names the build's schema). */
async function indexAfterLoad(db: Kysely<EventStoreTables>, definitions: readonly string[]): Promise<void> {
  for (const definition of definitions) await sql.raw(definition).execute(db);
}

/**
 * Tables named without a schema are the build's (created there, written there); the rest of the database
 * (the events, the API's tables a migration joins) is found behind it. For this transaction only.
 */
async function onlyIn(trx: QueryExecutorProvider, build: Build): Promise<void> {
  await sql`select set_config('search_path', ${`${quoteIdent(build.schema)}, ${quoteIdent(build.live)}`}, true)`.execute(
    trx,
  );
}

/** Where a build writes (its schema) and where the live tables are (the schema the database names first). */
interface Build {
  schema: string;
  live: string;
}

async function liveSchema(db: QueryExecutorProvider): Promise<string> {
  const { rows } = await sql<{ live: string | null }>`select current_schema() as live`.execute(db);
  return rows[0]?.live ?? 'public';
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Reads the projection's events after `from` into the build's tables, a batch per transaction, until the head visible when it gets there. */
async function catchUp(
  db: Kysely<EventStoreTables>,
  projection: Projection,
  build: Build,
  from: Position,
  onBatch: (events: number) => Promise<void>,
  inTransaction?: Transaction<EventStoreTables>,
): Promise<Position> {
  let position = from;
  for (;;) {
    const page = await readAll(inTransaction ?? db, position, REBUILD_BATCH, projection.handles);
    if (page.events.length > 0) {
      const apply = async (trx: Transaction<EventStoreTables>) => {
        await onlyIn(trx, build);
        await applyInTransaction(trx, projection, page.events);
      };
      if (inTransaction) await apply(inTransaction);
      else await db.transaction().execute(apply);
    }
    position = page.next;
    if (page.events.length > 0) await onBatch(page.events.length);
    // A page that is not full read everything visible: stop there rather than chase a busy writer page by page
    // (the switch holds live batches back meanwhile); what comes later is the live follower's, from `position`.
    if (page.events.length < REBUILD_BATCH) return position;
  }
}

/**
 * The switch, in one transaction under the projection's lock (a live batch in flight finishes first, the
 * next waits for the switch): the last events are applied to the new tables, the live tables move out and
 * the new ones in, and the offsets and the follower's checkpoint become the build's. A query that began
 * before reads the old rows to its end; one after, the new ones.
 */
async function switchOver(
  db: Kysely<EventStoreTables>,
  projection: Projection,
  build: Build,
  from: Position,
  onBatch: (events: number) => Promise<void>,
): Promise<void> {
  const retired = schemaOf(projection, 'retired');
  const { schema, live } = build;
  await db.transaction().execute(async (trx) => {
    await lockProjection(trx, projection.name);
    const position = await catchUp(db, projection, build, from, onBatch, trx);
    await sql`drop schema if exists ${sql.id(retired)} cascade`.execute(trx);
    await sql`create schema ${sql.id(retired)}`.execute(trx);
    for (const table of projection.tables) {
      await sql`alter table ${sql.id(live, table)} set schema ${sql.id(retired)}`.execute(trx);
      await sql`alter table ${sql.id(schema, table)} set schema ${sql.id(live)}`.execute(trx);
    }
    await sql`delete from ${sql.id(live, 'projection_offsets')} where projection = ${projection.name}`.execute(trx);
    await sql`insert into ${sql.id(live, 'projection_offsets')} select * from ${sql.id(schema, 'projection_offsets')} where projection = ${projection.name}`.execute(
      trx,
    );
    await storeCheckpoint(trx, projectionCheckpointName(projection), position);
    await sql`drop schema ${sql.id(schema)} cascade`.execute(trx);
    await sql`drop schema ${sql.id(retired)} cascade`.execute(trx);
  });
}

/** A rebuild beside the live tables: build, catch up, switch. Live workers and queries go on meanwhile. */
async function buildBeside(
  db: Kysely<EventStoreTables>,
  projection: Projection,
  report: Report,
  options: RebuildOptions,
): Promise<RebuildProgress> {
  const schema = schemaOf(projection, 'rebuild');
  const build = { schema, live: await liveSchema(db) };
  const total = await countAfter(db, START, projection.handles);
  let done = 0;
  const onBatch = async (events: number) => {
    done += events;
    await report({ done, total: Math.max(total, done) });
  };
  // Inside the switch's transaction nothing else may use the database (PGlite has one connection): no record then.
  const onSwitchBatch = async (events: number) => {
    done += events;
    await report({ done, total: Math.max(total, done) }, false);
  };
  try {
    const deferredIndexes = await createBeside(db, projection, build);
    await report({ done, total });
    let position = await catchUp(db, projection, build, START, onBatch);
    // A transaction open elsewhere in the cluster holds the visible head back; the events counted at the
    // start are committed, so wait for them rather than switch short of them.
    while (done < total) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      position = await catchUp(db, projection, build, position, onBatch);
    }
    if (deferredIndexes.length > 0) {
      await indexAfterLoad(db, deferredIndexes);
      // What arrived while the indexes were built, so the switch (which holds live writers back) has little left.
      position = await catchUp(db, projection, build, position, onBatch);
    }
    await options.beforeSwitch?.();
    await switchOver(db, projection, build, position, onSwitchBatch);
    return { done, total: Math.max(total, done) };
  } catch (error) {
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db).catch(() => undefined);
    throw error;
  }
}

/**
 * A projection whose rows are history, not a derived view (the webhook outbox: `tables` empty), is replayed
 * in place: nothing is emptied, the offsets start over and what exists already is not inserted twice. The
 * projection's rebuild lock keeps live workers out meanwhile (RebuildInProgress).
 */
async function replayInPlace(
  db: Kysely<EventStoreTables>,
  projection: Projection,
  report: Report,
): Promise<RebuildProgress> {
  const name = projectionCheckpointName(projection);
  const total = await countAfter(db, START, projection.handles);
  await db.transaction().execute(async (trx) => {
    await lockProjection(trx, projection.name);
    await sql`delete from projection_offsets where projection = ${projection.name}`.execute(trx);
    await storeCheckpoint(trx, name, START);
  });
  let position = START;
  let done = 0;
  await report({ done, total });
  for (;;) {
    const page = await readAll(db, position, REBUILD_BATCH, projection.handles);
    if (page.events.length === 0 && done >= total) {
      await storeCheckpoint(db, name, page.next);
      break;
    }
    if (page.events.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    await applyEvents(db, projection, page.events, { name, position: page.next });
    position = page.next;
    done += page.events.length;
    await report({ done, total: Math.max(total, done) });
  }
  return { done, total: Math.max(total, done) };
}

/** A Kysely instance over one pooled connection: every statement of an in-place replay runs in the session holding its lock. */
function onSession(client: pg.PoolClient): Kysely<EventStoreTables> {
  return new Kysely<EventStoreTables>({
    dialect: new PostgresDialect({
      pool: {
        connect: async () => ({ query: client.query.bind(client) as pg.PoolClient['query'], release: () => undefined }),
        end: async () => undefined,
        options: {},
      },
    }),
  });
}

/** Rebuilds running in this process (PGlite has one session, so its advisory locks cannot tell two apart). */
const runningHere = new Set<string>();

/** Which rebuild a session lock stands for: one per projection, across every process. */
const runningLockKey = (name: string) => `projection-rebuild-running:${name}`;

export interface StartedRebuild {
  /** Resolves when the new tables have taken over (or the replay ended); rejects when the rebuild failed. */
  finished: Promise<RebuildProgress>;
}

/**
 * Starts a rebuild of the projection and answers once it holds the projection's rebuild (RebuildRunning
 * when another holds it). Progress goes to `projection_rebuilds` (what the operations page shows, from any
 * process) and to `onProgress`. A projection with tables is built beside the live one and switched in;
 * queries read the old rows until the switch (docs/decisions/batched-projections.md).
 */
export async function startRebuild(
  db: Kysely<EventStoreTables>,
  projection: Projection,
  onProgress: (progress: RebuildProgress) => void = () => undefined,
  options: RebuildOptions = {},
): Promise<StartedRebuild> {
  if (runningHere.has(projection.name)) throw new RebuildRunning(projection.name);
  const pool = poolOf(db);
  const client = pool ? await pool.connect() : null;
  if (client) {
    const { rows } = await client.query<{ free: boolean }>(
      'select pg_try_advisory_lock(hashtextextended($1, 0)) as free',
      [runningLockKey(projection.name)],
    );
    if (!rows[0]?.free) {
      client.release();
      throw new RebuildRunning(projection.name);
    }
  }
  runningHere.add(projection.name);
  const release = async (error?: unknown) => {
    runningHere.delete(projection.name);
    if (!client) return;
    // A pooled session keeps its advisory locks: unlocked before it goes back, or closed (which frees them) after a failure.
    if (error === undefined) {
      await client.query('select pg_advisory_unlock(hashtextextended($1, 0))', [runningLockKey(projection.name)]);
      client.release();
    } else {
      client.release(error instanceof Error ? error : true);
    }
  };
  try {
    await startRebuildRecord(db, projection.name);
  } catch (error) {
    await release(error);
    throw error;
  }
  let reported = 0;
  const report: Report = async (progress, record = true) => {
    onProgress(progress);
    // The record is a progress bar: every batch, not every event.
    if (
      record &&
      (progress.done === 0 || progress.done - reported >= REBUILD_BATCH || progress.done === progress.total)
    ) {
      reported = progress.done;
      await recordRebuildProgress(db, projection.name, progress);
    }
  };
  const run = async (): Promise<RebuildProgress> => {
    if (projection.tables.length > 0) return buildBeside(db, projection, report, options);
    if (!client) return replayInPlace(db, projection, report);
    const session = onSession(client);
    try {
      await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [rebuildLockKey(projection.name)]);
      const result = await replayInPlace(session, projection, report);
      await client.query('select pg_advisory_unlock(hashtextextended($1, 0))', [rebuildLockKey(projection.name)]);
      return result;
    } finally {
      await session.destroy();
    }
  };
  const finished = run().then(
    async (result) => {
      await finishRebuild(db, projection.name, result, null);
      await release();
      return result;
    },
    async (error: unknown) => {
      await finishRebuild(db, projection.name, null, error instanceof Error ? error.message : String(error)).catch(
        () => undefined,
      );
      await release(error);
      throw error;
    },
  );
  return { finished };
}

/** Rebuilds a read model from the whole store and waits for it (`make replay`, the tests). */
export async function rebuild(
  db: Kysely<EventStoreTables>,
  projection: Projection,
  onProgress: (progress: RebuildProgress) => void = () => undefined,
  options: RebuildOptions = {},
): Promise<RebuildProgress> {
  return (await startRebuild(db, projection, onProgress, options)).finished;
}
