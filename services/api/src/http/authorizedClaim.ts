import type { Claim, Permission } from '@claims/contracts';
import { claimDecider } from '@claims/domain';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { StreamRead } from '@claims/event-store';
import { foldStream, loadAggregate, type Loaded } from '../eventsourcing/commandHandler.js';
import { AppError } from '../platform/errors.js';

export const claimNotFound = () => new AppError('claim_not_found', 'No claim matches that reference.');

export type LoadedClaim = Loaded<Claim>;

/** A claim from its stream, or null when there is none (optionally as it stood at a version). */
export async function loadClaim(ctx: AppContext, claimId: string, untilVersion?: number): Promise<LoadedClaim | null> {
  return claimOf(await loadAggregate(ctx, claimDecider, claimId, untilVersion));
}

const claimOf = (loaded: Loaded<Claim | null>): LoadedClaim | null =>
  loaded.state ? { ...loaded, state: loaded.state } : null;

/**
 * The claim's stream as the permission hook read it for this request (authPlugin.ts), handed over once:
 * a later load in the same request (after a command) reads it again.
 */
function takeClaimStream(request: FastifyRequest, claimId: string): StreamRead | null {
  const held = request.claimStream;
  if (held?.streamId !== claimId) return null;
  request.claimStream = null;
  return held.read;
}

/**
 * Loads a claim from its stream and checks the caller may do `permission` on its store: an
 * unknown claim and another tenant's claim are the same 404.
 */
export async function authorizedClaim(
  ctx: AppContext,
  request: FastifyRequest,
  permission: Permission,
  claimId: string,
): Promise<LoadedClaim> {
  const read = takeClaimStream(request, claimId);
  const loaded = read ? claimOf(foldStream(claimDecider, read)) : await loadClaim(ctx, claimId);
  if (!loaded) throw claimNotFound();
  request.authorize(permission, loaded.state.storeId, claimNotFound);
  return loaded;
}
