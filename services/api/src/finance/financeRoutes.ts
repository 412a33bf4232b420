import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApiError,
  FinanceMonthlyTotals,
  FinanceReplayRequest,
  FinanceReplayView,
  PayoutEntriesQuery,
  PayoutEntriesResponse,
  PremiumTotals,
  toDecimal,
} from '@claims/contracts';
import { claimNumbers, monthlyFinanceTotals, payoutEntries, premiumTotals } from '@claims/projections';
import { claimsOfReplay, withClaimNumbers } from './replayClaimNumbers.js';
import type { AppContext } from '../context.js';
import { findStore } from '../catalog/storeRepository.js';
import { authorizeGlobal, storeNotFound } from '../http/authorizedStore.js';
import { AppError } from '../platform/errors.js';
import { findReplay, insertReplay } from './financeReplays.js';
import { runFinanceReplay } from './runFinanceReplay.js';
import { errorResponses } from '../http/errorResponses.js';

const errors = errorResponses(400, 401, 403, 404);

/**
 * Contract §Finance, for Order Protection's finance team (payouts and finance are internal resources,
 * held on every store): the payout ledger, and replays of it from the events beside the live one.
 */
export const financeRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/finance/payout-entries',
      {
        config: { auth: 'user', permission: 'payout:read' },
        schema: {
          tags: ['finance'],
          summary: "Payout entries decided in a period, valued in each store's currency",
          querystring: PayoutEntriesQuery,
          response: { 200: PayoutEntriesResponse, ...errors },
        },
      },
      async (request) => {
        authorizeGlobal(request, 'payout:read');
        const { storeId, from, to } = request.query;
        if (storeId && !(await findStore(ctx.database.db, storeId))) throw storeNotFound();
        const entries = await payoutEntries(ctx.database.db, { storeIds: storeId ? [storeId] : undefined, from, to });
        const numbers = await claimNumbers(
          ctx.database.db,
          entries.map((e) => e.claimId),
        );
        return {
          entries: entries.map((e) => {
            const claimNumber = numbers.get(e.claimId);
            return {
              id: e.id,
              storeId: e.storeId,
              claimId: e.claimId,
              resolutionType: e.resolutionType,
              amount: toDecimal(e.amount, e.currency),
              currency: e.currency,
              status: e.status,
              decidedAt: e.decidedAt,
              ...(claimNumber === undefined ? {} : { claimNumber }),
            };
          }),
        };
      },
    );

    app.get(
      '/api/finance/premiums',
      {
        config: { auth: 'user', permission: 'finance:read' },
        schema: {
          tags: ['finance'],
          summary: 'Premiums collected per store and currency in a period (a removed protection reverses its premium)',
          querystring: PayoutEntriesQuery,
          response: { 200: PremiumTotals, ...errors },
        },
      },
      async (request) => {
        authorizeGlobal(request, 'finance:read');
        const { storeId, from, to } = request.query;
        if (storeId && !(await findStore(ctx.database.db, storeId))) throw storeNotFound();
        const totals = await premiumTotals(ctx.database.db, { storeIds: storeId ? [storeId] : undefined, from, to });
        return { totals: totals.map((t) => ({ ...t, collected: toDecimal(t.collected, t.currency) })) };
      },
    );

    app.get(
      '/api/finance/monthly-totals',
      {
        config: { auth: 'user', permission: 'finance:read' },
        schema: {
          tags: ['finance'],
          summary: 'Premiums collected and payouts decided per UTC month, store and currency in a period',
          querystring: PayoutEntriesQuery,
          response: { 200: FinanceMonthlyTotals, ...errors },
        },
      },
      async (request) => {
        authorizeGlobal(request, 'finance:read');
        authorizeGlobal(request, 'payout:read');
        const { storeId, from, to } = request.query;
        if (storeId && !(await findStore(ctx.database.db, storeId))) throw storeNotFound();
        const months = await monthlyFinanceTotals(ctx.database.db, {
          storeIds: storeId ? [storeId] : undefined,
          from,
          to,
        });
        return {
          months: months.map((m) => ({
            ...m,
            premiums: toDecimal(m.premiums, m.currency),
            payouts: toDecimal(m.payouts, m.currency),
          })),
        };
      },
    );

    app.post(
      '/api/finance/replays',
      {
        config: { auth: 'user', permission: 'finance:create' },
        schema: {
          tags: ['finance'],
          summary:
            'Replay payouts, premiums and store credit of a period from the events (optionally under candidate money rules); 202 with its id',
          body: FinanceReplayRequest,
          response: { 202: z.object({ id: z.uuid() }), ...errors, 409: ApiError },
        },
      },
      async (request, reply) => {
        const principal = authorizeGlobal(request, 'finance:create');
        for (const storeId of request.body.storeIds ?? []) {
          if (!(await findStore(ctx.database.db, storeId))) throw storeNotFound();
        }
        const id = randomUUID();
        if (
          !(await insertReplay(
            ctx.database.db,
            id,
            principal.kind === 'user' ? principal.user.id : principal.token.id,
            request.body,
          ))
        ) {
          throw new AppError(
            'replay_running',
            'A replay of yours is still running; wait for it to finish before starting another.',
          );
        }
        void runFinanceReplay(ctx, id, request.body);
        return reply.code(202).send({ id });
      },
    );

    app.get(
      '/api/finance/replays/:id',
      {
        config: { auth: 'user', permission: 'finance:read' },
        schema: {
          tags: ['finance'],
          summary:
            "A replay's progress, its totals beside the live ledgers (payouts, premiums, store credit), and every difference",
          params: z.object({ id: z.uuid() }),
          response: { 200: FinanceReplayView, ...errors },
        },
      },
      async (request) => {
        authorizeGlobal(request, 'finance:read');
        const replay = await findReplay(ctx.database.db, request.params.id);
        if (!replay) throw new AppError('not_found', 'No replay matches that reference.');
        return withClaimNumbers(replay, await claimNumbers(ctx.database.db, claimsOfReplay(replay)));
      },
    );
  };
