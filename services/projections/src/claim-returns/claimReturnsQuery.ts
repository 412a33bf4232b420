import { sql, type QueryExecutorProvider } from 'kysely';
import type { ReturnHandling, ReturnListEntry, ReturnMethod, ReturnReason, ReturnStatus } from '@claims/contracts';

export interface ReturnFilter {
  /** Null: every store's. */
  storeIds: readonly string[] | null;
  status?: ReturnStatus | undefined;
  limit: number;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** Returns of the given stores, newest first. */
export async function returnRows(db: QueryExecutorProvider, filter: ReturnFilter): Promise<ReturnListEntry[]> {
  const storeIds = filter.storeIds ? [...filter.storeIds] : null;
  const { rows } = await sql<{
    return_id: string;
    claim_id: string;
    claim_number: string;
    store_id: string;
    code: string;
    status: ReturnStatus;
    handling: ReturnHandling;
    reason: ReturnReason;
    method: ReturnMethod;
    item_count: number;
    started_at: Date;
    updated_at: Date;
  }>`
    select * from claim_returns
    where (${storeIds}::uuid[] is null or store_id = any(${storeIds}::uuid[]))
      and (${filter.status ?? null}::text is null or status = ${filter.status ?? null})
    order by started_at desc, return_id desc
    limit ${filter.limit}`.execute(db);
  return rows.map((r) => ({
    id: r.return_id,
    claimId: r.claim_id,
    claimNumber: r.claim_number,
    storeId: r.store_id,
    code: r.code,
    status: r.status,
    handling: r.handling,
    reason: r.reason,
    method: r.method,
    itemCount: Number(r.item_count),
    startedAt: iso(r.started_at),
    updatedAt: iso(r.updated_at),
  }));
}
