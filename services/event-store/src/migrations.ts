import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from './migrate.js';

/** The event store's own schema. Other modules add theirs under their own names. */
export const eventStoreMigrations: Record<string, Migration> = {
  '0001_event_store': sqlMigration(
    sql`
      create table streams (
        stream_id text primary key,
        stream_type text not null,
        version bigint not null,
        store_id uuid,
        updated_at timestamptz not null default now()
      )`,
    sql`
      create table events (
        global_position bigserial primary key,
        transaction_id xid8 not null default pg_current_xact_id(),
        event_id uuid not null unique,
        stream_id text not null,
        stream_type text not null,
        stream_version bigint not null,
        type text not null,
        schema_version int not null,
        store_id uuid,
        data jsonb not null,
        metadata jsonb not null,
        occurred_at timestamptz not null default now(),
        unique (stream_id, stream_version)
      )`,
    // readAll walks events in (transaction, position) order; this index serves it.
    sql`create index events_tx_position on events (transaction_id, global_position)`,
    sql`
      create table checkpoints (
        name text primary key,
        transaction_id xid8 not null,
        global_position bigint not null,
        updated_at timestamptz not null default now()
      )`,
  ),
  // Named for where it was first added (the desk), so databases that ran it keep their history.
  '0700_streams_by_type_and_store': sqlMigration(
    sql`create index if not exists streams_type_store on streams (stream_type, store_id)`,
  ),
};
