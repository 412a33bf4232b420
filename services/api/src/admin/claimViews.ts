import { sql, type QueryExecutorProvider } from 'kysely';
import {
  Message, toDecimal,
  type AdminClaimDetail, type Claim, type Permission, type StoreRef,
} from '@claims/contracts';
import { isResolvable, protectionStatus, requestedResolution, RESOLVABLE_STATUSES, STATUS_TRANSITIONS } from '@claims/domain';
import type { FastifyRequest } from 'fastify';
import type { RecordedEvent } from '@claims/event-store';
import type { AppContext } from '../context.js';
import { loadClaim } from '../commands/claimStream.js';
import { toApiClaim } from '../claims/apiClaim.js';
import { AppError } from '../platform/errors.js';

export const claimNotFound = () => new AppError('claim_not_found', 'No claim matches that reference.');

export interface AuthorizedClaim {
  claim: Claim;
  version: number;
  events: RecordedEvent[];
}

/**
 * Loads a claim from its stream and checks the caller may do `permission` on its store: an
 * unknown claim and another tenant's claim are the same 404.
 */
export async function authorizedClaim(ctx: AppContext, request: FastifyRequest, permission: Permission, claimId: string): Promise<AuthorizedClaim> {
  const { claim, version, events } = await loadClaim(ctx, claimId);
  if (!claim) throw claimNotFound();
  request.authorize(permission, claim.storeId, claimNotFound);
  return { claim, version, events };
}

export async function storeRefs(db: QueryExecutorProvider): Promise<Map<string, StoreRef>> {
  const { rows } = await sql<StoreRef>`select id, slug, name from stores`.execute(db);
  return new Map(rows.map((row) => [row.id, row]));
}

/** The back-office's claim page: the claim, its messages and what may happen to it next. */
export async function toAdminClaimDetail(ctx: AppContext, loaded: AuthorizedClaim): Promise<AdminClaimDetail> {
  const { claim, version, events } = loaded;
  const stores = await storeRefs(ctx.database.db);
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
    messages: events.filter((e) => e.type === 'ClaimMessageSent').map((e) => Message.parse(e.data)),
    resolvable: isResolvable(claim) && RESOLVABLE_STATUSES.includes(claim.status),
    allowedTransitions: [...STATUS_TRANSITIONS[claim.status]],
    labels: claim.labels,
    metadata: claim.metadata,
    noteCount: claim.noteCount,
  };
}
