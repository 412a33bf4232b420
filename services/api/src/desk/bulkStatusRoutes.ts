import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BulkStatusOutcome, BulkStatusRequest, BulkStatusResponse, type BulkStatusResult } from '@claims/contracts';
import { claimDecider, statusChangePermission } from '@claims/domain';
import type { AppContext, RequestMeta } from '../context.js';
import { handleCommand } from '../eventsourcing/commandHandler.js';
import { AppError } from '../platform/errors.js';
import { permissionsAt, type Principal } from '../http/principal.js';
import { loadClaim } from '../http/authorizedClaim.js';
import { metaOf } from '../http/requestMeta.js';
import { errorResponses } from '../http/errorResponses.js';

const errors = errorResponses(400, 401, 403);

/** One claim of a bulk change: its own load, decision and append; an expected failure is a result, not an error. */
async function changeOne(
  ctx: AppContext,
  principal: Principal,
  meta: RequestMeta,
  claimId: string,
  body: BulkStatusRequest,
): Promise<BulkStatusResult> {
  const loaded = await loadClaim(ctx, claimId);
  const held = loaded ? permissionsAt(principal, loaded.state.storeId) : null;
  if (!loaded || !held) return { claimId, result: 'not_found', message: 'No claim matches that reference.' };
  const claim = loaded.state;
  const needed = statusChangePermission(body.to);
  if (!held.has(needed))
    return {
      claimId,
      result: 'forbidden',
      status: claim.status,
      message: `You need the ${needed} permission for this claim's store.`,
    };
  try {
    const done = await handleCommand(ctx, {
      decider: claimDecider,
      streamId: claimId,
      storeId: claim.storeId,
      meta,
      command: {
        type: 'ChangeClaimStatus',
        claimId,
        to: body.to,
        note: body.note || null,
        reason: body.reason ?? null,
      },
      expectedVersion: body.expectedVersions?.[claimId],
    });
    return { claimId, result: 'ok', status: done.state?.status ?? claim.status, version: done.version };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const outcome = (
      { version_conflict: 'conflict', invalid_transition: 'invalid_transition', claim_not_found: 'not_found' } as const
    )[error.code as string];
    if (!outcome) throw error;
    const now = await loadClaim(ctx, claimId);
    return {
      claimId,
      result: outcome,
      message: error.message,
      ...(now ? { status: now.state.status, version: now.version } : {}),
    };
  }
}

/**
 * `POST /api/admin/claims/bulk-status`: the same move for many claims, each decided by the status
 * machine and appended on its own (no cross-claim transaction), answered per claim.
 */
export const bulkStatusRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/admin/claims/bulk-status',
      {
        config: { auth: 'user', permission: 'claim:update' },
        schema: {
          tags: ['back-office'],
          summary:
            'Move many claims to one status; per claim: ok, conflict, invalid_transition, not_found or forbidden',
          body: BulkStatusRequest,
          response: { 200: BulkStatusResponse, ...errors },
        },
      },
      async (request) => {
        const principal = request.requirePrincipal();
        const meta = metaOf(principal, request.id);
        const results: BulkStatusResult[] = [];
        // One at a time: each claim is its own append, and a batch of 100 stays well under a second.
        for (const claimId of request.body.claimIds)
          results.push(await changeOne(ctx, principal, meta, claimId, request.body));
        const summary = Object.fromEntries(
          BulkStatusOutcome.options.map((o) => [o, results.filter((r) => r.result === o).length]),
        ) as BulkStatusResponse['summary'];
        return { results, summary };
      },
    );
  };
