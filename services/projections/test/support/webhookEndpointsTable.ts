import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The API's `webhook_endpoints` (its migrations 0500 and 0530; 0500 also ties it to `stores`), as far as the webhook
 * outbox reads it: what a projection test adds when the outbox is among its projections.
 */
export const webhookEndpointsTable: Record<string, Migration> = {
  '0500_webhook_endpoints': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table webhook_endpoints (
          id uuid primary key, store_id uuid not null, url text not null, secret text not null, event_types text[],
          created_at timestamptz not null, deleted_at timestamptz,
          previous_secret text, previous_secret_expires_at timestamptz, status text not null default 'enabled'
        )`.execute(db);
    },
  },
};
