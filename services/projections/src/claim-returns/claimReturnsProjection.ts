import { readerOf, handling, ignoring } from '@claims/contracts';
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { defineProjection } from '../runtime/projection.js';
import { rowFold } from '../runtime/rowFold.js';

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

/** A return's row, begun when it is started and moved by each change of its status. */
const returnRows = rowFold({
  table: 'claim_returns',
  columns: {
    return_id: 'uuid',
    claim_id: 'uuid',
    claim_number: 'text',
    store_id: 'uuid',
    code: 'text',
    status: 'text',
    handling: 'text',
    reason: 'text',
    method: 'text',
    item_count: 'int',
    started_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  key: ['return_id'],
  handles: ['ReturnStarted', 'ReturnStatusChanged'],
  startedBy: ['ReturnStarted'],
  rowKey: (event) => ({ return_id: event.data.returnId }),
  evolve(row, event) {
    switch (event.type) {
      case 'ReturnStarted': {
        const d = event.data;
        // A claim's events always carry its store: one without could not be listed by store.
        if (row || event.storeId === null) return row;
        return {
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
          updated_at: d.startedAt,
        };
      }
      case 'ReturnStatusChanged':
        return row && { ...row, status: event.data.to, updated_at: event.data.changedAt };
    }
  },
});

/** The desk's returns list: one row per return of every claim, in its current status. */
export const claimReturnsProjection = defineProjection({
  name: 'claim-returns',
  ...readerOf(['claim'], {
    ClaimFiled: 'ignore',
    ClaimStatusChanged: 'ignore',
    ClaimAssigned: 'ignore',
    ...handling('returns'),
    ...ignoring('decisions', 'conversation', 'deskMarks'),
  }),
  migrations,
  tables: ['claim_returns'],
  applyBatch: returnRows.applyBatch,
});
