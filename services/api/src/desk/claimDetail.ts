import type { FastifyRequest } from 'fastify';
import { toDecimal, type AdminClaimDetail, type Claim, type ClaimCommand, type Permission } from '@claims/contracts';
import {
  isResolvable,
  protectionStatus,
  requestedResolution,
  RESOLVABLE_STATUSES,
  statusChangePermission,
  statusChangeTargets,
} from '@claims/domain';
import type { AppContext } from '../context.js';
import { permissionsAt, type Principal } from '../http/principal.js';
import { storeRefs } from '../catalog/storeRepository.js';
import { findOrderById } from '../catalog/orderRepository.js';
import { toApiClaim } from '../http/apiClaim.js';
import { authorizedClaim, claimNotFound } from '../http/authorizedClaim.js';
import { handleClaimCommand } from '../http/claimCommand.js';
import { messagesOf } from '../http/claimEvents.js';
import type { Handled } from '../eventsourcing/commandHandler.js';
import { claimStoreCredits } from '../store-credit/index.js';

export interface ClaimForDetail {
  state: Claim;
  version: number;
  events: ReadonlyArray<{ type: string; data: unknown }>;
}

/** The back-office's claim page: the claim, its messages and what this caller may do to it next. */
export async function toAdminClaimDetail(
  ctx: AppContext,
  loaded: ClaimForDetail,
  principal: Principal,
): Promise<AdminClaimDetail> {
  const { state: claim, version, events } = loaded;
  const held = permissionsAt(principal, claim.storeId);
  const [stores, storeCredits, order] = await Promise.all([
    storeRefs(ctx.database.db),
    claimStoreCredits(ctx, claim, events),
    findOrderById(ctx.database.db, claim.orderId),
  ]);
  const claimedShipments = new Set(claim.items.map((i) => i.sourceFulfillmentId));
  const policyMoney = (minor: number, currency: string) => toDecimal(minor, currency);
  return {
    ...toApiClaim(claim, version),
    store: stores.get(claim.storeId) ?? { id: claim.storeId, slug: '', name: '' },
    isOta: claim.isOta,
    protectionStatus: protectionStatus(claim),
    customer: claim.customer,
    desiredMethod: claim.desiredMethod,
    requestedResolution: requestedResolution(claim.items),
    updatedShippingAddress: claim.updatedShippingAddress,
    policy: claim.policy && {
      insuredAmount: policyMoney(claim.policy.insuredAmount, claim.policy.premiumCurrency),
      premiumPaid: policyMoney(claim.policy.premiumPaid, claim.policy.premiumCurrency),
      premiumCurrency: claim.policy.premiumCurrency,
      removedAt: claim.policy.removedAt,
    },
    messages: messagesOf(events),
    resolvable: isResolvable(claim) && RESOLVABLE_STATUSES.includes(claim.status),
    allowedTransitions: statusChangeTargets(claim.status).filter((to) => held?.has(statusChangePermission(to))),
    labels: claim.labels,
    metadata: claim.metadata,
    noteCount: claim.noteCount,
    storeCredits,
    shipments: order?.fulfillments.filter((f) => claimedShipments.has(f.sourceFulfillmentId)) ?? [],
    assignee: claim.assignee,
  };
}

/** The detail after a command: the folded state plus what the command just decided, without reading again. */
export function afterCommand(handled: Handled<Claim | null>): ClaimForDetail {
  if (!handled.state) throw claimNotFound();
  return { state: handled.state, version: handled.version, events: [...handled.events, ...handled.decided] };
}

/**
 * A command on the claim the request names, once the caller holds `permission` on it: built from the claim as loaded,
 * handled at the version the caller saw (`expectedVersion` in the body), answered as the claim's page.
 */
export async function commandOnClaim(
  ctx: AppContext,
  request: FastifyRequest<{ Params: { claimId: string }; Body: { expectedVersion?: number | undefined } }>,
  permission: Permission,
  commandOf: (claim: Claim, principal: Principal) => ClaimCommand | Promise<ClaimCommand>,
): Promise<AdminClaimDetail> {
  const loaded = await authorizedClaim(ctx, request, permission, request.params.claimId);
  const principal = request.requirePrincipal();
  const command = await commandOf(loaded.state, principal);
  const handled = await handleClaimCommand(ctx, request, loaded, command, request.body.expectedVersion);
  return toAdminClaimDetail(ctx, afterCommand(handled), principal);
}
