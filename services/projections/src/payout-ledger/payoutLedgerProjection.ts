import { readerOf, handling, ignoring } from '@claims/contracts';
import { sql, type QueryExecutorProvider } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { payoutLinesOf } from '@claims/domain';
import { defineProjection, type ProjectedEvent } from '../runtime/projection.js';
import { entryOf, recordset, insertNew } from '../runtime/bulkRows.js';

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
  ...readerOf(['claim', 'store-payouts', 'order-premium'], {
    ClaimFiled: 'handle',
    ClaimStatusChanged: 'ignore',
    ClaimAssigned: 'ignore',
    PayoutBatchCreated: 'handle',
    PayoutBatchApproved: 'handle',
    PayoutBatchPaid: 'handle',
    PremiumRecorded: 'handle',
    PremiumReversed: 'handle',
    ...handling('decisions'),
    ...ignoring('conversation', 'deskMarks', 'returns'),
  }),
  migrations,
  tables: ['payout_claims', 'payout_entries', 'payout_batches', 'premium_entries'],
  async applyBatch(trx, events) {
    let claims: object[] = [];
    let resolutions: ProjectedEvent<'ClaimResolved'>[] = [];
    let batches: object[] = [];
    let batchChanges = new Map<string, BatchChange>();
    let premiums: object[] = [];
    const flush = async () => {
      await insertNew(trx, 'payout_claims', claims, 'claim_id uuid, store_id uuid, currency text', ['claim_id']);
      if (resolutions.length > 0) await writeEntries(trx, resolutions);
      if (batches.length > 0) {
        await sql`
          insert into payout_batches (id, store_id, currency, total, entry_ids, status, created_at, created_by, version)
          select id, store_id, currency, total, entry_ids, 'created', created_at, created_by, version
          from ${recordset(batches, 'id uuid, store_id uuid, currency text, total bigint, entry_ids uuid[], created_at timestamptz, created_by text, version bigint')}
          on conflict (id) do nothing`.execute(trx);
        await sql`
          update payout_entries e set batch_id = r.id from ${recordset(batches, 'id uuid, entry_ids uuid[]')}
          where e.id = any(r.entry_ids) and e.batch_id is null`.execute(trx);
      }
      if (batchChanges.size > 0) {
        // An entry's status follows its batch: approved with it, paid with it (unless it was reversed meanwhile).
        await sql`
          with moved as (
            update payout_batches b set status = r.status,
              approved_at = case when r.approved then r.approved_at else b.approved_at end, approved_by = case when r.approved then r.approved_by else b.approved_by end,
              paid_at = case when r.paid then r.paid_at else b.paid_at end, paid_by = case when r.paid then r.paid_by else b.paid_by end,
              reference = case when r.paid then r.reference else b.reference end, version = r.version
            from ${recordset(
              [...batchChanges.values()],
              `batch_id uuid, status text, approved boolean, approved_at timestamptz, approved_by text, paid boolean,
              paid_at timestamptz, paid_by text, reference text, version bigint`,
            )}
            where b.id = r.batch_id
            returning b.entry_ids, r.status)
          update payout_entries e set status = moved.status from moved where e.id = any(moved.entry_ids) and e.status <> 'reversed'`.execute(
          trx,
        );
      }
      await insertNew(
        trx,
        'premium_entries',
        premiums,
        'event_id uuid, order_id uuid, store_id uuid, order_number text, amount bigint, currency text, at timestamptz',
        ['event_id'],
      );
      claims = [];
      resolutions = [];
      batches = [];
      batchChanges = new Map();
      premiums = [];
    };
    for (const event of events) {
      switch (event.type) {
        case 'ClaimFiled':
          claims.push({ claim_id: event.data.claimId, store_id: event.data.storeId, currency: event.data.currency });
          break;
        case 'ClaimResolved':
          resolutions.push(event);
          break;
        case 'PayoutBatchCreated': {
          const d = event.data;
          batches.push({
            id: d.batchId,
            store_id: d.storeId,
            currency: d.currency,
            total: d.total,
            entry_ids: d.entryIds,
            created_at: d.createdAt,
            created_by: d.createdBy,
            version: event.streamVersion,
          });
          break;
        }
        case 'PayoutBatchApproved':
          Object.assign(batchChangeOf(batchChanges, event.data.batchId), {
            status: 'approved',
            approved: true,
            approved_at: event.data.approvedAt,
            approved_by: event.data.approvedBy,
            version: event.streamVersion,
          });
          break;
        case 'PayoutBatchPaid':
          Object.assign(batchChangeOf(batchChanges, event.data.batchId), {
            status: 'paid',
            paid: true,
            paid_at: event.data.paidAt,
            paid_by: event.data.paidBy ?? null,
            reference: event.data.reference,
            version: event.streamVersion,
          });
          break;
        // Rare, and it depends on whether a batch already holds the entry: what came before it is written first.
        case 'ClaimResolutionReversed':
          await flush();
          await reverseEntries(trx, event);
          break;
        case 'PremiumRecorded':
        case 'PremiumReversed': {
          const d = event.data;
          const amount = event.type === 'PremiumRecorded' ? d.premiumPaid : -d.premiumPaid;
          premiums.push({
            event_id: event.eventId,
            order_id: d.orderId,
            store_id: d.storeId,
            order_number: d.orderNumber,
            amount,
            currency: d.premiumCurrency,
            at: event.occurredAt,
          });
          break;
        }
        default: {
          const exhaustive: never = event;
          return exhaustive;
        }
      }
    }
    await flush();
  },
});

/** What a batch's approvals and payments do to one payout batch, folded in their order. */
interface BatchChange {
  batch_id: string;
  status: string;
  approved: boolean;
  approved_at: string | null;
  approved_by: string | null;
  paid: boolean;
  paid_at: string | null;
  paid_by: string | null;
  reference: string | null;
  version: number;
}

const batchChangeOf = (changes: Map<string, BatchChange>, batchId: string) =>
  entryOf(changes, batchId, () => ({
    batch_id: batchId,
    status: 'created',
    approved: false,
    approved_at: null,
    approved_by: null,
    paid: false,
    paid_at: null,
    paid_by: null,
    reference: null,
    version: 0,
  }));

/** One entry per line of each decision that moves money, for claims the ledger knows (their currency values it). */
async function writeEntries(
  trx: QueryExecutorProvider,
  resolutions: readonly ProjectedEvent<'ClaimResolved'>[],
): Promise<void> {
  const claimIds = [...new Set(resolutions.map((e) => e.data.claimId))];
  const { rows } = await sql<{ claim_id: string; store_id: string; currency: string }>`
    select claim_id, store_id, currency from payout_claims where claim_id = any(${claimIds}::uuid[])`.execute(trx);
  const claims = new Map(rows.map((r) => [r.claim_id, r]));
  const entries = resolutions.flatMap((event) => {
    const claim = claims.get(event.data.claimId);
    if (!claim) return [];
    return payoutLinesOf(event.data, claim.currency).map((line) => ({
      id: line.id,
      store_id: claim.store_id,
      claim_id: line.claimId,
      event_id: event.eventId,
      resolution_type: line.resolutionType,
      amount: line.amount,
      currency: line.currency,
      decided_at: event.occurredAt,
    }));
  });
  await insertNew(
    trx,
    'payout_entries',
    entries,
    'id uuid, store_id uuid, claim_id uuid, event_id uuid, resolution_type text, amount bigint, currency text, decided_at timestamptz',
    ['id'],
  );
}

/**
 * A reversed line's entry is reversed; one a batch holds already gets a clawback, a pending entry of minus its
 * amount that the next batch nets, because the batch's total (and so the transfer) includes the entry.
 */
async function reverseEntries(
  trx: QueryExecutorProvider,
  event: ProjectedEvent<'ClaimResolutionReversed'>,
): Promise<void> {
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
}
