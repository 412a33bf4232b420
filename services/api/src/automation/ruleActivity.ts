import { toDecimal, type RuleActivityEntry } from '@claims/contracts';
import { ruleActivityRows } from '@claims/projections';
import type { AppContext } from '../context.js';

/** What rules did (live) or would have done (shadow) on a store's claims, newest first: of one rule, or on one claim. */
export async function ruleActivity(
  ctx: AppContext,
  filter: { storeId: string; ruleId?: string; claimId?: string; limit: number },
): Promise<RuleActivityEntry[]> {
  const rows = await ruleActivityRows(ctx.database.db, filter);
  return rows.map((r) => ({
    ruleId: r.rule_id,
    ruleVersion: r.rule_version,
    ruleName: r.rule_name,
    mode: r.mode,
    claimId: r.claim_id,
    claimNumber: r.claim_number,
    action: r.action,
    amount: toDecimal(Number(r.amount), r.currency),
    currency: r.currency,
    at: new Date(r.applied_at).toISOString(),
  }));
}
