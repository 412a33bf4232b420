import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApiError,
  CLAIM_STATUS_LABELS,
  ClaimFacts,
  RECENT_CLAIMS_DAYS,
  ResolutionType,
  toDecimal,
  type Signature,
  ClaimParams,
} from '@claims/contracts';
import { storedDomainEvent } from '@claims/event-store';
import { isOffered } from '@claims/domain';
import { customerClaimHistory } from '@claims/projections';
import type { AppContext } from '../context.js';
import { permissionsAt, storesWith } from '../http/principal.js';
import { findOrderById } from '../catalog/orderRepository.js';
import { authorizedClaim } from '../http/authorizedClaim.js';
import { storeTermsOf } from '../resolutions/index.js';
import { reusedPhotos } from './reusedPhotos.js';

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);
const DAY_MS = 86_400_000;

/** The shopper's signature as filed (the claim's state does not keep it). */
function signatureOf(events: ReadonlyArray<{ type: string; data: unknown }>): Signature | null {
  const filed = events.find((e) => e.type === 'ClaimFiled');
  if (!filed) return null;
  const event = storedDomainEvent(filed);
  return event.type === 'ClaimFiled' ? event.data.signature : null;
}

/**
 * `GET /api/admin/claims/{claimId}/facts`: the facts an agent decides with. Same checks as the claim itself
 * (claim:read on its store; another tenant's claim is 404), and what it tells of other claims stays within
 * the stores the caller may read.
 */
export const claimFactsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/claims/:claimId/facts',
      {
        config: { auth: 'user', permission: 'claim:read' },
        schema: {
          tags: ['back-office'],
          summary:
            "The facts to decide a claim: order, shipments and tracking, addresses, signature, the shopper's other claims, flags and the store's decision terms",
          params: ClaimParams,
          response: { 200: ClaimFacts, 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError },
        },
      },
      async (request) => {
        const loaded = await authorizedClaim(ctx, request, 'claim:read', request.params.claimId);
        const claim = loaded.state;
        const principal = request.requirePrincipal();
        const readable = storesWith(principal, 'claim:read');
        const mayRead = (storeId: string) => permissionsAt(principal, storeId)?.has('claim:read') ?? false;
        const since = new Date(Date.parse(ctx.now()) - RECENT_CLAIMS_DAYS * DAY_MS).toISOString();
        const [order, terms, history, photos] = await Promise.all([
          findOrderById(ctx.database.db, claim.orderId),
          storeTermsOf(ctx, claim),
          customerClaimHistory(ctx.database.db, claim.customer.email, readable === 'all' ? null : readable, since),
          reusedPhotos(ctx, loaded, mayRead),
        ]);
        const claimed = new Set(claim.items.map((i) => i.sourceFulfillmentId));
        return {
          order: order && {
            orderNumber: order.orderNumber,
            sourceOrderId: order.sourceOrderId,
            createdAt: order.createdAt,
            shippingAddress: order.shippingAddress,
            fulfillments: order.fulfillments.map((f) => ({ ...f, claimed: claimed.has(f.sourceFulfillmentId) })),
          },
          updatedShippingAddress: claim.updatedShippingAddress,
          signature: signatureOf(loaded.events),
          otherClaims: history.rows
            .filter((row) => row.claim_id !== claim.id)
            .map((row) => ({
              id: row.claim_id,
              claimNumber: row.claim_number,
              orderNumber: row.order_number,
              storeId: row.store_id,
              status: row.status,
              statusLabel: CLAIM_STATUS_LABELS[row.status],
              createdAt: iso(row.created_at)!,
              currency: row.currency,
              claimedValue: toDecimal(Number(row.claimed_value), row.currency),
              resolutionType: ResolutionType.safeParse(row.resolution_type).data ?? null,
              resolvedAt: iso(row.resolved_at),
            })),
          flags: { recentClaimsByEmail: history.recent, reusedPhotos: photos },
          decisionTerms: {
            offeredResolutions: ResolutionType.options.filter((type) => isOffered(type, terms.capabilities)),
            credit: terms.valuation.credit,
            exchangeRate: terms.valuation.exchangeRate,
          },
        };
      },
    );
  };
