import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { payoutLinesOf } from '@claims/domain';
import { defineProjection } from '../runtime/projection.js';

const migrations: Record<string, Migration> = {
  '0800_payout_ledger': sqlMigration(
    // A claim's currency, from its filing: a resolution is valued from it into the store's currency.
    sql`create table payout_claims (claim_id uuid primary key, store_id uuid not null, currency text not null)`,
    sql`
      create table payout_entries (
        id uuid primary key,
        store_id uuid not null,
        claim_id uuid not null,
        event_id uuid not null,
        resolution_type text not null,
        amount bigint not null,
        currency text not null,
        status text not null default 'pending',
        decided_at timestamptz not null
      )`,
    sql`create index payout_entries_store_decided on payout_entries (store_id, decided_at)`,
    sql`create index payout_entries_decided on payout_entries (decided_at)`,
  ),
  '0870_premium_entries': sqlMigration(
    // Premiums collected (positive) and reversed (negative), per order and event, in the premium's currency.
    sql`
      create table premium_entries (
        event_id uuid primary key,
        order_id uuid not null,
        store_id uuid not null,
        order_number text not null,
        amount bigint not null,
        currency text not null,
        at timestamptz not null
      )`,
    sql`create index premium_entries_store_at on premium_entries (store_id, at)`,
  ),
  '0830_payout_batches': sqlMigration(
    sql`
      create table payout_batches (
        id uuid primary key,
        store_id uuid not null,
        currency text not null,
        total bigint not null,
        entry_ids uuid[] not null,
        status text not null,
        created_at timestamptz not null,
        created_by text not null,
        approved_at timestamptz,
        approved_by text,
        paid_at timestamptz,
        reference text,
        version bigint not null
      )`,
    sql`create index payout_batches_store on payout_batches (store_id, created_at desc)`,
  ),
  '1200_payout_batches_paid_by': sqlMigration(
    // Who marked a batch paid (null for batches paid before the event recorded it).
    sql`alter table payout_batches add column paid_by text`,
  ),
  '2000_payout_reversals': sqlMigration(
    // The batch holding an entry (its reversal then needs a clawback), and of a clawback the entry it takes back.
    sql`alter table payout_entries add column batch_id uuid, add column reversal_of uuid`,
    sql`update payout_entries e set batch_id = b.id from payout_batches b where e.id = any(b.entry_ids)`,
    sql`create index payout_entries_reversal_of on payout_entries (reversal_of) where reversal_of is not null`,
  ),
};

/**
 * The payout ledger: what each store is owed for its approved resolutions, one entry per resolution
 * line that moves money, valued in the store's currency by the rules recorded with the decision
 * (`payoutLinesOf`, the same function the finance replay runs).
 */
export const payoutLedgerProjection = defineProjection({
  name: 'payout-ledger',
  handles: [
    'ClaimFiled', 'ClaimResolved', 'PayoutBatchCreated', 'PayoutBatchApproved', 'PayoutBatchPaid', 'PremiumRecorded', 'PremiumReversed', 'ClaimResolutionReversed',
  ],
  migrations,
  tables: ['payout_claims', 'payout_entries', 'payout_batches', 'premium_entries'],
  async apply(trx, event) {
    switch (event.type) {
      case 'ClaimFiled':
        await sql`insert into payout_claims (claim_id, store_id, currency) values (${event.data.claimId}, ${event.data.storeId}, ${event.data.currency})
          on conflict (claim_id) do nothing`.execute(trx);
        return;
      case 'ClaimResolved': {
        const { rows } = await sql<{ store_id: string; currency: string }>`select store_id, currency from payout_claims where claim_id = ${event.data.claimId}`.execute(trx);
        const claim = rows[0];
        if (!claim) return;
        for (const line of payoutLinesOf(event.data, claim.currency)) {
          await sql`
            insert into payout_entries (id, store_id, claim_id, event_id, resolution_type, amount, currency, decided_at)
            values (${line.id}, ${claim.store_id}, ${line.claimId}, ${event.eventId}, ${line.resolutionType}, ${line.amount}, ${line.currency}, ${event.occurredAt})
            on conflict (id) do nothing`.execute(trx);
        }
        return;
      }
      // An entry's status follows its batch: approved with it, paid with it (unless it was reversed meanwhile).
      case 'PayoutBatchCreated': {
        const d = event.data;
        await sql`
          insert into payout_batches (id, store_id, currency, total, entry_ids, status, created_at, created_by, version)
          values (${d.batchId}, ${d.storeId}, ${d.currency}, ${d.total}, ${d.entryIds}::uuid[], 'created', ${d.createdAt}, ${d.createdBy}, ${event.streamVersion})
          on conflict (id) do nothing`.execute(trx);
        await sql`update payout_entries set batch_id = ${d.batchId} where id = any(${d.entryIds}::uuid[]) and batch_id is null`.execute(trx);
        return;
      }
      // A reversed line's entry is reversed; one a batch holds already gets a clawback, a pending entry of minus its
      // amount that the next batch nets, because the batch's total (and so the transfer) includes the entry.
      case 'ClaimResolutionReversed':
        for (const { resolutionId, clawbackEntryId } of event.data.lines) {
          const { rows } = await sql<{ batch_id: string | null }>`
            update payout_entries set status = 'reversed'
            where id = ${resolutionId} and status <> 'reversed' and not exists (select 1 from payout_entries where id = ${clawbackEntryId})
            returning batch_id`.execute(trx);
          if (!rows[0]?.batch_id) continue;
          await sql`
            insert into payout_entries (id, store_id, claim_id, event_id, resolution_type, amount, currency, status, decided_at, reversal_of)
            select ${clawbackEntryId}, store_id, claim_id, ${event.eventId}, resolution_type, -amount, currency, 'pending', ${event.occurredAt}, id
            from payout_entries where id = ${resolutionId}
            on conflict (id) do nothing`.execute(trx);
        }
        return;
      case 'PayoutBatchApproved':
        await sql`update payout_batches set status = 'approved', approved_at = ${event.data.approvedAt}, approved_by = ${event.data.approvedBy}, version = ${event.streamVersion}
          where id = ${event.data.batchId}`.execute(trx);
        await sql`update payout_entries set status = 'approved'
          where id = any(select unnest(entry_ids) from payout_batches where id = ${event.data.batchId}) and status <> 'reversed'`.execute(trx);
        return;
      case 'PayoutBatchPaid':
        await sql`update payout_batches set status = 'paid', paid_at = ${event.data.paidAt}, paid_by = ${event.data.paidBy ?? null}, reference = ${event.data.reference},
          version = ${event.streamVersion}
          where id = ${event.data.batchId}`.execute(trx);
        await sql`update payout_entries set status = 'paid'
          where id = any(select unnest(entry_ids) from payout_batches where id = ${event.data.batchId}) and status <> 'reversed'`.execute(trx);
        return;
      case 'PremiumRecorded':
      case 'PremiumReversed': {
        const d = event.data;
        const amount = event.type === 'PremiumRecorded' ? d.premiumPaid : -d.premiumPaid;
        await sql`
          insert into premium_entries (event_id, order_id, store_id, order_number, amount, currency, at)
          values (${event.eventId}, ${d.orderId}, ${d.storeId}, ${d.orderNumber}, ${amount}, ${d.premiumCurrency}, ${event.occurredAt})
          on conflict (event_id) do nothing`.execute(trx);
        return;
      }
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },
});
