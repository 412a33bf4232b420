import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';

/** The built customer portal (`npm run build -w web/portal`). */
export const PORTAL_DIST = path.resolve(import.meta.dirname, '../../../../web/portal/dist');

/** The policy the portal is built to pass: no inline script or style, everything from this origin. */
export const PORTAL_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "media-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': PORTAL_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

async function readIfFile(file: string): Promise<Buffer | null> {
  try {
    const stat = await fs.stat(file);
    return stat.isFile() ? await fs.readFile(file) : null;
  } catch {
    return null;
  }
}

export interface PortalRoutesOptions {
  distDir?: string;
}

/**
 * Serves the customer portal at `/`: files of the build, and index.html for every other non-API
 * path (the portal's router decides, including its own 'Page Not Found' page). `/api/...` paths no
 * route answers keep the API's JSON 404.
 */
export const portalRoutes = (ctx: AppContext, options: PortalRoutesOptions = {}): FastifyPluginAsync => async (app) => {
  const dist = options.distDir ?? PORTAL_DIST;
  const indexFile = path.join(dist, 'index.html');
  try {
    await fs.access(indexFile);
  } catch {
    ctx.log.warn({ dist }, 'customer portal is not built (run `npm run build -w web/portal`); / answers 503');
  }

  const send = (reply: FastifyReply, status: number, body: Buffer | string, type: string, cache: string) =>
    reply.code(status).headers(SECURITY_HEADERS).header('content-type', type).header('cache-control', cache).send(body);

  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const urlPath = decodeURIComponent(request.url.split('?')[0] ?? '/');
    if (urlPath === '/api' || urlPath.startsWith('/api/')) {
      return reply.code(404).send({ error: 'route_not_found', message: `No endpoint answers ${request.method} ${urlPath}.` });
    }
    const target = path.resolve(dist, `.${path.posix.normalize(urlPath)}`);
    if (target.startsWith(dist + path.sep) && !urlPath.endsWith('/')) {
      const file = await readIfFile(target);
      if (file) {
        const immutable = urlPath.startsWith('/assets/');
        return send(reply, 200, file, CONTENT_TYPES[path.extname(target)] ?? 'application/octet-stream',
          immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      }
      if (urlPath.startsWith('/assets/')) return send(reply, 404, 'Not found', 'text/plain; charset=utf-8', 'no-store');
    }
    const index = await readIfFile(indexFile);
    if (!index) return send(reply, 503, 'The customer portal has not been built yet.', 'text/plain; charset=utf-8', 'no-store');
    return send(reply, 200, index, CONTENT_TYPES['.html']!, 'no-cache');
  });
};
