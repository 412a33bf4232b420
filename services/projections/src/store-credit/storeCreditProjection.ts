import { sql, type QueryExecutorProvider } from 'kysely';
import { readerOf, type EventOf, type StoreCreditKind } from '@claims/contracts';
import type { LedgerStoreCredit } from '@claims/domain';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { defineProjection } from '../runtime/projection.js';
import { entryOf, recordset, insertNew } from '../runtime/bulkRows.js';

const migrations: Record<string, Migration> = {
  '0840_store_credit_balances': sqlMigration(
    sql`
      create table store_credit_balances (
        store_id uuid not null,
        customer_key text not null,
        customer_email text not null,
        currency text not null,
        balance bigint not null,
        issued bigint not null,
        updated_at timestamptz not null,
        primary key (store_id, customer_key)
      )`,
  ),
  '1500_store_credit_entries': sqlMigration(
    // Each change to a balance, so a finance replay compares store credit event by event.
    sql`
      create table store_credit_entries (
        event_id uuid primary key,
        store_id uuid not null,
        customer_key text not null,
        kind text not null,
        amount bigint not null,
        currency text not null,
        claim_id uuid,
        resolution_id uuid,
        at timestamptz not null
      )`,
    sql`create index store_credit_entries_store_at on store_credit_entries (store_id, at)`,
    // The events the projection applied before this table existed (where the event store shares the database).
    sql`
      do $$ begin
        if to_regclass('events') is not null then
          insert into store_credit_entries (event_id, store_id, customer_key, kind, amount, currency, claim_id, resolution_id, at)
          select e.event_id, (e.data->>'storeId')::uuid, e.data->>'customerKey',
            case e.type when 'StoreCreditIssued' then 'issued' when 'StoreCreditRedeemed' then 'redeemed' else 'adjusted' end,
            case e.type when 'StoreCreditRedeemed' then -(e.data->>'amount')::bigint else (e.data->>'amount')::bigint end,
            e.data->>'currency', (e.data->>'claimId')::uuid, (e.data->>'resolutionId')::uuid, date_trunc('milliseconds', e.occurred_at)
          from events e
          join projection_offsets o on o.projection = 'store-credit' and o.stream_id = e.stream_id and e.stream_version <= o.version
          where e.type in ('StoreCreditIssued', 'StoreCreditRedeemed', 'StoreCreditAdjusted')
          on conflict (event_id) do nothing;
        end if;
      end $$`,
  ),
};

/** What a store-credit event did to the balance, signed. */
function changeOf(
  event: EventOf<'StoreCreditIssued' | 'StoreCreditRedeemed' | 'StoreCreditAdjusted' | 'StoreCreditReclaimed'>,
): { kind: StoreCreditKind; change: number } {
  switch (event.type) {
    case 'StoreCreditIssued':
      return { kind: 'issued', change: event.data.amount };
    case 'StoreCreditRedeemed':
      return { kind: 'redeemed', change: -event.data.amount };
    case 'StoreCreditAdjusted':
      return { kind: 'adjusted', change: event.data.amount };
    case 'StoreCreditReclaimed':
      return { kind: 'reclaimed', change: -event.data.amount };
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
}

/**
 * Each customer's store credit per store: the balance and all credit ever issued, and every change to it as an
 * entry (minor units of the store's currency).
 */
export const storeCreditProjection = defineProjection({
  name: 'store-credit',
  ...readerOf(['store-credit'], {
    StoreCreditIssued: 'handle',
    StoreCreditRedeemed: 'handle',
    StoreCreditAdjusted: 'handle',
    StoreCreditReclaimed: 'handle',
  }),
  migrations,
  tables: ['store_credit_balances', 'store_credit_entries'],
  async applyBatch(trx, events) {
    const entries: object[] = [];
    const balances = new Map<
      string,
      {
        store_id: string;
        customer_key: string;
        customer_email: string;
        currency: string;
        balance: number;
        issued: number;
        updated_at: string;
      }
    >();
    for (const event of events) {
      const d = event.data;
      const { kind, change } = changeOf(event);
      const forClaim = event.type === 'StoreCreditIssued' || event.type === 'StoreCreditReclaimed' ? event.data : null;
      entries.push({
        event_id: event.eventId,
        store_id: d.storeId,
        customer_key: d.customerKey,
        kind,
        amount: change,
        currency: d.currency,
        claim_id: forClaim?.claimId ?? null,
        resolution_id: forClaim?.resolutionId ?? null,
        at: event.occurredAt,
      });
      // A balance keeps the email and currency it was opened with; the batch adds its changes up.
      const balance = entryOf(balances, `${d.storeId}|${d.customerKey}`, () => ({
        store_id: d.storeId,
        customer_key: d.customerKey,
        customer_email: d.customerEmail,
        currency: d.currency,
        balance: 0,
        issued: 0,
        updated_at: event.occurredAt,
      }));
      balance.balance += change;
      if (kind === 'issued') balance.issued += d.amount;
      balance.updated_at = event.occurredAt;
    }
    await insertNew(
      trx,
      'store_credit_entries',
      entries,
      'event_id uuid, store_id uuid, customer_key text, kind text, amount bigint, currency text, claim_id uuid, resolution_id uuid, at timestamptz',
      ['event_id'],
    );
    await sql`
      insert into store_credit_balances (store_id, customer_key, customer_email, currency, balance, issued, updated_at)
      select * from ${recordset([...balances.values()], 'store_id uuid, customer_key text, customer_email text, currency text, balance bigint, issued bigint, updated_at timestamptz')}
      on conflict (store_id, customer_key) do update set balance = store_credit_balances.balance + excluded.balance,
        issued = store_credit_balances.issued + excluded.issued, updated_at = excluded.updated_at`.execute(trx);
  },
});

export interface StoreCreditBalanceRow {
  customerKey: string;
  customerEmail: string;
  currency: string;
  balance: number;
  issued: number;
  updatedAt: string;
}

/** A store's customers with store credit, most recently changed first. */
export async function storeCreditBalances(
  db: QueryExecutorProvider,
  storeId: string,
): Promise<StoreCreditBalanceRow[]> {
  const { rows } = await sql<{
    customer_key: string;
    customer_email: string;
    currency: string;
    balance: number;
    issued: number;
    updated_at: Date;
  }>`
    select customer_key, customer_email, currency, balance, issued, updated_at from store_credit_balances
    where store_id = ${storeId}::uuid order by updated_at desc, customer_key`.execute(db);
  return rows.map((r) => ({
    customerKey: r.customer_key,
    customerEmail: r.customer_email,
    currency: r.currency,
    balance: Number(r.balance),
    issued: Number(r.issued),
    updatedAt: new Date(r.updated_at).toISOString(),
  }));
}

/** An entry of the live credit ledger: the same shape the finance replay's fold gives, so the two compare field by field. */
export type StoreCreditEntryRow = LedgerStoreCredit;

/** Store credit entries of some stores (or all) made in a period, in no particular order (a replay reads them all into a map). */
export async function storeCreditEntries(
  db: QueryExecutorProvider,
  filter: { storeIds?: readonly string[] | undefined; from?: string | undefined; to?: string | undefined },
): Promise<StoreCreditEntryRow[]> {
  const storeIds = filter.storeIds ? [...filter.storeIds] : null;
  const { rows } = await sql<{
    event_id: string;
    store_id: string;
    customer_key: string;
    kind: StoreCreditEntryRow['kind'];
    amount: string;
    currency: string;
    claim_id: string | null;
    resolution_id: string | null;
    at: Date;
  }>`
    select event_id, store_id, customer_key, kind, amount, currency, claim_id, resolution_id, at from store_credit_entries
    where (${storeIds}::uuid[] is null or store_id = any(${storeIds}::uuid[]))
      and (${filter.from ?? null}::timestamptz is null or at >= ${filter.from ?? null}::timestamptz)
      and (${filter.to ?? null}::timestamptz is null or at <= ${filter.to ?? null}::timestamptz)`.execute(db);
  return rows.map((r) => ({
    eventId: r.event_id,
    storeId: r.store_id,
    customerKey: r.customer_key,
    kind: r.kind,
    amount: Number(r.amount),
    currency: r.currency,
    claimId: r.claim_id,
    resolutionId: r.resolution_id,
    at: new Date(r.at).toISOString(),
  }));
}
