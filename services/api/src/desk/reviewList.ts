import { sql, type QueryExecutorProvider } from 'kysely';

export interface ReviewRow {
  review_id: string;
  claim_id: string;
  claim_number: string;
  store_id: string;
  customer_name: string;
  rating: number;
  text: string;
  created_at: Date;
}

/**
 * The newest reviews of some stores (null: every store), optionally of one rating; at most `limit`. The desk's list
 * joins two read models, the reviews and the claim list (its number, store and shopper): composing read models for a
 * screen is the API's job, so no projection reads another's table (docs/decisions/read-models-composed-in-the-api.md).
 */
export async function reviewRows(
  db: QueryExecutorProvider,
  filter: { storeIds: readonly string[] | null; rating?: number | undefined; limit: number },
): Promise<ReviewRow[]> {
  const storeIds = filter.storeIds ? [...filter.storeIds] : null;
  const { rows } = await sql<ReviewRow>`
    select r.review_id, r.claim_id, l.claim_number, l.store_id, l.customer_name, r.rating, r.text, r.created_at
    from claim_reviews r join claim_list l on l.claim_id = r.claim_id
    where (${storeIds}::uuid[] is null or l.store_id = any(${storeIds}::uuid[]))
      and (${filter.rating ?? null}::smallint is null or r.rating = ${filter.rating ?? null}::smallint)
    order by r.created_at desc, r.review_id desc
    limit ${filter.limit}`.execute(db);
  return rows;
}
