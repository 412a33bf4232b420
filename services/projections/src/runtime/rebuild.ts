import { sql, type Kysely } from 'kysely';
import { countAfter, readAll, START, storeCheckpoint, type EventStoreTables } from '@claims/event-store';
import { applyEvents, lockProjection } from './applyEvents.js';
import type { Projection } from './projection.js';

export interface RebuildProgress {
  done: number;
  total: number;
}

/**
 * Empties a read model and replays the whole store into it. The follower's checkpoint ends where
 * the replay ended, so live following resumes from there.
 */
export async function rebuild(
  db: Kysely<EventStoreTables>,
  projection: Projection,
  onProgress: (progress: RebuildProgress) => void = () => undefined,
): Promise<RebuildProgress> {
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
