import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { SECURITY_HEADERS } from './portalRoutes.js';

/** The built back-office (`npm run build -w web/admin`), served under `/admin/`. */
export const ADMIN_DIST = path.resolve(import.meta.dirname, '../../../../web/admin/dist');
export const ADMIN_BASE = '/admin/';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

async function readIfFile(file: string): Promise<Buffer | null> {
  try {
    const stat = await fs.stat(file);
    return stat.isFile() ? await fs.readFile(file) : null;
  } catch {
    return null;
  }
}

export interface AdminRoutesOptions {
  distDir?: string;
}

/**
 * Serves the back-office single-page app at `/admin/`: files of its build (hashed assets cached for
 * a year), and index.html for every other path under `/admin/` (its router decides, including the
 * sign-in redirect and its 'Page Not Found' page). The same security headers and CSP as the portal;
 * signed-in pages are never cached by shared caches.
 */
export const adminRoutes = (ctx: AppContext, options: AdminRoutesOptions = {}): FastifyPluginAsync => async (app) => {
  const dist = options.distDir ?? ADMIN_DIST;
  const indexFile = path.join(dist, 'index.html');
  try {
    await fs.access(indexFile);
  } catch {
    ctx.log.warn({ dist }, 'back-office is not built (run `npm run build -w web/admin`); /admin/ answers 503');
  }

  const send = (reply: FastifyReply, status: number, body: Buffer | string, type: string, cache: string) =>
    reply.code(status).headers(SECURITY_HEADERS).header('x-robots-tag', 'noindex').header('content-type', type).header('cache-control', cache).send(body);

  app.get('/admin', { schema: { hide: true } }, async (request, reply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    return reply.headers(SECURITY_HEADERS).redirect(`${ADMIN_BASE}${query}`, 308);
  });

  app.get('/admin/*', { schema: { hide: true } }, async (request, reply) => {
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(request.url.split('?')[0] ?? ADMIN_BASE);
    } catch {
      return send(reply, 400, 'Bad request', 'text/plain; charset=utf-8', 'no-store');
    }
    const inner = urlPath.slice(ADMIN_BASE.length - 1);
    const target = path.resolve(dist, `.${path.posix.normalize(inner)}`);
    if (target.startsWith(dist + path.sep) && !inner.endsWith('/')) {
      const file = await readIfFile(target);
      if (file) {
        const immutable = inner.startsWith('/assets/');
        return send(reply, 200, file, CONTENT_TYPES[path.extname(target)] ?? 'application/octet-stream',
          immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      }
      if (inner.startsWith('/assets/')) return send(reply, 404, 'Not found', 'text/plain; charset=utf-8', 'no-store');
    }
    const index = await readIfFile(indexFile);
    if (!index) return send(reply, 503, 'The back-office has not been built yet.', 'text/plain; charset=utf-8', 'no-store');
    return send(reply, 200, index, CONTENT_TYPES['.html']!, 'no-cache, private');
  });
};
