import { sql, type QueryExecutorProvider } from 'kysely';

/** Claims a store needs before its usual claim is said (fewer, and one claim would be the norm). */
const USUAL_CLAIM_SAMPLE_MIN = 5;
const USUAL_CLAIM_SAMPLE = 200;

/** The median value (minor units) of the store's latest claims in its currency; null below a few claims. */
export async function storeUsualClaim(
  db: QueryExecutorProvider,
  storeId: string,
  currency: string,
): Promise<number | null> {
  const { rows } = await sql<{ median: string | null; claims: string }>`
    select percentile_disc(0.5) within group (order by claim_value) as median, count(*) as claims
    from (select claim_value from claim_risk where store_id = ${storeId}::uuid and store_currency = ${currency}
          order by filed_at desc limit ${USUAL_CLAIM_SAMPLE}) recent`.execute(db);
  const row = rows[0];
  return row && Number(row.claims) >= USUAL_CLAIM_SAMPLE_MIN && row.median !== null ? Number(row.median) : null;
}

export interface RuleActivityRow {
  rule_id: string;
  claim_id: string;
  mode: 'live' | 'shadow';
  rule_version: number;
  rule_name: string;
  claim_number: string;
  action: 'approve' | 'deny' | 'hold';
  amount: string;
  currency: string;
  applied_at: Date;
}

/** What rules did (or would have) on a store's claims, newest first: of one rule, or on one claim. */
export async function ruleActivityRows(
  db: QueryExecutorProvider,
  filter: { storeId: string; ruleId?: string; claimId?: string; limit: number },
): Promise<RuleActivityRow[]> {
  const { rows } = await sql<RuleActivityRow>`
    select rule_id, claim_id, mode, rule_version, rule_name, claim_number, action, amount, currency, applied_at
    from rule_activity
    where store_id = ${filter.storeId}::uuid
      and (${filter.ruleId ?? null}::uuid is null or rule_id = ${filter.ruleId ?? null}::uuid)
      and (${filter.claimId ?? null}::uuid is null or claim_id = ${filter.claimId ?? null}::uuid)
    order by applied_at desc limit ${filter.limit}`.execute(db);
  return rows;
}
