import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';

/** Finance replays: each run's request, progress and comparison, kept so finance can read it again. */
export const financeMigrations: Record<string, Migration> = {
  '0810_finance_replays': sqlMigration(
    sql`
      create table finance_replays (
        id uuid primary key,
        requested_by text not null,
        request jsonb not null,
        status text not null,
        progress double precision not null default 0,
        result jsonb,
        error text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        finished_at timestamptz
      )`,
  ),
};
