import { sql, type QueryExecutorProvider } from 'kysely';
import { DomainFailure, type ClaimStatus, type ClaimType, type RiskLevel } from '@claims/contracts';
import { queryNamedSql } from '@claims/event-store';

export interface ClaimListRow {
  claim_id: string;
  store_id: string;
  claim_number: string;
  status: ClaimStatus;
  claim_type: ClaimType;
  order_id: string;
  source_order_id: string;
  order_number: string;
  customer_email: string;
  customer_name: string;
  protection_status: string;
  requested_resolution: string;
  currency: string;
  claimed_value: number;
  item_count: number;
  message_count: number;
  resolution_type: string | null;
  resolved_at: Date | null;
  created_at: Date;
  updated_at: Date;
  version: number;
  /** As filing assessed it; null only on a row listed before the list carried risk and not backfilled. */
  risk_level: RiskLevel | null;
  risk_score: number | null;
}

export interface ClaimListFilter {
  /** The stores the caller may see; null means every store (internal staff). */
  storeIds: readonly string[] | null;
  status?: readonly ClaimStatus[] | undefined;
  claimType?: ClaimType | undefined;
  protectionStatus?: string | undefined;
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
  search?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

/** Opaque keyset cursor: the (created_at, claim_id) of the last row of a page. */
export const encodeCursor = (row: Pick<ClaimListRow, 'created_at' | 'claim_id'>): string =>
  Buffer.from(`${new Date(row.created_at).toISOString()}|${row.claim_id}`).toString('base64url');

export function decodeCursor(cursor: string): { createdAt: string; claimId: string } | null {
  const [createdAt, claimId] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!createdAt || !claimId || Number.isNaN(Date.parse(createdAt)) || !/^[0-9a-f-]{36}$/i.test(claimId)) return null;
  return { createdAt, claimId };
}

/** One page of the claim list, newest first, by keyset (fast at any depth). */
export async function listClaims(
  db: QueryExecutorProvider,
  filter: ClaimListFilter,
): Promise<{ rows: ClaimListRow[]; nextCursor: string | null }> {
  const after = filter.cursor ? decodeCursor(filter.cursor) : null;
  if (filter.cursor && !after) throw new DomainFailure('validation_failed', 'The cursor is not one this API gave out.');
  const conditions = [sql`true`];
  if (filter.storeIds) conditions.push(sql`store_id = any(${[...filter.storeIds]}::uuid[])`);
  if (filter.status?.length) conditions.push(sql`status = any(${[...filter.status]}::text[])`);
  if (filter.claimType) conditions.push(sql`claim_type = ${filter.claimType}`);
  if (filter.protectionStatus) conditions.push(sql`protection_status = ${filter.protectionStatus}`);
  if (filter.createdFrom) conditions.push(sql`created_at >= ${filter.createdFrom}`);
  if (filter.createdTo) conditions.push(sql`created_at < ${filter.createdTo}`);
  if (filter.search) {
    const term = filter.search.trim().replace(/^#/, '');
    conditions.push(sql`(claim_number = ${term} or order_number = ${term} or lower(customer_email) = lower(${term}))`);
  }
  if (after) conditions.push(sql`(created_at, claim_id) < (${after.createdAt}::timestamptz, ${after.claimId}::uuid)`);
  // Each filter shape is its own named statement: the list's first page is read on every visit and poll.
  const found = await queryNamedSql(
    db,
    'claim_list_page',
    sql<ClaimListRow>`
    select * from claim_list where ${sql.join(conditions, sql` and `)}
    order by created_at desc, claim_id desc
    limit ${filter.limit + 1}`,
  );
  const rows = found.slice(0, filter.limit);
  const last = rows.at(-1);
  return { rows, nextCursor: found.length > filter.limit && last ? encodeCursor(last) : null };
}

export interface IdleCutoff {
  storeId: string;
  status: ClaimStatus;
  /** Claims whose last activity is at or before this time. */
  before: string;
}

/** Claims idle in a status since a cutoff of their store, longest idle first (the SLA timers' candidates). */
export async function idleClaims(
  db: QueryExecutorProvider,
  cutoffs: readonly IdleCutoff[],
  limit: number,
): Promise<Array<{ claimId: string; storeId: string }>> {
  if (cutoffs.length === 0) return [];
  const { rows } = await sql<{ claim_id: string; store_id: string }>`
    select c.claim_id, c.store_id
    from claim_list c
      join unnest(${cutoffs.map((c) => c.storeId)}::uuid[], ${cutoffs.map((c) => c.status)}::text[], ${cutoffs.map((c) => c.before)}::timestamptz[])
        as due(store_id, status, before) on due.store_id = c.store_id and due.status = c.status
    where c.updated_at <= due.before
    order by c.updated_at
    limit ${limit}`.execute(db);
  return rows.map((r) => ({ claimId: r.claim_id, storeId: r.store_id }));
}
