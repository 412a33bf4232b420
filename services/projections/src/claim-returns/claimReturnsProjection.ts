import { readerOf } from '@claims/contracts';
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { defineProjection } from '../runtime/projection.js';
import { recordset } from '../runtime/bulkRows.js';

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
  ...readerOf(['claim'], {
    ClaimFiled: 'ignore',
    ClaimStatusChanged: 'ignore',
    ClaimResolved: 'ignore',
    ClaimMessageSent: 'ignore',
    ClaimReviewed: 'ignore',
    ClaimNoteAdded: 'ignore',
    ClaimLabelAdded: 'ignore',
    ClaimLabelRemoved: 'ignore',
    ClaimMetadataSet: 'ignore',
    ClaimAssigned: 'ignore',
    ReturnStarted: 'handle',
    ReturnStatusChanged: 'handle',
    ClaimResolutionReversed: 'ignore',
  }),
  migrations,
  tables: ['claim_returns'],
  async applyBatch(trx, events) {
    const started: object[] = [];
    // Every move is written after the starts, so a start delivered again never hides a later move.
    const moved = new Map<string, { return_id: string; status: string; updated_at: string }>();
    for (const event of events) {
      switch (event.type) {
        case 'ReturnStarted': {
          const d = event.data;
          started.push({
            return_id: d.returnId,
            claim_id: d.claimId,
            claim_number: d.claimNumber,
            store_id: event.storeId,
            code: d.code,
            status: d.status,
            handling: d.handling,
            reason: d.reason,
            method: d.method,
            item_count: d.items.reduce((sum, i) => sum + i.quantity, 0),
            started_at: d.startedAt,
          });
          break;
        }
        case 'ReturnStatusChanged':
          moved.delete(event.data.returnId);
          moved.set(event.data.returnId, {
            return_id: event.data.returnId,
            status: event.data.to,
            updated_at: event.data.changedAt,
          });
          break;
      }
    }
    if (started.length > 0) {
      await sql`
        insert into claim_returns (return_id, claim_id, claim_number, store_id, code, status, handling, reason, method, item_count, started_at, updated_at)
        select return_id, claim_id, claim_number, store_id, code, status, handling, reason, method, item_count, started_at, started_at
        from ${recordset(
          started,
          `return_id uuid, claim_id uuid, claim_number text, store_id uuid, code text, status text, handling text, reason text,
          method text, item_count int, started_at timestamptz`,
        )}
        on conflict (return_id) do nothing`.execute(trx);
    }
    if (moved.size > 0) {
      await sql`
        update claim_returns c set status = r.status, updated_at = r.updated_at
        from ${recordset([...moved.values()], 'return_id uuid, status text, updated_at timestamptz')} where c.return_id = r.return_id`.execute(
        trx,
      );
    }
  },
});
