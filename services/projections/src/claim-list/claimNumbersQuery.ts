import { sql, type QueryExecutorProvider } from 'kysely';

/**
 * The numbers of the given claims, by claim id, for pages that name claims as people do (finance's payouts and
 * replays). A claim the list has not caught up with yet is absent.
 */
export async function claimNumbers(
  db: QueryExecutorProvider,
  claimIds: Iterable<string>,
): Promise<Map<string, string>> {
  const ids = [...new Set(claimIds)];
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ claim_id: string; claim_number: string }>`
    select claim_id, claim_number from claim_list where claim_id = any(${ids}::uuid[])`.execute(db);
  return new Map(rows.map((r) => [r.claim_id, r.claim_number]));
}
