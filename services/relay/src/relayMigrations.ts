import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';

/** Events the broker refused for good (too large, invalid): set aside so the relay moves on, kept for an operator. */
export const relayMigrations: Record<string, Migration> = {
  '0850_relay_quarantine': sqlMigration(
    sql`
      create table relay_quarantine (
        event_id uuid primary key,
        global_position bigint not null,
        stream_id text not null,
        type text not null,
        bytes int not null,
        error text not null,
        quarantined_at timestamptz not null default now()
      )`,
  ),
};
