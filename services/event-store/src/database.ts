import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  CompiledQuery,
  Kysely,
  PGliteDialect,
  PostgresDialect,
  sql,
  type QueryExecutorProvider,
  type RawBuilder,
} from 'kysely';
import pg from 'pg';
import type { EventStoreTables } from './tables.js';
import { listenOnPostgres, type Subscription } from './notifications.js';

export type DatabaseKind = 'postgres' | 'pglite';

export interface Database {
  readonly kind: DatabaseKind;
  readonly db: Kysely<EventStoreTables>;
  /** Connection string for a dedicated session (advisory locks); null on PGlite. */
  readonly url: string | null;
  /**
   * Calls `listener` with the payload of each NOTIFY on `channel` (sent at its transaction's commit, by any process on
   * the database); on PostgreSQL from a connection of its own, reopened after a failure (`onError` says why), and then
   * called once without a payload: what was sent while it did not listen is lost.
   */
  listen(channel: string, listener: (payload?: string) => void, onError: (error: unknown) => void): Subscription;
  close(): Promise<void>;
}

export interface DatabaseConfig {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** PostgreSQL only; the defaults are DATABASE_TIMEOUTS. */
  timeouts?: Partial<DatabaseTimeouts>;
  poolSize?: number;
  /** A pooled connection that fails while idle (a server restart, a killed backend); the pool drops it and opens another. */
  onConnectionError?: (error: Error) => void;
}

export interface DatabaseTimeouts {
  /** A statement running longer is cancelled: no query holds a connection (and readers' horizon) for ever. */
  statementMs: number;
  /** A transaction left idle this long is ended by the server, so a stuck client cannot hold readAll back. */
  idleInTransactionMs: number;
  /** Waiting for a new connection (or a free one of the pool) longer than this fails the request. */
  connectMs: number;
}

export const DATABASE_TIMEOUTS: DatabaseTimeouts = {
  statementMs: 30_000,
  idleInTransactionMs: 60_000,
  connectMs: 10_000,
};

// pg returns int8 as string by default; positions and versions stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export class DataDirInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The embedded database in ${dir} is already open in process ${pid}. PGlite allows one process per data folder: ` +
        'stop that process, or use another DATA_DIR, or set DATABASE_URL to share a PostgreSQL server.',
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** One process per PGlite folder: opening it twice can corrupt it, so a second process is refused. */
function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockFile = path.join(dir, 'pglite.lock');
  try {
    fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
  } catch {
    const holder = Number(fs.readFileSync(lockFile, 'utf8'));
    if (holder !== process.pid && Number.isInteger(holder) && isAlive(holder)) throw new DataDirInUseError(dir, holder);
    fs.writeFileSync(lockFile, String(process.pid));
  }
  return () => fs.rmSync(lockFile, { force: true });
}

/** The contrib extensions migrations create, which PGlite must be given when it starts (pg_trgm: the claim queue's search). */
export async function pgliteExtensions() {
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  return { pg_trgm };
}

const pools = new WeakMap<object, pg.Pool>();

/**
 * The pg pool behind a root Kysely instance of a PostgreSQL database, for the few hot statements
 * sent as named (prepared) statements; null for a transaction or PGlite.
 */
export const poolOf = (db: object): pg.Pool | null => pools.get(db) ?? null;

/**
 * Runs a hot statement as a named (server-side prepared) one when `db` is a pooled PostgreSQL root, so
 * PostgreSQL parses and plans it once per connection instead of on every call; in a transaction or on
 * PGlite it runs unnamed through Kysely. `name` must be unique per `text` (PostgreSQL keeps one per name).
 */
export async function queryNamed<Row>(
  db: QueryExecutorProvider,
  name: string,
  text: string,
  values: readonly unknown[],
): Promise<Row[]> {
  const pool = poolOf(db);
  if (pool) return (await pool.query<Row & pg.QueryResultRow>({ name, text, values: [...values] })).rows;
  return (await db.getExecutor().executeQuery<Row>(CompiledQuery.raw(text, [...values]))).rows;
}

/**
 * A hot query built with sql`` whose text varies with its filters (a list page): one named statement per
 * distinct text, named by the text's hash, so each filter shape is planned once per connection.
 */
export function queryNamedSql<Row>(db: QueryExecutorProvider, prefix: string, query: RawBuilder<Row>): Promise<Row[]> {
  const compiled = query.compile(db);
  return queryNamed<Row>(
    db,
    `${prefix}_${createHash('sha1').update(compiled.sql).digest('hex').slice(0, 16)}`,
    compiled.sql,
    compiled.parameters,
  );
}

export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.databaseUrl) {
    const timeouts = { ...DATABASE_TIMEOUTS, ...config.timeouts };
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: config.poolSize ?? Number(process.env.DB_POOL_SIZE ?? 20),
      statement_timeout: timeouts.statementMs,
      idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
      connectionTimeoutMillis: timeouts.connectMs,
    });
    // A connection the server ends (a restart, a killed backend) emits 'error': with no listener that
    // is an uncaught exception that kills the process. Each connection gets one for its whole life,
    // checked out or idle (the pool drops a broken one when it comes back); the pool re-emits the
    // idle ones' errors, already reported by then.
    const onConnectionError = config.onConnectionError ?? (() => undefined);
    pool.on('connect', (client) => client.on('error', onConnectionError));
    pool.on('error', () => undefined);
    const db = new Kysely<EventStoreTables>({ dialect: new PostgresDialect({ pool }) });
    pools.set(db, pool);
    await sql`select 1`.execute(db);
    const url = config.databaseUrl;
    return {
      kind: 'postgres',
      db,
      url,
      listen: (channel, listener, onError) => listenOnPostgres(url, channel, listener, onError),
      close: () => db.destroy(),
    };
  }
  const dir = path.resolve(config.dataDir, 'pglite');
  const unlock = lockDataDir(dir);
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const pglite = await PGlite.create(dir, { extensions: await pgliteExtensions() });
    const db = new Kysely<EventStoreTables>({ dialect: new PGliteDialect({ pglite }) });
    return {
      kind: 'pglite',
      db,
      url: null,
      listen(channel, listener) {
        const unlisten = pglite.listen(channel, (payload) => listener(payload));
        return { stop: async () => (await unlisten)() };
      },
      close: async () => {
        await db.destroy();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

/**
 * Seconds the oldest transaction still open in the cluster has been running (0 when none): readAll
 * reads only below every open transaction, so this is how far the relay and followers may be held back.
 */
export async function oldestTransactionAgeSeconds(db: Kysely<EventStoreTables>): Promise<number> {
  const { rows } = await sql<{ age: number | null }>`
    select extract(epoch from now() - min(xact_start))::float8 as age from pg_stat_activity
    where xact_start is not null and pid <> pg_backend_pid() and backend_type = 'client backend'`.execute(db);
  return Math.max(0, rows[0]?.age ?? 0);
}
