import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AnalyticsQuery, AnalyticsResponse } from '@claims/contracts';
import type { AppContext } from '../context.js';
import { storesWith } from '../http/principal.js';
import { findStore } from '../catalog/storeRepository.js';
import { storeNotFound } from '../http/authorizedStore.js';
import { analyticsOf } from './analyticsFigures.js';
import { analyticsCsv } from './analyticsCsv.js';
import { errorResponses } from '../http/errorResponses.js';

const errors = errorResponses(400, 401, 403, 404);

/** The stores a request's figures cover: the one asked for, else every store the caller reads analytics of (null: all). */
async function scopeOf(
  ctx: AppContext,
  request: FastifyRequest,
  store: string | undefined,
): Promise<readonly string[] | null> {
  const readable = storesWith(request.requirePrincipal(), 'analytics:read');
  if (!store) return readable === 'all' ? null : readable;
  if (!(await findStore(ctx.database.db, store))) throw storeNotFound();
  request.authorize('analytics:read', store, storeNotFound);
  return [store];
}

/** The figures a request asks for, within what the caller may read. */
async function answerOf(ctx: AppContext, request: FastifyRequest, query: AnalyticsQuery): Promise<AnalyticsResponse> {
  const storeIds = await scopeOf(ctx, request, query.store);
  const period = { from: new Date(query.from).toISOString(), to: new Date(query.to).toISOString() };
  return analyticsOf(ctx, storeIds, period, query.compare === 'previous');
}

/** Claim analytics for the back-office: a store's to its merchants, every store's (or one's) to internal staff. */
export const analyticsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/analytics',
      {
        config: { auth: 'user', permission: 'analytics:read' },
        schema: {
          tags: ['back-office'],
          summary: 'Claim figures for the claims filed in a period, optionally beside the previous period',
          querystring: AnalyticsQuery,
          response: { 200: AnalyticsResponse, ...errors },
        },
      },
      async (request) => answerOf(ctx, request, request.query),
    );

    app.get(
      '/api/admin/analytics/export.csv',
      {
        config: { auth: 'user', permission: 'analytics:read' },
        schema: {
          tags: ['back-office'],
          summary: 'The same figures as CSV, one row per figure and period',
          querystring: AnalyticsQuery,
          response: { 200: z.string(), ...errors },
        },
      },
      async (request, reply) => {
        const analytics = await answerOf(ctx, request, request.query);
        const day = (iso: string) => iso.slice(0, 10);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header(
            'content-disposition',
            `attachment; filename="claims-analytics-${day(analytics.period.from)}-to-${day(analytics.period.to)}.csv"`,
          )
          .send(analyticsCsv(analytics));
      },
    );
  };
