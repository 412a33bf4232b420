import { sql, type QueryExecutorProvider } from 'kysely';

/**
 * The shopper's claims filed since `since` (by the keyed hash of their email): at this store, and at every other.
 * Read from the event store, not the risk read model: every claim committed before this filing counts, however far
 * the projectors are behind, so a burst of claims by one shopper raises the risk of each after the first
 * (docs/decisions/automation.md "The shopper's history"). Served by `events_claim_filed_by_shopper`.
 */
export async function shopperClaimCounts(
  db: QueryExecutorProvider,
  shopperKey: string,
  storeId: string,
  since: string,
): Promise<{ here: number; elsewhere: number }> {
  const { rows } = await sql<{ here: string; elsewhere: string }>`
    select count(*) filter (where store_id = ${storeId}::uuid) as here,
           count(*) filter (where store_id is distinct from ${storeId}::uuid) as elsewhere
    from events
    where type = 'ClaimFiled' and data->>'shopperKey' = ${shopperKey}
      and (data->>'filedAt')::timestamptz >= ${since}::timestamptz`.execute(db);
  return { here: Number(rows[0]?.here ?? 0), elsewhere: Number(rows[0]?.elsewhere ?? 0) };
}
