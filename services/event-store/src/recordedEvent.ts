import type { EventEnvelope, EventMetadata } from '@claims/contracts';

/** An event as stored: the contract's envelope plus the transaction it committed in. */
export interface RecordedEvent extends EventEnvelope {
  metadata: EventMetadata;
  transactionId: string;
}

export interface StoredEventRow {
  global_position: number;
  transaction_id: string;
  event_id: string;
  stream_id: string;
  stream_version: number;
  type: string;
  store_id: string | null;
  data: unknown;
  metadata: unknown;
  occurred_at: Date | string;
}

export function toRecordedEvent(row: StoredEventRow): RecordedEvent {
  return {
    eventId: row.event_id,
    type: row.type,
    streamId: row.stream_id,
    streamVersion: Number(row.stream_version),
    globalPosition: Number(row.global_position),
    storeId: row.store_id,
    occurredAt: new Date(row.occurred_at).toISOString(),
    data: row.data,
    metadata: row.metadata as EventMetadata,
    transactionId: String(row.transaction_id),
  };
}

/** The envelope published to Kafka and webhooks, without the store-internal transaction id. */
export function toEnvelope(event: RecordedEvent): EventEnvelope {
  const { transactionId: _internal, ...envelope } = event;
  return envelope;
}
