import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdminClaimDetail, ApiError, ReopenClaimRequest, ClaimParams } from '@claims/contracts';
import type { AppContext } from '../context.js';
import { commandOnClaim } from './claimDetail.js';

/**
 * `POST /api/admin/claims/{claimId}/reopen`: a closed claim back to OPEN (a ClaimStatusChanged). Closing
 * settles a claim's fate and takes claim:resolve, so undoing it takes the same permission (docs/product.md#roles-and-permissions:
 * store support and above; a store user, who may only update claims, cannot).
 */
export const claimReopenRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/admin/claims/:claimId/reopen',
      {
        config: { auth: 'user', permission: 'claim:resolve' },
        schema: {
          tags: ['back-office'],
          summary:
            'Reopen a closed claim (back to OPEN, with an optional note); 422 when it is not closed, 409 when the version is stale',
          params: ClaimParams,
          body: ReopenClaimRequest,
          response: {
            200: AdminClaimDetail,
            400: ApiError,
            401: ApiError,
            403: ApiError,
            404: ApiError,
            409: ApiError,
            422: ApiError,
          },
        },
      },
      async (request) => {
        return commandOnClaim(ctx, request, 'claim:resolve', (claim) => ({
          type: 'ReopenClaim',
          claimId: claim.id,
          note: request.body.note || null,
        }));
      },
    );
  };
