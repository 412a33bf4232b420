import { randomUUID } from 'node:crypto';
import {
  DEFAULT_MONEY_RULES,
  type Claim,
  type ResolveClaim,
  type ResolveClaimRequest,
  type StoreCapabilities,
  type Valuation,
} from '@claims/contracts';
import type { AppContext } from '../context.js';
import { actorOf, type Principal } from '../http/principal.js';
import { findOrderById } from '../catalog/orderRepository.js';
import { findStore } from '../catalog/storeRepository.js';
import { AppError } from '../platform/errors.js';
import { offeredCreditOf } from '../ab-tests/index.js';

/** What a resolution of this claim is decided with now: the store's capabilities and the money rules it is valued under. */
export async function storeTermsOf(
  ctx: AppContext,
  claim: Claim,
): Promise<{ capabilities: StoreCapabilities; valuation: Valuation }> {
  const [store, order, offered] = await Promise.all([
    findStore(ctx.database.db, claim.storeId),
    findOrderById(ctx.database.db, claim.orderId),
    offeredCreditOf(ctx, claim),
  ]);
  if (!store) throw new AppError('claim_not_found', 'No claim matches that reference.');
  const { capabilities, credit, moneyRules } = store.settings;
  return {
    capabilities,
    valuation: {
      storeCurrency: store.currency,
      exchangeRate: order?.exchangeRate ?? 1,
      rules: { ...DEFAULT_MONEY_RULES, ...moneyRules },
      // An A/B test's variant is what the shopper was promised (docs/decisions/ab-tests.md).
      credit: offered ?? { bonus: credit.bonus, bonusType: credit.bonusType },
    },
  };
}

/**
 * The ResolveClaim a caller's request means: one fresh resolution id per line the decision may write,
 * and the store's terms now, so a type the store does not offer is refused and the money is valued
 * under the rules of the day.
 */
export async function resolveCommand(
  ctx: AppContext,
  claim: Claim,
  principal: Principal,
  body: ResolveClaimRequest,
): Promise<ResolveClaim> {
  const lines = body.items?.length ?? claim.items.length;
  return {
    type: 'ResolveClaim',
    claimId: claim.id,
    resolutionIds: Array.from({ length: Math.max(1, lines) }, () => randomUUID()),
    actor: actorOf(principal),
    now: ctx.now(),
    request: body,
    ...(await storeTermsOf(ctx, claim)),
  };
}
