import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { normalizeIP } from '@fastify/rate-limit';
import type { AppContext } from '../context.js';
import type { Config } from '../config.js';
import { AppError } from './errors.js';
import { hitWindow, retryAfterSeconds } from './rateWindows.js';

/**
 * Abuse limits of the customer endpoints that guess at orders (the lookup and filing calls, docs/product.md#http-client):
 * per client IP and per order number, fixed one-minute windows (`RATE_LIMIT_*` in config.ts).
 *
 * Counting is in PostgreSQL (`rate_windows`, one upsert per check), so the limits hold however many processes serve
 * (`API_PROCESSES=N`); this file says which requests count against which key, checks the IP first (a blocked client
 * does not spend a shopper's per-order budget), and answers the contract's 429 `{error:'rate_limited', message}` with
 * `Retry-After`.
 */
export type RateLimitSettings = Config['rateLimit'];

type KeyOf = (request: FastifyRequest) => string | null;

interface Rule {
  name: string;
  max: number;
  key: KeyOf;
  /** The key is in the JSON body: checked once it is parsed (still before validation and the handler). */
  fromBody?: boolean;
}

/** An order number as the lookup matches it: trimmed, without a leading '#', case-folded. */
export const orderKey = (value: unknown): string | null => {
  if (typeof value !== 'string') return null;
  const normalized = value.trim().replace(/^#/, '').toLowerCase();
  return normalized ? normalized : null;
};

const clientIp: KeyOf = (request) => normalizeIP(request.ip, 56);
const field = (source: unknown, name: string): unknown =>
  typeof source === 'object' && source !== null && name in source
    ? (source as Record<string, unknown>)[name]
    : undefined;

export const RATE_LIMITED_MESSAGE = 'Too many attempts. Please wait a minute and try again.';

export const rateLimitPlugin = (
  ctx: AppContext,
  settings: RateLimitSettings = ctx.config.rateLimit,
): FastifyPluginAsync => {
  const plugin: FastifyPluginAsync = async (app) => {
    if (!settings.enabled) return;

    const limiter = (rule: Rule) => {
      // Keys are namespaced by rule; a request without the key's part (a 400 to be) is only counted per IP.
      const check = async (request: FastifyRequest) => {
        const now = ctx.now();
        const { hits, windowEndsAt } = await hitWindow(
          ctx.database.db,
          `limit:${rule.name}:${rule.key(request) ?? '-'}`,
          settings.windowMs,
          now,
        );
        return { exceeded: hits > rule.max, retryAfterSeconds: retryAfterSeconds(windowEndsAt, now) };
      };
      return { ...rule, check };
    };

    /** A route's limits: per client IP, and per order number where the request names one (`order` reads it). */
    const limitsOf = (
      name: string,
      perIp: number,
      perOrder?: { max: number; order: (request: FastifyRequest) => unknown; fromBody?: boolean },
    ) =>
      [
        limiter({ name: `${name}-ip`, max: perIp, key: clientIp }),
        ...(perOrder
          ? [
              limiter({
                name: `${name}-order`,
                max: perOrder.max,
                key: (r) => orderKey(perOrder.order(r)),
                fromBody: perOrder.fromBody ?? false,
              }),
            ]
          : []),
      ].filter((l) => l.max > 0);

    const byRoute = new Map<string, Array<ReturnType<typeof limiter>>>([
      [
        'GET /api/order-lookup',
        limitsOf('lookup', settings.lookupPerIp, {
          max: settings.lookupPerOrder,
          order: (r) => field(r.query, 'order'),
        }),
      ],
      [
        'POST /api/claims/:id',
        limitsOf('filing', settings.filingPerIp, { max: settings.filingPerOrder, order: (r) => field(r.params, 'id') }),
      ],
      // Each answered request mails the shopper: per address, and per order number (from the body).
      [
        'POST /api/claim-links',
        limitsOf('recovery', settings.recoveryPerIp, {
          max: settings.recoveryPerOrder,
          order: (r) => field(r.body, 'order'),
          fromBody: true,
        }),
      ],
      ['POST /api/media/upload-url', limitsOf('upload', settings.uploadPerIp)],
    ]);

    const check = async (request: FastifyRequest, fromBody: boolean) => {
      const limiters = byRoute.get(`${request.method} ${request.routeOptions.url ?? ''}`);
      if (!limiters) return;
      for (const l of limiters) {
        if (Boolean(l.fromBody) !== fromBody) continue;
        if (l.name.endsWith('-order') && l.key(request) === null) continue;
        const result = await l.check(request);
        if (result.exceeded) {
          // The rule's name only: neither the IP nor the order number (nor the email in the URL) is logged.
          request.log.warn({ rule: l.name, max: l.max, retryAfterSeconds: result.retryAfterSeconds }, 'rate limited');
          throw new AppError('rate_limited', RATE_LIMITED_MESSAGE, undefined, {
            'retry-after': String(result.retryAfterSeconds),
          });
        }
      }
    };
    // onRequest: before the body is read, so a refused request costs next to nothing; keys in the body once it is parsed.
    app.addHook('onRequest', async (request) => check(request, false));
    app.addHook('preValidation', async (request) => check(request, true));
  };
  // Like fastify-plugin: the hook applies to the routes registered after this plugin, not only its own scope.
  Object.assign(plugin, {
    [Symbol.for('skip-override')]: true,
    [Symbol.for('fastify.display-name')]: 'claims-rate-limit',
  });
  return plugin;
};
