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
  // One replay under way per requester (each folds the history in memory): a running one left by a stopped process is failed.
  '2670_finance_replays_one_running': sqlMigration(
    sql`update finance_replays set status = 'failed', error = 'The service restarted during the replay; start it again.', finished_at = now()
        where status = 'running'`,
    sql`create unique index finance_replays_one_running on finance_replays (requested_by) where status = 'running'`,
  ),
};
