import { sql, type Kysely } from 'kysely';
import type { EventStoreTables } from './tables.js';
import { toRecordedEvent, type RecordedEvent, type StoredEventRow } from './recordedEvent.js';

export interface StreamRead {
  version: number;
  events: RecordedEvent[];
}

/** Every event of one stream, in version order; an unknown stream reads as version 0 with no events. */
export async function readStream(db: Kysely<EventStoreTables>, streamId: string, untilVersion?: number): Promise<StreamRead> {
  const result = await sql<StoredEventRow>`
    select global_position, transaction_id::text as transaction_id, event_id, stream_id, stream_version, type,
           store_id, data, metadata, occurred_at
    from events
    where stream_id = ${streamId} and (${untilVersion ?? null}::bigint is null or stream_version <= ${untilVersion ?? null}::bigint)
    order by stream_version`.execute(db);
  const events = result.rows.map(toRecordedEvent);
  return { version: events.at(-1)?.streamVersion ?? 0, events };
}
