import { sql, type QueryExecutorProvider } from 'kysely';
import type { ClaimListRow } from './claimListQuery.js';

/** Most of a shopper's other claims the desk lists; a longer history is rare and its count is the flag. */
const HISTORY_LIMIT = 50;

/**
 * A shopper's claims (same email, case-insensitively) in the given stores (null: every store), newest first,
 * and how many were filed since `since`. Served by the `lower(customer_email)` index.
 */
export async function customerClaimHistory(
  db: QueryExecutorProvider,
  email: string,
  storeIds: readonly string[] | null,
  since: string,
): Promise<{ rows: ClaimListRow[]; recent: number }> {
  const inStores = storeIds ? sql`and store_id = any(${[...storeIds]}::uuid[])` : sql``;
  const [history, recent] = await Promise.all([
    sql<ClaimListRow>`
      select * from claim_list where lower(customer_email) = lower(${email}) ${inStores}
      order by created_at desc, claim_id desc limit ${HISTORY_LIMIT}`.execute(db),
    sql<{ count: string }>`
      select count(*)::text as count from claim_list
      where lower(customer_email) = lower(${email}) ${inStores} and created_at >= ${since}::timestamptz`.execute(db),
  ]);
  return { rows: history.rows, recent: Number(recent.rows[0]?.count ?? 0) };
}

/** The claims of the given orders (a photo uploaded against an order belongs to one of its claims). */
export async function claimsOfOrders(
  db: QueryExecutorProvider,
  orderIds: readonly string[],
): Promise<Array<Pick<ClaimListRow, 'claim_id' | 'store_id'>>> {
  if (orderIds.length === 0) return [];
  const { rows } = await sql<Pick<ClaimListRow, 'claim_id' | 'store_id'>>`
    select claim_id, store_id from claim_list where order_id = any(${[...orderIds]}::uuid[])`.execute(db);
  return rows;
}
