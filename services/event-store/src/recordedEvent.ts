import type { DomainEvent, EventEnvelope, EventMetadata } from '@claims/contracts';

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

/**
 * The domain event a stored event holds, typed without parsing it again. Every stored event was decided by
 * the domain as a DomainEvent and written only by appendToStream, so re-validating it (zod) on every read
 * re-checks what the store already holds, per event per command (bench/experiments/README.md, "Reading
 * stored events"). This cast is the one place stored data becomes typed; data from outside (requests,
 * Kafka messages) is still parsed.
 */
export function storedDomainEvent(event: { type: string; data: unknown }): DomainEvent {
  return { type: event.type, data: event.data } as DomainEvent;
}
