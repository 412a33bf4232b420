import { readerOf } from '@claims/contracts';
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { defineProjection } from '../runtime/projection.js';
import { lastBy, recordset, insertNew } from '../runtime/bulkRows.js';

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
  ...readerOf(['store-billing'], {
    InvoiceIssued: 'handle',
    CreditNoteIssued: 'handle',
    BillingMethodSet: 'handle',
    PayoutMethodSet: 'handle',
  }),
  migrations,
  tables: ['invoices', 'invoice_credit_notes', 'store_payment_methods'],
  async applyBatch(trx, events) {
    const invoices: object[] = [];
    const creditNotes: object[] = [];
    const methods: { store_id: string; purpose: string; method: unknown; set_at: string; set_by: string }[] = [];
    for (const event of events) {
      switch (event.type) {
        case 'InvoiceIssued': {
          const d = event.data;
          invoices.push({
            id: d.invoiceId,
            store_id: d.storeId,
            number: d.number,
            month: d.month,
            currency: d.currency,
            rev_share_percent: d.revSharePercent,
            lines: d.lines,
            total: d.total,
            issued_at: d.issuedAt,
            issued_by: d.issuedBy,
          });
          break;
        }
        case 'CreditNoteIssued': {
          const d = event.data;
          creditNotes.push({
            id: d.creditNoteId,
            invoice_id: d.invoiceId,
            store_id: d.storeId,
            number: d.number,
            lines: d.lines,
            total: d.total,
            reason: d.reason,
            issued_at: d.issuedAt,
            issued_by: d.issuedBy,
          });
          break;
        }
        case 'BillingMethodSet':
        case 'PayoutMethodSet': {
          const d = event.data;
          methods.push({
            store_id: d.storeId,
            purpose: event.type === 'BillingMethodSet' ? 'billing' : 'payout',
            method: d.method,
            set_at: d.setAt,
            set_by: d.setBy,
          });
          break;
        }
        default: {
          const exhaustive: never = event;
          return exhaustive;
        }
      }
    }
    await insertNew(
      trx,
      'invoices',
      invoices,
      'id uuid, store_id uuid, number text, month text, currency text, rev_share_percent numeric, lines jsonb, total bigint, issued_at timestamptz, issued_by text',
      ['id'],
    );
    await insertNew(
      trx,
      'invoice_credit_notes',
      creditNotes,
      'id uuid, invoice_id uuid, store_id uuid, number text, lines jsonb, total bigint, reason text, issued_at timestamptz, issued_by text',
      ['id'],
    );
    if (methods.length > 0) {
      await sql`
        insert into store_payment_methods (store_id, purpose, method, set_at, set_by)
        select * from ${recordset(
          lastBy(methods, (m) => `${m.store_id}|${m.purpose}`),
          'store_id uuid, purpose text, method jsonb, set_at timestamptz, set_by text',
        )}
        on conflict (store_id, purpose) do update set method = excluded.method, set_at = excluded.set_at, set_by = excluded.set_by`.execute(
        trx,
      );
    }
  },
});
