import { randomUUID } from 'node:crypto';
import type { Claim, ResolveClaim, ResolveClaimRequest } from '@claims/contracts';
import { actorOf, type Principal } from '../auth/principal.js';

/** The ResolveClaim a caller's request means: one fresh resolution id per line the decision may write. */
export function resolveCommand(claim: Claim, principal: Principal, body: ResolveClaimRequest, now: string): ResolveClaim {
  const lines = body.items?.length ?? claim.items.length;
  return {
    type: 'ResolveClaim', claimId: claim.id, resolutionIds: Array.from({ length: Math.max(1, lines) }, () => randomUUID()),
    actor: actorOf(principal), now, request: body,
  };
}
