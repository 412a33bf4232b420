import { sql, type QueryExecutorProvider } from 'kysely';
import type { CreditNoteLine, InvoiceLine, PaymentMethod, PaymentMethodPurpose } from '@claims/contracts';

/** Amounts in minor units of the invoice's currency. */
export interface CreditNoteRow {
  id: string;
  invoiceId: string;
  number: string;
  lines: CreditNoteLine[];
  total: number;
  reason: string;
  issuedAt: string;
  issuedBy: string;
}

export interface InvoiceRow {
  id: string;
  storeId: string;
  number: string;
  month: string;
  currency: string;
  revSharePercent: number;
  lines: InvoiceLine[];
  total: number;
  issuedAt: string;
  issuedBy: string;
  /** Oldest first. */
  creditNotes: CreditNoteRow[];
}

export interface InvoiceFilter {
  /** Null: every store's. */
  storeIds: readonly string[] | null;
  month?: string | undefined;
  invoiceId?: string | undefined;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** Issued invoices with their credit notes, newest month first. */
export async function invoiceRows(db: QueryExecutorProvider, filter: InvoiceFilter): Promise<InvoiceRow[]> {
  const storeIds = filter.storeIds ? [...filter.storeIds] : null;
  const { rows } = await sql<{
    id: string;
    store_id: string;
    number: string;
    month: string;
    currency: string;
    rev_share_percent: string;
    lines: InvoiceLine[];
    total: string;
    issued_at: Date;
    issued_by: string;
    notes: Array<{
      id: string;
      number: string;
      lines: CreditNoteLine[];
      total: number;
      reason: string;
      issued_at: string;
      issued_by: string;
    }>;
  }>`
    select i.*, coalesce((
      select jsonb_agg(jsonb_build_object('id', n.id, 'number', n.number, 'lines', n.lines, 'total', n.total, 'reason', n.reason,
                                          'issued_at', n.issued_at, 'issued_by', n.issued_by) order by n.issued_at, n.number)
      from invoice_credit_notes n where n.invoice_id = i.id), '[]'::jsonb) as notes
    from invoices i
    where (${storeIds}::uuid[] is null or i.store_id = any(${storeIds}::uuid[]))
      and (${filter.month ?? null}::text is null or i.month = ${filter.month ?? null})
      and (${filter.invoiceId ?? null}::uuid is null or i.id = ${filter.invoiceId ?? null}::uuid)
    order by i.month desc, i.number`.execute(db);
  return rows.map((r) => ({
    id: r.id,
    storeId: r.store_id,
    number: r.number,
    month: r.month,
    currency: r.currency,
    revSharePercent: Number(r.rev_share_percent),
    lines: r.lines,
    total: Number(r.total),
    issuedAt: iso(r.issued_at),
    issuedBy: r.issued_by,
    creditNotes: r.notes.map((n) => ({
      id: n.id,
      invoiceId: r.id,
      number: n.number,
      lines: n.lines,
      total: Number(n.total),
      reason: n.reason,
      issuedAt: iso(n.issued_at),
      issuedBy: n.issued_by,
    })),
  }));
}

export interface PaymentMethodRow {
  method: PaymentMethod;
  setAt: string;
  setBy: string;
}

/** A store's billing and payout methods, each null until one is set. */
export async function paymentMethodRows(
  db: QueryExecutorProvider,
  storeId: string,
): Promise<Record<PaymentMethodPurpose, PaymentMethodRow | null>> {
  const { rows } = await sql<{ purpose: PaymentMethodPurpose; method: PaymentMethod; set_at: Date; set_by: string }>`
    select purpose, method, set_at, set_by from store_payment_methods where store_id = ${storeId}::uuid`.execute(db);
  const of = (purpose: PaymentMethodPurpose) => {
    const row = rows.find((r) => r.purpose === purpose);
    return row ? { method: row.method, setAt: iso(row.set_at), setBy: row.set_by } : null;
  };
  return { billing: of('billing'), payout: of('payout') };
}
