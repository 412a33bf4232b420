import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';

/** API tokens (only their SHA-256 is kept) and the answers remembered per Idempotency-Key. */
export const publicApiMigrations: Record<string, Migration> = {
  '0410_api_tokens': sqlMigration(
    sql`
      create table api_tokens (
        id uuid primary key,
        store_id uuid not null references stores(id) on delete cascade,
        name text not null,
        token_hash text not null unique,
        prefix text not null,
        permissions jsonb not null,
        created_by uuid not null references users(id),
        created_at timestamptz not null,
        last_used_at timestamptz,
        revoked_at timestamptz
      )`,
    sql`create index api_tokens_store on api_tokens (store_id, created_at desc)`,
  ),
  '0420_idempotency': sqlMigration(
    sql`
      create table idempotency_keys (
        token_id uuid not null references api_tokens(id) on delete cascade,
        key text not null,
        request_hash text not null,
        status_code int,
        content_type text,
        response_body text,
        created_at timestamptz not null default now(),
        completed_at timestamptz,
        primary key (token_id, key)
      )`,
  ),
  // An optional expiry (tokens used to live for ever).
  '0430_api_token_expiry': sqlMigration(sql`alter table api_tokens add column expires_at timestamptz`),
  // Tokens expire by default now: those made to live for ever get the default lifetime from the upgrade on (the token page warns ahead).
  '2650_api_token_default_expiry': sqlMigration(
    sql`update api_tokens set expires_at = now() + interval '90 days' where expires_at is null and revoked_at is null`,
  ),
};
