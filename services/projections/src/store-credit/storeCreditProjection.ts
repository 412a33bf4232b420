import { sql, type QueryExecutorProvider } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { defineProjection } from '../runtime/projection.js';

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
};

/** Each customer's store credit per store: the balance and all credit ever issued (minor units of the store's currency). */
export const storeCreditProjection = defineProjection({
  name: 'store-credit',
  handles: ['StoreCreditIssued', 'StoreCreditRedeemed', 'StoreCreditAdjusted'],
  migrations,
  tables: ['store_credit_balances'],
  async apply(trx, event) {
    const d = event.data;
    const change = event.type === 'StoreCreditRedeemed' ? -d.amount : d.amount;
    const issued = event.type === 'StoreCreditIssued' ? d.amount : 0;
    await sql`
      insert into store_credit_balances (store_id, customer_key, customer_email, currency, balance, issued, updated_at)
      values (${d.storeId}, ${d.customerKey}, ${d.customerEmail}, ${d.currency}, ${change}, ${issued}, ${event.occurredAt})
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
export async function storeCreditBalances(db: QueryExecutorProvider, storeId: string): Promise<StoreCreditBalanceRow[]> {
  const { rows } = await sql<{ customer_key: string; customer_email: string; currency: string; balance: number; issued: number; updated_at: Date }>`
    select customer_key, customer_email, currency, balance, issued, updated_at from store_credit_balances
    where store_id = ${storeId}::uuid order by updated_at desc, customer_key`.execute(db);
  return rows.map((r) => ({
    customerKey: r.customer_key, customerEmail: r.customer_email, currency: r.currency, balance: Number(r.balance), issued: Number(r.issued),
    updatedAt: new Date(r.updated_at).toISOString(),
  }));
}
