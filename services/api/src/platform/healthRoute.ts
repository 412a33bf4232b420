import { sql } from 'kysely';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';

const Healthy = z.object({ status: z.literal('ok') });
const Unhealthy = z.object({ status: z.literal('unavailable'), checks: z.record(z.string(), z.boolean()) });

/** 200 once the database (and Kafka, when configured) answers; 503 otherwise. */
export const healthRoute = (ctx: AppContext, kafkaReachable: (() => Promise<boolean>) | null): FastifyPluginAsyncZod => async (app) => {
  app.get('/api/health', { schema: { tags: ['operations'], summary: 'Liveness and dependencies', response: { 200: Healthy, 503: Unhealthy } } }, async (_request, reply) => {
    const database = await sql`select 1`.execute(ctx.database.db).then(() => true, () => false);
    const checks: Record<string, boolean> = { database };
    if (kafkaReachable) checks.kafka = await kafkaReachable();
    if (Object.values(checks).every(Boolean)) return reply.code(200).send({ status: 'ok' as const });
    return reply.code(503).send({ status: 'unavailable' as const, checks });
  });
};
