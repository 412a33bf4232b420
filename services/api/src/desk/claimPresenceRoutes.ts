import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiError, type ClaimPresence, ClaimParams } from '@claims/contracts';
import type { AppContext } from '../context.js';
import { actorOf } from '../http/principal.js';
import { authorizedClaim } from '../http/authorizedClaim.js';
import { ClaimPresenceHub, PRESENCE_TIMING } from './claimPresence.js';

/**
 * `GET /api/admin/claims/{claimId}/presence`: server-sent events telling the claim page who else has the
 * claim open (`event: presence`, data ClaimPresence), first at once and then on every change, for as
 * long as the page keeps the stream open. Closing the stream is leaving the claim.
 */
export const claimPresenceRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const hub = new ClaimPresenceHub(ctx.database.db, PRESENCE_TIMING, (error) =>
      ctx.log.warn({ err: error }, 'claim presence heartbeat failed'),
    );
    const open = new Set<() => void>();
    // Open streams would hold the server's close forever: end them first.
    app.addHook('preClose', async () => {
      for (const end of open) end();
      await hub.stop();
    });

    app.get(
      '/api/admin/claims/:claimId/presence',
      {
        config: { auth: 'user', permission: 'claim:read' },
        schema: {
          tags: ['back-office'],
          summary:
            'Server-sent events: who else has this claim open (event `presence`, data {claimId, viewers}), at once and on every change',
          // A stream that stays open: clients (and the route-permission test) know not to wait for its end.
          'x-event-stream': true,
          params: ClaimParams,
          response: { 400: ApiError, 401: ApiError, 404: ApiError },
        },
      },
      async (request, reply) => {
        const { state: claim } = await authorizedClaim(ctx, request, 'claim:read', request.params.claimId);
        const actor = actorOf(request.requirePrincipal());
        reply.hijack();
        const raw = reply.raw;
        raw.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache, no-transform',
          connection: 'keep-alive',
          // A buffering proxy would hold the events back.
          'x-accel-buffering': 'no',
          'x-correlation-id': request.id,
        });
        const send = (viewers: ClaimPresence['viewers']) => {
          const event: ClaimPresence = { claimId: claim.id, viewers };
          raw.write(`event: presence\ndata: ${JSON.stringify(event)}\n\n`);
        };
        // A comment line now and then keeps idle proxies from closing the stream.
        const keepAlive = setInterval(() => raw.write(': keep-alive\n\n'), PRESENCE_TIMING.staleMs);
        let leave: (() => Promise<void>) | null = null;
        let closed = false;
        const end = () => {
          if (closed) return;
          closed = true;
          clearInterval(keepAlive);
          open.delete(end);
          if (!raw.writableEnded) raw.end();
          void leave?.().catch((error: unknown) => ctx.log.warn({ err: error }, 'leaving claim presence failed'));
        };
        open.add(end);
        raw.on('close', end);
        leave = await hub.join(claim.id, { userId: actor.id, name: actor.name ?? actor.id }, send);
        // The page may have gone while joining.
        if (closed)
          void leave().catch((error: unknown) => ctx.log.warn({ err: error }, 'leaving claim presence failed'));
      },
    );
  };
