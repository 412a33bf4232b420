import { sql, type Kysely } from 'kysely';
import type { EventStoreTables } from './tables.js';
import { queryNamed } from './database.js';
import { toRecordedEvent, type RecordedEvent, type StoredEventRow } from './recordedEvent.js';

export interface StreamRead {
  version: number;
  events: RecordedEvent[];
}

const READ_STREAM = `
  select global_position, transaction_id::text as transaction_id, event_id, stream_id, stream_version, type,
         store_id, data, metadata, occurred_at
  from events
  where stream_id = $1 and ($2::bigint is null or stream_version <= $2::bigint)
  order by stream_version`;

/** Every event of one stream, in version order; an unknown stream reads as version 0 with no events. */
export async function readStream(
  db: Kysely<EventStoreTables>,
  streamId: string,
  untilVersion?: number,
): Promise<StreamRead> {
  // Every command reads its stream first: named, it is planned once per connection.
  const rows = await queryNamed<StoredEventRow>(db, 'event_store_read_stream', READ_STREAM, [
    streamId,
    untilVersion ?? null,
  ]);
  const events = rows.map(toRecordedEvent);
  return { version: events.at(-1)?.streamVersion ?? 0, events };
}

export interface StreamOfType {
  streamId: string;
  version: number;
  events: RecordedEvent[];
}

/**
 * Every stream of one type for one store (`null`: streams of no store), each with its events in
 * order: one query, for small collections whose streams are their own read model (macros, SOPs).
 */
export async function readStreamsOfType(
  db: Kysely<EventStoreTables>,
  streamType: string,
  storeId: string | null,
): Promise<StreamOfType[]> {
  const result = await sql<StoredEventRow>`
    select e.global_position, e.transaction_id::text as transaction_id, e.event_id, e.stream_id, e.stream_version, e.type,
           e.store_id, e.data, e.metadata, e.occurred_at
    from streams s join events e on e.stream_id = s.stream_id
    where s.stream_type = ${streamType} and s.store_id is not distinct from ${storeId}::uuid
    order by e.stream_id, e.stream_version`.execute(db);
  const streams = new Map<string, StreamOfType>();
  for (const event of result.rows.map(toRecordedEvent)) {
    const stream = streams.get(event.streamId) ?? { streamId: event.streamId, version: 0, events: [] };
    stream.events.push(event);
    stream.version = event.streamVersion;
    streams.set(event.streamId, stream);
  }
  return [...streams.values()];
}

const READ_STREAMS = `
  select global_position, transaction_id::text as transaction_id, event_id, stream_id, stream_version, type,
         store_id, data, metadata, occurred_at
  from events
  where stream_id = any($1::text[])
  order by stream_id, stream_version`;

/**
 * Several streams in one query (a reaction's batch reads every claim it mails about at once, not one by one); each id
 * asked for is in the answer, an unknown stream as version 0 with no events.
 */
export async function readStreams(
  db: Kysely<EventStoreTables>,
  streamIds: readonly string[],
): Promise<Map<string, StreamRead>> {
  const read = new Map<string, StreamRead>(streamIds.map((id) => [id, { version: 0, events: [] }]));
  if (read.size === 0) return read;
  const rows = await queryNamed<StoredEventRow>(db, 'event_store_read_streams', READ_STREAMS, [[...read.keys()]]);
  for (const event of rows.map(toRecordedEvent)) {
    const stream = read.get(event.streamId)!;
    stream.events.push(event);
    stream.version = event.streamVersion;
  }
  return read;
}
