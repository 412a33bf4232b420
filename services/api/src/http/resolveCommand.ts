import { randomUUID } from 'node:crypto';
import type { Claim, ResolveClaim, ResolveClaimRequest } from '@claims/contracts';
import type { AppContext } from '../context.js';
import { actorOf, type Principal } from '../auth/principal.js';
import { findStore } from '../catalog/storeRepository.js';
import { AppError } from '../platform/errors.js';

/**
 * The ResolveClaim a caller's request means: one fresh resolution id per line the decision may write,
 * and the store's capabilities now, so a type the store does not offer is refused by the decider.
 */
export async function resolveCommand(ctx: AppContext, claim: Claim, principal: Principal, body: ResolveClaimRequest): Promise<ResolveClaim> {
  const store = await findStore(ctx.database.db, claim.storeId);
  if (!store) throw new AppError('claim_not_found', 'No claim matches that reference.');
  const lines = body.items?.length ?? claim.items.length;
  return {
    type: 'ResolveClaim', claimId: claim.id, resolutionIds: Array.from({ length: Math.max(1, lines) }, () => randomUUID()),
    actor: actorOf(principal), now: ctx.now(), request: body, capabilities: store.settings.capabilities,
  };
}
