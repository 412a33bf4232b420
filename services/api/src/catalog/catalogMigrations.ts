import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';

/**
 * Accounts, stores and orders are reference data that merchants' platforms send us; they are
 * kept as rows. Everything that happens to a claim is an event.
 */
export const catalogMigrations: Record<string, Migration> = {
  '0010_catalog': sqlMigration(
    sql`create table accounts (id uuid primary key, slug text not null unique, name text not null)`,
    sql`
      create table stores (
        id uuid primary key,
        account_id uuid not null references accounts(id),
        slug text not null unique,
        name text not null,
        domain text unique,
        currency text not null,
        settings jsonb not null,
        branding jsonb not null
      )`,
    sql`
      create table orders (
        id uuid primary key,
        store_id uuid not null references stores(id),
        source_order_id text not null,
        order_number text not null,
        customer_email_lower text not null,
        doc jsonb not null,
        updated_at timestamptz not null default now(),
        unique (store_id, source_order_id)
      )`,
    sql`create index orders_lookup on orders (order_number, customer_email_lower)`,
    sql`create index orders_source on orders (source_order_id)`,
    sql`create sequence claim_number_seq start 10001`,
  ),
  // Stores created in the back-office start inactive (shoppers find none of their orders) until activated after onboarding.
  '2400_store_lifecycle': sqlMigration(
    sql`alter table stores add column active boolean not null default true`,
    sql`alter table stores add column onboarded boolean not null default false`,
    sql`alter table stores add column created_at timestamptz not null default now()`,
  ),
};
