import type { Claim, ClaimCommand } from '@claims/contracts';
import { claimDecider } from '@claims/domain';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { handleCommand, type Handled } from '../eventsourcing/commandHandler.js';
import type { LoadedClaim } from './authorizedClaim.js';
import { metaOf } from './requestMeta.js';

/**
 * One command on a claim this request loaded and authorized (authorizedClaim), as the request's principal: the first
 * attempt decides on the claim as loaded, and `expectedVersion` is the version the caller saw (a stale one is a 409).
 */
export function handleClaimCommand(
  ctx: AppContext,
  request: FastifyRequest,
  loaded: LoadedClaim,
  command: ClaimCommand,
  expectedVersion?: number,
): Promise<Handled<Claim | null>> {
  return handleCommand(ctx, {
    decider: claimDecider,
    streamId: loaded.state.id,
    storeId: loaded.state.storeId,
    loaded,
    meta: metaOf(request.requirePrincipal(), request.id),
    command,
    expectedVersion,
  });
}
