import type { FastifyRequest } from 'fastify';
import type { Permission, Store } from '@claims/contracts';
import type { AppContext } from '../context.js';
import { findStore } from '../catalog/storeRepository.js';
import { AppError } from '../platform/errors.js';
import { permissionsAt, storesWith, type Principal } from './principal.js';

export const storeNotFound = () => new AppError('not_found', 'No store matches that reference.');

/**
 * The store of a `/api/admin/stores/{storeId}/…` route, checked for `permission`: a missing store and
 * another tenant's are the same 404 (internal roles reach every store, so existence is checked first).
 */
export async function authorizedStore(
  ctx: AppContext,
  request: FastifyRequest,
  permission: Permission,
  storeId: string,
): Promise<{ store: Store; principal: Principal }> {
  const store = await findStore(ctx.database.db, storeId);
  if (!store) {
    request.requirePrincipal();
    throw storeNotFound();
  }
  return { store, principal: request.authorize(permission, store.id, storeNotFound) };
}

/**
 * The store of a `/api/admin/stores/{storeId}/…` route whose permission depends on what is asked
 * (settings groups), with everything the caller holds there; not theirs to see, or missing: 404.
 */
export async function visibleStore(
  ctx: AppContext,
  request: FastifyRequest,
  storeId: string,
): Promise<{ store: Store; principal: Principal; held: ReadonlySet<Permission> }> {
  const principal = request.requirePrincipal();
  const store = await findStore(ctx.database.db, storeId);
  const held = store && permissionsAt(principal, store.id);
  if (!store || !held) throw storeNotFound();
  return { store, principal, held };
}

/** A permission on things of no store (global macros): held on every store, which only internal roles are. */
export function authorizeGlobal(request: FastifyRequest, permission: Permission): Principal {
  const principal = request.requirePrincipal();
  if (storesWith(principal, permission) !== 'all')
    throw new AppError('forbidden', `You need the ${permission} permission for this.`);
  return principal;
}
