import { sql, type Kysely } from 'kysely';
import type { EventStoreTables } from './tables.js';

/**
 * The store a stream belongs to, from its `streams` row (one primary-key read): null for an unknown
 * stream or one of no store. Lets a request be authorized on its tenant before its body is read.
 */
export async function streamStoreId(db: Kysely<EventStoreTables>, streamId: string): Promise<string | null> {
  const { rows } = await sql<{ store_id: string | null }>`select store_id from streams where stream_id = ${streamId}`.execute(db);
  return rows[0]?.store_id ?? null;
}
