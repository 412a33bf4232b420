import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdminReviewList, AdminReviewListQuery, ClaimReviewList } from '@claims/contracts';
import type { AppContext } from '../context.js';
import { storesWith } from '../http/principal.js';
import { storeRefs } from '../catalog/storeRepository.js';
import { authorizedClaim } from '../http/authorizedClaim.js';
import { reviewsOf } from '../http/claimEvents.js';
import { AppError } from '../platform/errors.js';
import { reviewRows } from './reviewList.js';
import { errorResponses } from '../http/errorResponses.js';

const errors = errorResponses(400, 401, 403, 404);
/** Decided: the list shows the newest reviews only; filters narrow it. */
const REVIEWS_SHOWN = 200;

/** Shoppers' reviews on the desk: one claim's (from its stream), and the newest of the caller's stores (a read model). */
export const reviewRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/reviews',
      {
        config: { auth: 'user', permission: 'reviews:read' },
        schema: {
          tags: ['back-office'],
          summary: 'The newest reviews (filter by store and rating)',
          querystring: AdminReviewListQuery,
          response: { 200: AdminReviewList, ...errors },
        },
      },
      async (request) => {
        const principal = request.requirePrincipal();
        const readable = storesWith(principal, 'reviews:read');
        const { store, rating } = request.query;
        if (store !== undefined && readable !== 'all' && !readable.includes(store)) {
          throw new AppError('not_found', 'No store matches that reference.');
        }
        const storeIds = store !== undefined ? [store] : readable === 'all' ? null : readable;
        if (storeIds?.length === 0) throw new AppError('forbidden', 'You need the reviews:read permission for this.');
        const [rows, stores] = await Promise.all([
          reviewRows(ctx.database.db, { storeIds, rating, limit: REVIEWS_SHOWN }),
          storeRefs(ctx.database.db),
        ]);
        return {
          data: rows.map((r) => ({
            id: r.review_id,
            claimId: r.claim_id,
            claimNumber: r.claim_number,
            store: stores.get(r.store_id) ?? { id: r.store_id, slug: '', name: '' },
            customerName: r.customer_name,
            rating: r.rating,
            text: r.text,
            createdAt: r.created_at.toISOString(),
          })),
        };
      },
    );

    app.get(
      '/api/admin/claims/:claimId/reviews',
      {
        config: { auth: 'user', permission: 'reviews:read' },
        schema: {
          tags: ['back-office'],
          summary: "The shopper's reviews of this claim",
          params: z.object({ claimId: z.uuid() }),
          response: { 200: ClaimReviewList, ...errors },
        },
      },
      async (request) => {
        const { events } = await authorizedClaim(ctx, request, 'reviews:read', request.params.claimId);
        return { data: reviewsOf(events) };
      },
    );
  };
