import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';

/** The policy both apps are built to pass: no inline script or style, everything from this origin. */
export const APP_CSP = [
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
  'content-security-policy': APP_CSP,
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
  '.map': 'application/json; charset=utf-8',
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

export interface SinglePageApp {
  /** What the app is called in messages. */
  name: string;
  /** The build folder (`vite build` output). */
  dist: string;
  /** The URL prefix it is served under, ending in '/'. */
  base: string;
  /** Headers on top of the security headers. */
  headers?: Record<string, string>;
  /** Cache-Control of index.html. */
  indexCache: string;
  /** index.html as a path gets it (e.g. with what that page will fetch preloaded); as built otherwise. */
  indexFor?: (urlPath: string, index: Buffer) => Promise<Buffer>;
}

/**
 * Serves a built single-page app: files of the build (hashed assets cached for a year) and
 * index.html for every other path under its base, so the app's router decides (its own 404 page
 * included). Paths never leave the build folder.
 */
export async function singlePageHandler(ctx: AppContext, spa: SinglePageApp) {
  const indexFile = path.join(spa.dist, 'index.html');
  try {
    await fs.access(indexFile);
  } catch {
    ctx.log.warn({ dist: spa.dist }, `${spa.name} is not built; ${spa.base} answers 503`);
  }
  const send = (reply: FastifyReply, status: number, body: Buffer | string, type: string, cache: string) =>
    reply
      .code(status)
      .headers(SECURITY_HEADERS)
      .headers(spa.headers ?? {})
      .header('content-type', type)
      .header('cache-control', cache)
      .send(body);

  return async (request: FastifyRequest, reply: FastifyReply) => {
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(request.url.split('?')[0] ?? spa.base);
    } catch {
      return send(reply, 400, 'Bad request', 'text/plain; charset=utf-8', 'no-store');
    }
    const inner = urlPath.slice(spa.base.length - 1);
    const target = path.resolve(spa.dist, `.${path.posix.normalize(inner)}`);
    if (target.startsWith(spa.dist + path.sep) && !inner.endsWith('/')) {
      const file = await readIfFile(target);
      if (file) {
        const immutable = inner.startsWith('/assets/');
        return send(
          reply,
          200,
          file,
          CONTENT_TYPES[path.extname(target)] ?? 'application/octet-stream',
          immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      }
      if (inner.startsWith('/assets/')) return send(reply, 404, 'Not found', 'text/plain; charset=utf-8', 'no-store');
    }
    const index = await readIfFile(indexFile);
    if (!index)
      return send(reply, 503, `The ${spa.name} has not been built yet.`, 'text/plain; charset=utf-8', 'no-store');
    return send(
      reply,
      200,
      spa.indexFor ? await spa.indexFor(urlPath, index) : index,
      CONTENT_TYPES['.html']!,
      spa.indexCache,
    );
  };
}
