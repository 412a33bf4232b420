import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdminClaimDetail, ReverseResolutionRequest, ClaimParams } from '@claims/contracts';
import type { AppContext } from '../context.js';
import { actorOf } from '../http/principal.js';
import { commandOnClaim } from '../desk/index.js';
import { errorResponses } from '../http/errorResponses.js';

const errors = errorResponses(400, 401, 403, 404, 409, 422);

/**
 * Taking a claim's resolution back (whoever may resolve the claim): its payout entries become `reversed`, with a
 * clawback for each one a batch holds already (docs/decisions/reversed-resolutions.md), and the claim is back in work.
 */
export const reverseResolutionRoute =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/admin/claims/:claimId/reverse-resolution',
      {
        config: { auth: 'user', permission: 'claim:resolve' },
        schema: {
          tags: ['back-office'],
          summary:
            "Reverse the claim's resolution (every line it decided); 422 when it has none, 409 when the version is stale",
          params: ClaimParams,
          body: ReverseResolutionRequest,
          response: { 200: AdminClaimDetail, ...errors },
        },
      },
      async (request) => {
        return commandOnClaim(ctx, request, 'claim:resolve', (claim, principal) => ({
          type: 'ReverseResolution',
          claimId: claim.id,
          storeId: claim.storeId,
          clawbackEntryIds: claim.resolutions.map(() => randomUUID()),
          reason: request.body.reason,
          actor: actorOf(principal),
          now: ctx.now(),
        }));
      },
    );
  };
