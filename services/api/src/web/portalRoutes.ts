import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';
import { APP_CSP, singlePageHandler } from './singlePageApp.js';
import { withClaimPagePreloads } from './claimPagePreload.js';
import { PORTAL_DIST } from './portalFiles.js';

export interface PortalRoutesOptions {
  distDir?: string;
}

/**
 * The portal may be framed by this origin only: the back-office's branding editor shows it beside the form
 * (its preview); no other site can frame it.
 */
const PORTAL_FRAMING = {
  'content-security-policy': APP_CSP.replace("frame-ancestors 'none'", "frame-ancestors 'self'"),
  'x-frame-options': 'SAMEORIGIN',
};

/**
 * Serves the customer portal at `/` for every path no other route answers; `/api/...` paths keep
 * the API's JSON 404.
 */
export const portalRoutes =
  (ctx: AppContext, options: PortalRoutesOptions = {}): FastifyPluginAsync =>
  async (app) => {
    const dist = options.distDir ?? PORTAL_DIST;
    const handler = await singlePageHandler(ctx, {
      name: 'customer portal',
      dist,
      base: '/',
      indexCache: 'no-cache',
      headers: PORTAL_FRAMING,
      indexFor: (urlPath, index) => withClaimPagePreloads(dist, urlPath, index),
    });
    app.get('/*', { schema: { hide: true } }, async (request, reply) => {
      const urlPath = request.url.split('?')[0] ?? '/';
      if (urlPath === '/api' || urlPath.startsWith('/api/')) {
        return reply
          .code(404)
          .send({ error: 'route_not_found', message: `No endpoint answers ${request.method} ${urlPath}.` });
      }
      return handler(request, reply);
    });
  };
