import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';

/**
 * The installation's own keys, the backtests merchants ran (their results, for the page that polls them), and the
 * index filing reads a shopper's earlier claims by, straight from the event store (automation/shopperHistory.ts).
 */
export const automationMigrations: Record<string, Migration> = {
  '2810_automation': sqlMigration(
    sql`create table installation_keys (name text primary key, secret text not null)`,
    sql`
      create table rule_backtests (
        id uuid primary key,
        store_id uuid not null,
        requested_by text not null,
        status text not null,
        progress real not null default 0,
        result jsonb,
        error text,
        created_at timestamptz not null
      )`,
    sql`create index rule_backtests_store on rule_backtests (store_id, created_at desc)`,
  ),
  // Filings only: a small share of the store's events, so appends barely pay for it.
  '2811_claim_filings_by_shopper': sqlMigration(
    sql`create index events_claim_filed_by_shopper on events ((data->>'shopperKey')) where type = 'ClaimFiled'`,
  ),
};
