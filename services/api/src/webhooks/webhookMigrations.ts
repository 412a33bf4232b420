import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';

/**
 * Webhook endpoints (0500, 0530, 1300). The deliveries and their attempts are the `webhook-outbox` projection's
 * tables (0510_webhook_deliveries and 0520_webhook_delivery_attempts, in @claims/projections).
 */
export const webhookMigrations: Record<string, Migration> = {
  '0500_webhook_endpoints': sqlMigration(
    sql`
      create table webhook_endpoints (
        id uuid primary key,
        store_id uuid not null references stores(id) on delete cascade,
        url text not null,
        -- The signing key must be readable to sign; it is shown to the merchant once, at creation.
        secret text not null,
        event_types text[],
        created_by_token uuid,
        created_at timestamptz not null,
        deleted_at timestamptz
      )`,
    sql`create index webhook_endpoints_store on webhook_endpoints (store_id) where deleted_at is null`,
  ),
  // Secret rotation with an overlap, and endpoints a receiver (410) or the merchant turned off.
  '0530_webhook_endpoint_life_cycle': sqlMigration(
    sql`alter table webhook_endpoints
      add column previous_secret text,
      add column previous_secret_expires_at timestamptz,
      add column status text not null default 'enabled',
      add column disabled_reason text,
      add column disabled_at timestamptz`,
  ),
  // The back-office's description, and the first failure of the endpoint's current run of failures.
  '1300_webhook_endpoint_health': sqlMigration(
    sql`alter table webhook_endpoints add column description text, add column failing_since timestamptz`,
  ),
};
