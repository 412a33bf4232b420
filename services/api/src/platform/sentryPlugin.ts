import { z } from 'zod';
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PublicConfig } from '@claims/contracts';
import type { AppContext } from '../context.js';
import { AppError } from './errors.js';
import { loggableUrl, maskEmails } from './logger.js';

/** Where the portal's browser SDK posts its envelopes: same origin, so the strict CSP (connect-src 'self') holds. */
export const SENTRY_TUNNEL_PATH = '/api/monitoring';

interface SentryNode {
  captureException(error: unknown): string;
}

let sentry: Promise<SentryNode> | null = null;

/** @sentry/node is loaded and started once, and only when a DSN and an environment are configured. */
function startSentry(dsn: string, environment: string): Promise<SentryNode> {
  sentry ??= import('@sentry/node').then((Sentry) => {
    Sentry.init({
      dsn,
      environment,
      // No user data, cookies, headers, bodies or query strings (emails and addresses travel in them).
      dataCollection: { userInfo: false, cookies: false, httpHeaders: false, httpBodies: [], urlQueryParams: false },
      // Errors only: no performance tracing.
      tracesSampleRate: 0,
      beforeSend(event) {
        // Emails never leave in clear (a lookup URL carries one in its query).
        if (event.request?.url) event.request.url = loggableUrl(event.request.url);
        if (typeof event.request?.query_string === 'string')
          event.request.query_string = maskEmails(event.request.query_string);
        if (event.request) delete event.request.data;
        return event;
      },
    });
    return Sentry;
  });
  return sentry;
}

/** A defect, as the error handler decides it: not an answer given on purpose, and no 4xx. */
function isDefect(error: FastifyError | Error): boolean {
  if (error instanceof AppError) return false;
  const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  return status >= 500;
}

/** The parts of a DSN an envelope is forwarded with. */
function parseDsn(dsn: string): { origin: string; projectId: string } | null {
  try {
    const url = new URL(dsn);
    const projectId = url.pathname.split('/').filter(Boolean).pop();
    return projectId ? { origin: url.origin, projectId } : null;
  } catch {
    return null;
  }
}

/**
 * Error reporting (docs/product.md#error-reporting; configured from public runtime configuration, a DSN and an environment name).
 * `GET /api/public-config` tells the portal whether and where to report; the server reports its own 5xx
 * defects; `POST /api/monitoring` relays the portal's envelopes to the configured DSN only.
 */
export const sentryPlugin = (ctx: AppContext): FastifyPluginAsync => {
  const config = ctx.config.sentry;
  const routes: FastifyPluginAsyncZod = async (app) => {
    app.get(
      '/api/public-config',
      {
        schema: {
          tags: ['customer'],
          summary: 'Public runtime configuration of the portal (error reporting)',
          response: { 200: PublicConfig },
        },
      },
      async (_request, reply) => {
        void reply.header('cache-control', 'public, max-age=300');
        return {
          sentry: config ? { dsn: config.dsn, environment: config.environment, tunnel: SENTRY_TUNNEL_PATH } : null,
        };
      },
    );

    if (!config) return;
    const target = parseDsn(config.dsn);
    await startSentry(config.dsn, config.environment);

    app.addHook('onError', async (_request, _reply, error) => {
      if (isDefect(error)) (await startSentry(config.dsn, config.environment)).captureException(error);
    });

    app.post(SENTRY_TUNNEL_PATH, { schema: { hide: true }, bodyLimit: 256 * 1024 }, async (request, reply) => {
      const body = typeof request.body === 'string' ? request.body : '';
      const header = z.object({ dsn: z.string() }).safeParse(
        (() => {
          try {
            return JSON.parse(body.split('\n', 1)[0] ?? '');
          } catch {
            return null;
          }
        })(),
      );
      if (!target || !header.success || header.data.dsn !== config.dsn) {
        throw new AppError('validation_failed', "Only envelopes for this site's error reporting are relayed.");
      }
      const upstream = await fetch(`${target.origin}/api/${target.projectId}/envelope/`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-sentry-envelope' },
        signal: AbortSignal.timeout(10_000),
      }).catch(() => null);
      return reply.code(upstream && upstream.ok ? 200 : 202).send({ status: upstream?.status ?? 'unreachable' });
    });
  };
  // Like fastify-plugin: the onError hook reaches the routes registered after this plugin.
  Object.assign(routes, { [Symbol.for('skip-override')]: true, [Symbol.for('fastify.display-name')]: 'claims-sentry' });
  return routes;
};
