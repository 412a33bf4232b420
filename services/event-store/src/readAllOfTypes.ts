import { sql, type Kysely } from 'kysely';
import type { EventStoreTables } from './tables.js';
import type { Position } from './readAll.js';

/** An event as a reader of some types needs it: the envelope without the metadata. */
export interface RecordedFact {
  eventId: string;
  type: string;
  streamId: string;
  streamVersion: number;
  globalPosition: number;
  transactionId: string;
  occurredAt: string;
  data: unknown;
}

export interface ReadFactsPage {
  events: RecordedFact[];
  /** Where the next read starts; unchanged when nothing was read. */
  next: Position;
}

interface FactRow {
  global_position: string;
  transaction_id: string;
  event_id: string;
  stream_id: string;
  stream_version: string;
  type: string;
  occurred_at: Date;
  data: unknown;
}

/**
 * readAll's walk (committed transactions below the snapshot's xmin, in (transaction, position) order) of the
 * given types only, without the metadata: the server skips every other event, so a reader of a few types never
 * transfers or parses the rest (a finance replay reads about a quarter of a realistic history this way).
 */
export async function readAllOfTypes(db: Kysely<EventStoreTables>, after: Position, types: readonly string[], limit = 500): Promise<ReadFactsPage> {
  const { rows } = await sql<FactRow>`
    select global_position, transaction_id::text as transaction_id, event_id, stream_id, stream_version, type, occurred_at, data
    from events
    where transaction_id < pg_snapshot_xmin(pg_current_snapshot())
      and (transaction_id, global_position) > (${after.transactionId}::xid8, ${after.globalPosition}::bigint)
      and type = any(${[...types]}::text[])
    order by events.transaction_id, events.global_position
    limit ${limit}`.execute(db);
  const events = rows.map((row): RecordedFact => ({
    eventId: row.event_id, type: row.type, streamId: row.stream_id, streamVersion: Number(row.stream_version), globalPosition: Number(row.global_position),
    transactionId: row.transaction_id, occurredAt: new Date(row.occurred_at).toISOString(), data: row.data,
  }));
  const last = events.at(-1);
  return { events, next: last ? { transactionId: last.transactionId, globalPosition: last.globalPosition } : after };
}

/** How many events of the given types the store holds (committed; for progress). */
export async function countOfTypes(db: Kysely<EventStoreTables>, types: readonly string[]): Promise<number> {
  const { rows } = await sql<{ count: number }>`select count(*)::int as count from events where type = any(${[...types]}::text[])`.execute(db);
  return rows[0]?.count ?? 0;
}
