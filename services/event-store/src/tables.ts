import type { ColumnType, Generated } from 'kysely';

export interface StreamsTable {
  stream_id: string;
  stream_type: string;
  version: number;
  store_id: string | null;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface EventsTable {
  global_position: Generated<number>;
  /** xid8 of the appending transaction, read as text. */
  transaction_id: Generated<string>;
  event_id: string;
  stream_id: string;
  stream_type: string;
  stream_version: number;
  type: string;
  schema_version: number;
  store_id: string | null;
  data: unknown;
  metadata: unknown;
  occurred_at: ColumnType<Date, Date | string | undefined, never>;
}

export interface CheckpointsTable {
  name: string;
  transaction_id: string;
  global_position: number;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface EventStoreTables {
  streams: StreamsTable;
  events: EventsTable;
  checkpoints: CheckpointsTable;
}
