import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Webhook endpoints (0500) and every delivery attempt (0520). The deliveries between them are the
 * `webhook-outbox` projection's table (0510_webhook_deliveries, in @claims/projections).
 */
export const webhookMigrations: Record<string, Migration> = {
  '0500_webhook_endpoints': {
    async up(db: Kysely<unknown>) {
      await sql`
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
        )`.execute(db);
      await sql`create index webhook_endpoints_store on webhook_endpoints (store_id) where deleted_at is null`.execute(db);
    },
  },
  '0520_webhook_delivery_attempts': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table webhook_delivery_attempts (
          id uuid primary key,
          delivery_id uuid not null references webhook_deliveries(id) on delete cascade,
          endpoint_id uuid not null,
          attempt int not null,
          replay boolean not null,
          attempted_at timestamptz not null,
          status_code int,
          error text,
          succeeded boolean not null,
          duration_ms int not null
        )`.execute(db);
      await sql`create index webhook_attempts_endpoint on webhook_delivery_attempts (endpoint_id, attempted_at desc, id desc)`.execute(db);
      await sql`create index webhook_attempts_delivery on webhook_delivery_attempts (delivery_id, attempt)`.execute(db);
    },
  },
  // Secret rotation with an overlap, and endpoints a receiver (410) or the merchant turned off.
  '0530_webhook_endpoint_life_cycle': {
    async up(db: Kysely<unknown>) {
      await sql`alter table webhook_endpoints
        add column previous_secret text,
        add column previous_secret_expires_at timestamptz,
        add column status text not null default 'enabled',
        add column disabled_reason text,
        add column disabled_at timestamptz`.execute(db);
    },
  },
};
