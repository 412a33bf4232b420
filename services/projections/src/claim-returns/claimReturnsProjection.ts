import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { defineProjection } from '../runtime/projection.js';

const migrations: Record<string, Migration> = {
  '2100_claim_returns': sqlMigration(
    sql`
      create table claim_returns (
        return_id uuid primary key,
        claim_id uuid not null,
        claim_number text not null,
        store_id uuid not null,
        code text not null,
        status text not null,
        handling text not null,
        reason text not null,
        method text not null,
        item_count integer not null,
        started_at timestamptz not null,
        updated_at timestamptz not null
      )`,
    // The desk's list: a store's returns, newest first, optionally of one status.
    sql`create index claim_returns_store_started on claim_returns (store_id, started_at desc, return_id desc)`,
  ),
};

/** The desk's returns list: one row per return of every claim, in its current status. */
export const claimReturnsProjection = defineProjection({
  name: 'claim-returns',
  handles: ['ReturnStarted', 'ReturnStatusChanged'],
  migrations,
  tables: ['claim_returns'],
  async apply(trx, event) {
    switch (event.type) {
      case 'ReturnStarted': {
        const d = event.data;
        const itemCount = d.items.reduce((sum, i) => sum + i.quantity, 0);
        await sql`
          insert into claim_returns (return_id, claim_id, claim_number, store_id, code, status, handling, reason, method, item_count, started_at, updated_at)
          values (${d.returnId}, ${d.claimId}, ${d.claimNumber}, ${event.storeId}, ${d.code}, ${d.status}, ${d.handling}, ${d.reason}, ${d.method},
                  ${itemCount}, ${d.startedAt}, ${d.startedAt})
          on conflict (return_id) do nothing`.execute(trx);
        return;
      }
      case 'ReturnStatusChanged':
        await sql`update claim_returns set status = ${event.data.to}, updated_at = ${event.data.changedAt} where return_id = ${event.data.returnId}`.execute(trx);
        return;
    }
  },
});
