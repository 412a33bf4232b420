import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';

/**
 * Back-office identities: users with scrypt password hashes, their role grants (docs/product.md#roles-and-permissions), server-side
 * sessions (only the SHA-256 of the cookie value is stored) and the failed sign-in counters (see loginThrottle.ts).
 */
export const identityMigrations: Record<string, Migration> = {
  '0400_identity': sqlMigration(
    sql`
      create table users (
        id uuid primary key,
        email text not null,
        email_lower text not null unique,
        name text not null,
        password_hash text not null,
        created_at timestamptz not null default now(),
        disabled_at timestamptz
      )`,
    sql`
      create table user_roles (
        id uuid primary key,
        user_id uuid not null references users(id) on delete cascade,
        role text not null,
        account_id uuid references accounts(id) on delete cascade,
        store_id uuid references stores(id) on delete cascade,
        created_at timestamptz not null default now(),
        check (num_nonnulls(account_id, store_id) <= 1)
      )`,
    sql`create index user_roles_user on user_roles (user_id)`,
    sql`
      create table auth_sessions (
        token_hash text primary key,
        user_id uuid not null references users(id) on delete cascade,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        user_agent text
      )`,
    sql`create index auth_sessions_user on auth_sessions (user_id)`,
    sql`
      create table login_attempts (
        email_lower text primary key,
        failures int not null,
        last_failed_at timestamptz not null,
        locked_until timestamptz
      )`,
  ),
  // Sign-in throttling by (email, client), by client and by email across clients: one counter row per key.
  '0750_login_throttle': sqlMigration(
    sql`drop table login_attempts`,
    sql`
      create table login_throttle (
        key text primary key,
        attempts int not null,
        window_started_at timestamptz not null
      )`,
    sql`create index login_throttle_window on login_throttle (window_started_at)`,
    sql`create index auth_sessions_expiry on auth_sessions (expires_at)`,
  ),
};
