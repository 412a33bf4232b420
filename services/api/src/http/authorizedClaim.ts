import type { Claim, Permission } from '@claims/contracts';
import { claimDecider } from '@claims/domain';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { loadAggregate, type Loaded } from '../eventsourcing/commandHandler.js';
import { AppError } from '../platform/errors.js';

export const claimNotFound = () => new AppError('claim_not_found', 'No claim matches that reference.');

export type LoadedClaim = Loaded<Claim>;

/** A claim from its stream, or null when there is none (optionally as it stood at a version). */
export async function loadClaim(ctx: AppContext, claimId: string, untilVersion?: number): Promise<LoadedClaim | null> {
  const loaded = await loadAggregate(ctx, claimDecider, claimId, untilVersion);
  return loaded.state ? { ...loaded, state: loaded.state } : null;
}

/**
 * Loads a claim from its stream and checks the caller may do `permission` on its store: an
 * unknown claim and another tenant's claim are the same 404.
 */
export async function authorizedClaim(ctx: AppContext, request: FastifyRequest, permission: Permission, claimId: string): Promise<LoadedClaim> {
  const loaded = await loadClaim(ctx, claimId);
  if (!loaded) throw claimNotFound();
  request.authorize(permission, loaded.state.storeId, claimNotFound);
  return loaded;
}
