import { sql, type Kysely } from 'kysely';
import type { EventStoreTables } from './tables.js';
import { toRecordedEvent, type RecordedEvent, type StoredEventRow } from './recordedEvent.js';

/** Where a reader of the whole store stands: the last (transaction, position) it has seen. */
export interface Position {
  transactionId: string;
  globalPosition: number;
}

export const START: Position = { transactionId: '0', globalPosition: 0 };

export interface ReadAllPage {
  events: RecordedEvent[];
  /** Where the next read starts; unchanged when nothing was read. */
  next: Position;
}

/**
 * Reads committed events in (transaction id, position) order (the xid8 column, qualified: the bare
 * name would sort by the text alias, where '10' < '9', and skip the index), only from transactions older than
 * every transaction still open (the snapshot's xmin). A position taken by a transaction that has
 * not committed yet can therefore never be skipped: the read waits until that transaction ends.
 */
export async function readAll(
  db: Kysely<EventStoreTables>,
  after: Position,
  limit = 500,
  types?: readonly string[],
): Promise<ReadAllPage> {
  if (types) return readAllOfTypesInOrder(db, after, limit, types);
  const result = await sql<StoredEventRow>`
    select global_position, transaction_id::text as transaction_id, event_id, stream_id, stream_version, type,
           store_id, data, metadata, occurred_at
    from events
    where transaction_id < pg_snapshot_xmin(pg_current_snapshot())
      and (transaction_id, global_position) > (${after.transactionId}::xid8, ${after.globalPosition}::bigint)
    order by events.transaction_id, events.global_position
    limit ${limit}`.execute(db);
  const events = result.rows.map(toRecordedEvent);
  const last = events.at(-1);
  return { events, next: last ? { transactionId: last.transactionId, globalPosition: last.globalPosition } : after };
}

const inReadOrder = (a: RecordedEvent, b: RecordedEvent) => {
  const byTransaction = BigInt(a.transactionId) - BigInt(b.transactionId);
  return byTransaction === 0n ? a.globalPosition - b.globalPosition : byTransaction < 0n ? -1 : 1;
};

/**
 * readAll of some types only (a projection reads what it handles: a rebuild of the invoices never sends
 * the claims' million events over the wire). A page that is not full has read everything visible, so
 * `next` is then the last visible event of any type, taken in the same statement (the same snapshot):
 * a reader whose last events are of other types still reaches the head.
 */
async function readAllOfTypesInOrder(
  db: Kysely<EventStoreTables>,
  after: Position,
  limit: number,
  types: readonly string[],
): Promise<ReadAllPage> {
  const result = await sql<StoredEventRow & { horizon: boolean }>`
    with page as (
      select global_position, transaction_id::text as transaction_id, event_id, stream_id, stream_version, type,
             store_id, data, metadata, occurred_at, false as horizon
      from events
      where transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        and (transaction_id, global_position) > (${after.transactionId}::xid8, ${after.globalPosition}::bigint)
        and type = any(${[...types]}::text[])
      order by events.transaction_id, events.global_position
      limit ${limit}),
    horizon as (
      select global_position, transaction_id::text as transaction_id, null::uuid, null, null::bigint, null, null::uuid, null::jsonb, null::jsonb, null::timestamptz, true
      from events
      where transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        and (transaction_id, global_position) > (${after.transactionId}::xid8, ${after.globalPosition}::bigint)
      order by events.transaction_id desc, events.global_position desc
      limit 1)
    select * from page union all select * from horizon`.execute(db);
  const events = result.rows
    .filter((row) => !row.horizon)
    .map(toRecordedEvent)
    .sort(inReadOrder);
  const horizon = result.rows.find((row) => row.horizon);
  const last = events.at(-1);
  if (events.length < limit && horizon)
    return {
      events,
      next: { transactionId: String(horizon.transaction_id), globalPosition: Number(horizon.global_position) },
    };
  return { events, next: last ? { transactionId: last.transactionId, globalPosition: last.globalPosition } : after };
}

/**
 * The position of the last committed event in `readAll`'s order (START when none): where a reader that skips the past
 * begins. Not held back below the snapshot's xmin as `readAll` is (an open transaction elsewhere in the cluster would
 * make the past look unread), so what a transaction still open now appends may be passed over. Ordered by the qualified
 * xid8 column, as readAll is: the bare name is the text alias, where '999' sorts after '1000'.
 */
export async function lastCommittedPosition(db: Kysely<EventStoreTables>): Promise<Position> {
  const result = await sql<{ transaction_id: string; global_position: number }>`
    select transaction_id::text as transaction_id, global_position from events
    order by events.transaction_id desc, events.global_position desc
    limit 1`.execute(db);
  const last = result.rows[0];
  return last ? { transactionId: last.transaction_id, globalPosition: Number(last.global_position) } : START;
}

/** Whether a reader at `position` has read up to and including `target`. */
export const hasReached = (position: Position, target: Position): boolean => {
  const a = BigInt(position.transactionId);
  const b = BigInt(target.transactionId);
  return a > b || (a === b && position.globalPosition >= target.globalPosition);
};

/** How many events (of the given types, or of any) lie beyond a position (for progress bars). */
export async function countAfter(
  db: Kysely<EventStoreTables>,
  after: Position,
  types?: readonly string[],
): Promise<number> {
  const only = types ? [...types] : null;
  const result = await sql<{ count: number }>`
    select count(*)::int as count from events
    where (transaction_id, global_position) > (${after.transactionId}::xid8, ${after.globalPosition}::bigint)
      and (${only}::text[] is null or type = any(${only}::text[]))`.execute(db);
  return result.rows[0]?.count ?? 0;
}
