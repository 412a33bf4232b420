import { sql, type QueryExecutorProvider } from 'kysely';

export interface AbVariantCounts {
  variantId: string;
  sessions: number;
  /** Claims filed by the variant's sessions, per resolution chosen. */
  claimsByResolution: Record<string, number>;
}

/** Per variant of a test: sessions assigned and claims filed by resolution (a variant with none is absent). */
export async function abTestCounts(db: QueryExecutorProvider, testId: string): Promise<Map<string, AbVariantCounts>> {
  const sessions = await sql<{ variant_id: string; sessions: string }>`
    select variant_id, count(*)::text as sessions from ab_test_assignments where test_id = ${testId} group by variant_id`.execute(
    db,
  );
  const claims = await sql<{ variant_id: string; resolution: string; claims: string }>`
    select a.variant_id, c.resolution, count(*)::text as claims
    from ab_test_assignments a join ab_test_filed_claims c on c.order_id = a.order_id and c.store_id = a.store_id
    where a.test_id = ${testId} group by a.variant_id, c.resolution`.execute(db);
  const counts = new Map<string, AbVariantCounts>();
  const of = (variantId: string) =>
    counts.get(variantId) ?? counts.set(variantId, { variantId, sessions: 0, claimsByResolution: {} }).get(variantId)!;
  for (const row of sessions.rows) of(row.variant_id).sessions = Number(row.sessions);
  for (const row of claims.rows) of(row.variant_id).claimsByResolution[row.resolution] = Number(row.claims);
  return counts;
}
