import os from 'node:os';
import type { StoreAdapter } from './eventStoreWorkload.js';

/** The stores the event-store benchmark can drive. Each is opened in its own child process. */
export type StoreKind = 'ours' | 'emmett' | `v-${string}` | `${string}@${number}`;

export const STORE_LABELS: Partial<Record<StoreKind, string>> = {
  ours: '@claims/event-store',
  emmett: '@event-driven-io/emmett-postgresql',
};

export function storeLabel(kind: StoreKind): string {
  return STORE_LABELS[kind] ?? `experiment ${kind}`;
}

/** Our store, through its public API, on a pool of `poolSize` (it reads DB_POOL_SIZE). */
async function openOurs(url: string, poolSize: number): Promise<StoreAdapter<number>> {
  process.env.DB_POOL_SIZE = String(poolSize);
  const { openDatabase, migrate, eventStoreMigrations, appendToStream, NO_STREAM } =
    await import('@claims/event-store');
  const database = await openDatabase({ databaseUrl: url, dataDir: os.tmpdir() });
  await migrate(database, eventStoreMigrations);
  return {
    async append(streamId, events, expected) {
      const result = await appendToStream(database.db, {
        streamId,
        streamType: 'claim',
        storeId: '5f0c6f4e-8f53-4d0a-9a57-3c2d1b0e7a11',
        expectedVersion: expected ?? NO_STREAM,
        events,
      });
      if (!result.ok) throw new Error(`conflict on ${streamId}: ${JSON.stringify(result.conflict)}`);
      return result.nextVersion;
    },
    close: () => database.close(),
  };
}

/**
 * Emmett's PostgreSQL event store on a pg.Pool of the same size as ours (its own default would be
 * pg's 10). A new stream is appended with expected version 0n (PostgreSQLEventStoreDefaultStreamVersion),
 * which Emmett checks as "must not exist" (STREAM_DOES_NOT_EXIST is not checked by its append).
 */
async function openEmmett(url: string, poolSize: number): Promise<StoreAdapter<bigint>> {
  const { default: pg } = await import('pg');
  const { getPostgreSQLEventStore, PostgreSQLEventStoreDefaultStreamVersion } =
    await import('@event-driven-io/emmett-postgresql');
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const store = getPostgreSQLEventStore(url, { connectionOptions: { pool } });
  await store.schema.migrate();
  return {
    async append(streamId, events, expected) {
      const result = await store.appendToStream(
        `claim-${streamId}`,
        // Emmett adds its own messageId to the metadata, the counterpart of our event_id column.
        events.map((e) => ({ type: e.type, data: e.data, metadata: e.metadata })),
        { expectedStreamVersion: expected ?? PostgreSQLEventStoreDefaultStreamVersion },
      );
      return result.nextExpectedStreamVersion;
    },
    async close() {
      await store.close();
      await pool.end();
    },
  };
}

/** `kind@N` runs `kind` with a pool of N connections (experiments). */
export function parseKind(kind: StoreKind, poolSize: number): { base: StoreKind; poolSize: number } {
  const [base, pool] = kind.split('@') as [StoreKind, string | undefined];
  return { base, poolSize: pool ? Number(pool) : poolSize };
}

export async function openStore(kind: StoreKind, url: string, defaultPoolSize: number): Promise<StoreAdapter> {
  const { base, poolSize } = parseKind(kind, defaultPoolSize);
  switch (base) {
    case 'ours':
      return (await openOurs(url, poolSize)) as StoreAdapter;
    case 'emmett':
      return (await openEmmett(url, poolSize)) as StoreAdapter;
    default: {
      // Experiments (bench/experiments): variants of our append, never part of `make bench`.
      const { openVariant } = await import('./experiments/appendVariants.js');
      return (await openVariant(base, url, poolSize)) as StoreAdapter;
    }
  }
}
