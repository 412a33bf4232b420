import { sql, type QueryExecutorProvider } from 'kysely';
import type { PayoutStatus, ResolutionType } from '@claims/contracts';

export interface PayoutEntryRow {
  id: string;
  storeId: string;
  claimId: string;
  eventId: string;
  resolutionType: ResolutionType;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  status: PayoutStatus;
  decidedAt: string;
}

export interface PayoutFilter {
  storeIds?: readonly string[] | undefined;
  /** Decided at or after. */
  from?: string | undefined;
  /** Decided at or before. */
  to?: string | undefined;
}

/** The ledger's entries decided in a period, for some stores or all, in decision order. */
export async function payoutEntries(db: QueryExecutorProvider, filter: PayoutFilter): Promise<PayoutEntryRow[]> {
  const storeIds = filter.storeIds ? [...filter.storeIds] : null;
  const { rows } = await sql<{ id: string; store_id: string; claim_id: string; event_id: string; resolution_type: ResolutionType; amount: number; currency: string; status: PayoutStatus; decided_at: Date }>`
    select id, store_id, claim_id, event_id, resolution_type, amount, currency, status, decided_at from payout_entries
    where (${storeIds}::uuid[] is null or store_id = any(${storeIds}::uuid[]))
      and (${filter.from ?? null}::timestamptz is null or decided_at >= ${filter.from ?? null}::timestamptz)
      and (${filter.to ?? null}::timestamptz is null or decided_at <= ${filter.to ?? null}::timestamptz)
    order by decided_at, id`.execute(db);
  return rows.map((r) => ({
    id: r.id, storeId: r.store_id, claimId: r.claim_id, eventId: r.event_id, resolutionType: r.resolution_type,
    amount: Number(r.amount), currency: r.currency, status: r.status, decidedAt: new Date(r.decided_at).toISOString(),
  }));
}
