import { Kysely, PostgresDialect, sql } from 'kysely';
import type pg from 'pg';
import { countAfter, poolOf, readAll, START, storeCheckpoint, type EventStoreTables } from '@claims/event-store';
import { applyEvents, lockProjection, rebuildLockKey } from './applyEvents.js';
import type { Projection } from './projection.js';

export interface RebuildProgress {
  done: number;
  total: number;
}

async function replay(db: Kysely<EventStoreTables>, projection: Projection, onProgress: (progress: RebuildProgress) => void): Promise<RebuildProgress> {
  const total = await countAfter(db, START);
  await db.transaction().execute(async (trx) => {
    await lockProjection(trx, projection.name);
    for (const table of projection.tables) await sql`truncate table ${sql.table(table)}`.execute(trx);
    await sql`delete from projection_offsets where projection = ${projection.name}`.execute(trx);
    await storeCheckpoint(trx, `projection:${projection.name}`, START);
  });
  let position = START;
  let done = 0;
  onProgress({ done, total });
  for (;;) {
    const page = await readAll(db, position, 2000);
    if (page.events.length === 0) {
      // A transaction open elsewhere in the cluster holds the visible horizon back; the events
      // counted at the start are committed, so wait for them rather than stop short.
      if (done >= total) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    await applyEvents(db, projection, page.events, { name: `projection:${projection.name}`, position: page.next });
    position = page.next;
    done += page.events.length;
    onProgress({ done, total: Math.max(total, done) });
  }
  return { done, total: Math.max(total, done) };
}

/** A Kysely instance over one pooled connection: every statement of the rebuild runs in the session holding its lock. */
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

/**
 * Empties a read model and replays the whole store into it. The follower's checkpoint ends where
 * the replay ended, so live following resumes from there. On PostgreSQL the rebuild holds the
 * projection's rebuild lock for its whole run (waiting for batches in flight to finish first), so
 * no live worker of any process writes between its truncate and the end of its replay; on PGlite
 * the server is stopped first (one process per data folder).
 */
export async function rebuild(
  db: Kysely<EventStoreTables>,
  projection: Projection,
  onProgress: (progress: RebuildProgress) => void = () => undefined,
): Promise<RebuildProgress> {
  const pool = poolOf(db);
  if (!pool) return replay(db, projection, onProgress);
  const client = await pool.connect();
  const session = onSession(client);
  try {
    await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [rebuildLockKey(projection.name)]);
    const result = await replay(session, projection, onProgress);
    await client.query('select pg_advisory_unlock(hashtextextended($1, 0))', [rebuildLockKey(projection.name)]);
    client.release();
    return result;
  } catch (error) {
    // Closing the session is what frees its lock, whatever state the failure left it in.
    client.release(error instanceof Error ? error : true);
    throw error;
  } finally {
    await session.destroy();
  }
}
