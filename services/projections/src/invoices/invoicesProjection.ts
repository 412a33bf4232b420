import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { defineProjection } from '../runtime/projection.js';

const migrations: Record<string, Migration> = {
  '1100_invoices': sqlMigration(
    // Amounts in minor units of the invoice's currency; `lines` as the InvoiceIssued event holds them.
    sql`
      create table invoices (
        id uuid primary key,
        store_id uuid not null,
        number text not null,
        month text not null,
        currency text not null,
        rev_share_percent numeric not null,
        lines jsonb not null,
        total bigint not null,
        issued_at timestamptz not null,
        issued_by text not null,
        unique (store_id, month)
      )`,
    sql`create index invoices_month on invoices (month, store_id)`,
    sql`
      create table invoice_credit_notes (
        id uuid primary key,
        invoice_id uuid not null,
        store_id uuid not null,
        number text not null,
        lines jsonb not null,
        total bigint not null,
        reason text not null,
        issued_at timestamptz not null,
        issued_by text not null
      )`,
    sql`create index invoice_credit_notes_invoice on invoice_credit_notes (invoice_id, issued_at)`,
    // Only what the events keep: a kind, a brand or bank or provider, and the last four digits or a reference.
    sql`
      create table store_payment_methods (
        store_id uuid not null,
        purpose text not null,
        method jsonb not null,
        set_at timestamptz not null,
        set_by text not null,
        primary key (store_id, purpose)
      )`,
  ),
};

/** Each store's issued invoices with their credit notes, and its billing and payout methods. */
export const invoicesProjection = defineProjection({
  name: 'invoices',
  handles: ['InvoiceIssued', 'CreditNoteIssued', 'BillingMethodSet', 'PayoutMethodSet'],
  migrations,
  tables: ['invoices', 'invoice_credit_notes', 'store_payment_methods'],
  async apply(trx, event) {
    switch (event.type) {
      case 'InvoiceIssued': {
        const d = event.data;
        await sql`
          insert into invoices (id, store_id, number, month, currency, rev_share_percent, lines, total, issued_at, issued_by)
          values (${d.invoiceId}, ${d.storeId}, ${d.number}, ${d.month}, ${d.currency}, ${d.revSharePercent}, ${JSON.stringify(d.lines)}::jsonb,
                  ${d.total}, ${d.issuedAt}, ${d.issuedBy})
          on conflict (id) do nothing`.execute(trx);
        return;
      }
      case 'CreditNoteIssued': {
        const d = event.data;
        await sql`
          insert into invoice_credit_notes (id, invoice_id, store_id, number, lines, total, reason, issued_at, issued_by)
          values (${d.creditNoteId}, ${d.invoiceId}, ${d.storeId}, ${d.number}, ${JSON.stringify(d.lines)}::jsonb, ${d.total}, ${d.reason},
                  ${d.issuedAt}, ${d.issuedBy})
          on conflict (id) do nothing`.execute(trx);
        return;
      }
      case 'BillingMethodSet':
      case 'PayoutMethodSet': {
        const d = event.data;
        const purpose = event.type === 'BillingMethodSet' ? 'billing' : 'payout';
        await sql`
          insert into store_payment_methods (store_id, purpose, method, set_at, set_by)
          values (${d.storeId}, ${purpose}, ${JSON.stringify(d.method)}::jsonb, ${d.setAt}, ${d.setBy})
          on conflict (store_id, purpose) do update set method = excluded.method, set_at = excluded.set_at, set_by = excluded.set_by`.execute(trx);
        return;
      }
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },
});
