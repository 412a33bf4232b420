import {
  previousPeriod,
  ratio,
  toDecimal,
  type AnalyticsFigures,
  type AnalyticsPeriod,
  type AnalyticsResponse,
} from '@claims/contracts';
import { claimAnalytics } from '@claims/projections';
import type { AppContext } from '../context.js';
import { countProtectedOrders } from '../catalog/orderRepository.js';

/** The figures of one period: the claims from the read model, the protected orders from the catalog. */
async function figuresOf(
  ctx: AppContext,
  storeIds: readonly string[] | null,
  period: AnalyticsPeriod,
): Promise<AnalyticsFigures> {
  const filter = { storeIds, ...period };
  const claims = await claimAnalytics(ctx.database.db, filter);
  const protectedOrders = await countProtectedOrders(ctx.database.db, filter);
  return {
    ...claims,
    protectedOrders,
    claimRate: ratio(claims.protectedClaims, protectedOrders),
    reimbursed: claims.reimbursed.map((r) => ({ ...r, amount: toDecimal(r.amount, r.currency) })),
    storeCreditIssued: claims.storeCreditIssued.map((r) => ({ ...r, amount: toDecimal(r.amount, r.currency) })),
  };
}

/** The period's figures and, when asked, the previous period's of the same length. */
export async function analyticsOf(
  ctx: AppContext,
  storeIds: readonly string[] | null,
  period: AnalyticsPeriod,
  comparePrevious: boolean,
): Promise<AnalyticsResponse> {
  const figures = await figuresOf(ctx, storeIds, period);
  if (!comparePrevious) return { period, figures, previous: null };
  const before = previousPeriod(period);
  return { period, figures, previous: { period: before, figures: await figuresOf(ctx, storeIds, before) } };
}
