import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { lineValue, protectionStatus, requestedResolution } from '@claims/domain';
import { defineProjection } from '../runtime/projection.js';

const migrations: Record<string, Migration> = {
  '0200_claim_list': sqlMigration(
    sql`
      create table claim_list (
        claim_id uuid primary key,
        store_id uuid not null,
        claim_number text not null,
        status text not null,
        claim_type text not null,
        order_id uuid not null,
        source_order_id text not null,
        order_number text not null,
        customer_email text not null,
        customer_name text not null,
        protection_status text not null,
        requested_resolution text not null,
        currency text not null,
        claimed_value bigint not null,
        item_count int not null,
        message_count int not null default 0,
        resolution_type text,
        resolved_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        version bigint not null
      )`,
    // Keyset pagination walks (created_at desc, claim_id desc) inside a store, optionally by status.
    sql`create index claim_list_store_created on claim_list (store_id, created_at desc, claim_id desc)`,
    sql`create index claim_list_store_status_created on claim_list (store_id, status, created_at desc, claim_id desc)`,
    sql`create index claim_list_created on claim_list (created_at desc, claim_id desc)`,
    sql`create index claim_list_number on claim_list (claim_number)`,
    sql`create index claim_list_order_number on claim_list (order_number)`,
    sql`create index claim_list_email on claim_list (lower(customer_email))`,
  ),
  // A rare type filter otherwise walks the created_at index discarding ~80k rows a page at 1M claims
  // (first page 95 ms -> 8.5 ms in SQL, docs/benchmarks.md).
  '0210_claim_list_by_type': sqlMigration(
    sql`create index claim_list_type_created on claim_list (claim_type, created_at desc, claim_id desc)`,
  ),
  // The queue sorted by claimed value, both ways (a backward scan serves ascending), keyset like the rest.
  '1820_claim_list_by_value': sqlMigration(
    sql`create index claim_list_store_value on claim_list (store_id, claimed_value desc, claim_id desc)`,
    sql`create index claim_list_value on claim_list (claimed_value desc, claim_id desc)`,
  ),
};

/** The claim desk's queue: one row per claim, kept current by the claim's events. */
export const claimListProjection = defineProjection({
  name: 'claim-list',
  handles: ['ClaimFiled', 'ClaimStatusChanged', 'ClaimResolved', 'ClaimMessageSent', 'ClaimNoteAdded', 'ClaimLabelAdded', 'ClaimLabelRemoved', 'ClaimMetadataSet', 'ClaimAssigned'],
  migrations,
  tables: ['claim_list'],
  async apply(trx, event) {
    switch (event.type) {
      case 'ClaimFiled': {
        const d = event.data;
        await sql`
          insert into claim_list (claim_id, store_id, claim_number, status, claim_type, order_id, source_order_id, order_number,
            customer_email, customer_name, protection_status, requested_resolution, currency, claimed_value, item_count,
            created_at, updated_at, version)
          values (${d.claimId}, ${d.storeId}, ${d.claimNumber}, 'NEW', ${d.claimType}, ${d.orderId}, ${d.sourceOrderId}, ${d.orderNumber},
            ${d.customer.email}, ${d.customer.name}, ${protectionStatus({ isOta: d.isOta, policy: d.policy })},
            ${requestedResolution(d.items)}, ${d.currency}, ${d.items.reduce((sum, i) => sum + lineValue(i, i.quantity), 0)},
            ${d.items.length}, ${d.filedAt}, ${event.occurredAt}, ${event.streamVersion})
          on conflict (claim_id) do nothing`.execute(trx);
        return;
      }
      case 'ClaimStatusChanged':
        await sql`update claim_list set status = ${event.data.to}, updated_at = ${event.occurredAt}, version = ${event.streamVersion}
          where claim_id = ${event.data.claimId}`.execute(trx);
        return;
      // Items may be decided in several passes: the first decision names the row's resolution type, the
      // last (the one that leaves the claim Resolved or Denied) its resolution time.
      case 'ClaimResolved':
        await sql`update claim_list set status = ${event.data.status},
          resolution_type = coalesce(resolution_type, ${event.data.resolutions[0]!.resolutionType}),
          resolved_at = case when ${event.data.status} in ('RESOLVED', 'DENIED') then ${event.occurredAt}::timestamptz else resolved_at end,
          updated_at = ${event.occurredAt}, version = ${event.streamVersion}
          where claim_id = ${event.data.claimId}`.execute(trx);
        return;
      case 'ClaimMessageSent':
        await sql`update claim_list set message_count = message_count + 1, updated_at = ${event.occurredAt}, version = ${event.streamVersion}
          where claim_id = ${event.data.claimId}`.execute(trx);
        return;
      // The back-office's own marks move the row's version (so a list's expectedVersion stays exact), not its
      // updated_at: that is the claim's last activity, which the SLA timers count from (docs/decisions.md).
      case 'ClaimNoteAdded':
      case 'ClaimLabelAdded':
      case 'ClaimLabelRemoved':
      case 'ClaimMetadataSet':
      case 'ClaimAssigned':
        await sql`update claim_list set version = ${event.streamVersion} where claim_id = ${event.data.claimId}`.execute(trx);
        return;
    }
  },
});
