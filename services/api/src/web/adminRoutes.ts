import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';
import { SECURITY_HEADERS, singlePageHandler } from './singlePageApp.js';

/** The built back-office (`npm run build -w web/admin`), served under `/admin/`. */
export const ADMIN_DIST = path.resolve(import.meta.dirname, '../../../../web/admin/dist');
export const ADMIN_BASE = '/admin/';

export interface AdminRoutesOptions {
  distDir?: string;
}

/** The back-office at `/admin/`; signed-in pages are never kept by shared caches nor indexed. */
export const adminRoutes =
  (ctx: AppContext, options: AdminRoutesOptions = {}): FastifyPluginAsync =>
  async (app) => {
    const handler = await singlePageHandler(ctx, {
      name: 'back-office',
      dist: options.distDir ?? ADMIN_DIST,
      base: ADMIN_BASE,
      headers: { 'x-robots-tag': 'noindex' },
      indexCache: 'no-cache, private',
    });
    app.get('/admin', { schema: { hide: true } }, async (request, reply) => {
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      return reply.headers(SECURITY_HEADERS).redirect(`${ADMIN_BASE}${query}`, 308);
    });
    app.get('/admin/*', { schema: { hide: true } }, handler);
  };
