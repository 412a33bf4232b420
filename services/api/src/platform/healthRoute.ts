import { sql } from 'kysely';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { oldestTransactionAgeSeconds } from '@claims/event-store';
import type { AppContext } from '../context.js';
import { storesWith } from '../http/principal.js';
import { holdsToken } from './metrics.js';

const ComponentHealth = z.union([
  z.object({ status: z.literal('ok') }),
  z.object({ status: z.literal('failing'), reason: z.string() }),
]);
export type ComponentHealth = z.infer<typeof ComponentHealth>;
/** One component's readiness (kafka, a projector, …), asked at each request. */
export type HealthCheck = () => Promise<ComponentHealth>;

/** What anyone may learn of a component: its name and whether it is well, never why not (a broker list, a raw error). */
const ComponentState = z.object({ status: z.enum(['ok', 'degraded']) });

const Healthy = z.object({ status: z.literal('ok') });
const Unhealthy = z.object({
  status: z.literal('unavailable'),
  components: z.record(z.string(), z.union([ComponentHealth, ComponentState])),
});

const OK: ComponentHealth = { status: 'ok' };
const failing = (reason: string): ComponentHealth => ({ status: 'failing', reason });

async function databaseHealth(ctx: AppContext): Promise<ComponentHealth> {
  try {
    await sql`select 1`.execute(ctx.database.db);
    if (ctx.database.kind !== 'postgres') return OK;
    const age = await oldestTransactionAgeSeconds(ctx.database.db);
    const limit = ctx.config.healthMaxTransactionAgeSeconds;
    return age > limit
      ? failing(
          `a transaction has been open for ${Math.round(age)} s (limit ${limit} s); the relay and projectors cannot read past it`,
        )
      : OK;
  } catch (error) {
    return failing(`the database does not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Every component's readiness, the database first, each check asked once. */
export async function readiness(
  ctx: AppContext,
  checks: Readonly<Record<string, HealthCheck>>,
): Promise<Record<string, ComponentHealth>> {
  const names = ['database', ...Object.keys(checks)];
  const results = await Promise.all([
    databaseHealth(ctx),
    ...Object.values(checks).map((check) => check().catch((error: unknown) => failing(String(error)))),
  ]);
  return Object.fromEntries(names.map((name, i) => [name, results[i]!]));
}

/** The reasons are for Order Protection's operators: a signed-in user who reads the operations page everywhere, or the metrics token. */
function mayReadReasons(ctx: AppContext, request: FastifyRequest): boolean {
  const token = ctx.config.metricsToken;
  if (token !== undefined && holdsToken(request, token)) return true;
  const principal = request.principal;
  return principal?.kind === 'user' && storesWith(principal, 'admin-stores:read') === 'all';
}

const stateOnly = (components: Record<string, ComponentHealth>) =>
  Object.fromEntries(
    Object.entries(components).map(([name, c]) => [
      name,
      { status: c.status === 'ok' ? ('ok' as const) : ('degraded' as const) },
    ]),
  );

/**
 * Readiness `GET /api/health`: 200 when the database answers and every component (Kafka, each
 * projector) is well, else 503 naming each component `ok` or `degraded`; the reasons only to an
 * operator (docs/decisions/health-without-details.md). Liveness `GET /api/health/live`: 200
 * while the process serves, whatever its dependencies say (a restart would not bring them back).
 */
export const healthRoute =
  (ctx: AppContext, checks: Readonly<Record<string, HealthCheck>>): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/health',
      {
        config: { auth: 'optional-user' },
        schema: {
          tags: ['operations'],
          summary:
            "Readiness: the database and every component (the reasons need an operator's session or the metrics token)",
          response: { 200: Healthy, 503: Unhealthy },
        },
      },
      async (request, reply) => {
        const components = await readiness(ctx, checks);
        if (Object.values(components).every((r) => r.status === 'ok'))
          return reply.code(200).send({ status: 'ok' as const });
        return reply
          .code(503)
          .header('cache-control', 'no-store')
          .send({
            status: 'unavailable' as const,
            components: mayReadReasons(ctx, request) ? components : stateOnly(components),
          });
      },
    );
    app.get(
      '/api/health/live',
      { schema: { tags: ['operations'], summary: 'Liveness: the process serves', response: { 200: Healthy } } },
      async () => ({ status: 'ok' as const }),
    );
  };
