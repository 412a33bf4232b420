import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApiError,
  OperationsView,
  ParkedEventOutcome,
  ParkedEventParams,
  ParkedReactionOutcome,
  ParkedReactionParams,
  ProjectionParams,
  RebuildStarted,
} from '@claims/contracts';
import { listRebuilds, PROJECTIONS, RebuildRunning, retryParked, skipParked, startRebuild } from '@claims/projections';
import type { AppContext } from '../context.js';
import { authorizeGlobal } from '../http/authorizedStore.js';
import type { Principal } from '../http/principal.js';
import { AppError } from './errors.js';
import type { Reaction } from '../eventsourcing/reactions.js';
import { retryParkedReaction, skipParkedReaction } from '../eventsourcing/reactionFaults.js';
import type { OperationsReader } from './operations.js';
import { errorResponses } from '../http/errorResponses.js';

const errors = errorResponses(401, 403, 404);
const operatorOf = (principal: Principal) => (principal.kind === 'user' ? principal.user.id : principal.token.id);
const notParked = () => new AppError('not_found', 'That event is not parked by that projection.');
const notParkedByReaction = () =>
  new AppError('not_found', 'That event is not parked by that reaction (or was already retried or skipped).');

/**
 * The back-office's operations page (issue "projectors that can never stop silently"), for Order
 * Protection's staff: `admin-stores:read` to look — an internal resource no merchant role holds, which
 * the admin, finance and implementation roles do (`implementation:read` would leave the admin out) —
 * and `admin-stores:update` (the admin) to retry or skip a parked event, which changes a read model.
 */
export const operationsRoutes =
  (ctx: AppContext, reader: OperationsReader, reactions: readonly Reaction[]): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/operations',
      {
        config: { auth: 'user', permission: 'admin-stores:read' },
        schema: {
          tags: ['operations'],
          summary: 'Projectors, relay and reactions: positions, lag, parked and quarantined events, readiness',
          response: { 200: OperationsView, ...errors },
        },
      },
      async (request) => {
        authorizeGlobal(request, 'admin-stores:read');
        return reader.read();
      },
    );

    app.post(
      '/api/admin/operations/parked/:projection/:eventId/retry',
      {
        config: { auth: 'user', permission: 'admin-stores:update' },
        schema: {
          tags: ['operations'],
          summary: 'Applies a parked event again and un-parks it; still failing, it stays parked with the new error',
          params: ParkedEventParams,
          response: { 200: ParkedEventOutcome, 422: ApiError, ...errors },
        },
      },
      async (request) => {
        const principal = authorizeGlobal(request, 'admin-stores:update');
        const { projection: name, eventId } = request.params;
        const projection = PROJECTIONS.find((p) => p.name === name);
        if (!projection) throw notParked();
        const result = await retryParked(ctx.database.db, projection, eventId);
        if (result.outcome === 'not_parked') throw notParked();
        if (result.outcome === 'failed')
          throw new AppError('apply_failed', `${name} still cannot apply the event: ${result.error}`);
        ctx.log.info(
          { projection: name, eventId, by: operatorOf(principal) },
          "parked event applied on an operator's retry",
        );
        return { projection: name, eventId, outcome: 'applied' as const };
      },
    );

    app.post(
      '/api/admin/operations/parked/:projection/:eventId/skip',
      {
        config: { auth: 'user', permission: 'admin-stores:update' },
        schema: {
          tags: ['operations'],
          summary: 'Gives a parked event up: the read model stays without it',
          params: ParkedEventParams,
          response: { 200: ParkedEventOutcome, ...errors },
        },
      },
      async (request) => {
        const principal = authorizeGlobal(request, 'admin-stores:update');
        const { projection, eventId } = request.params;
        if (!(await skipParked(ctx.database.db, projection, eventId))) throw notParked();
        ctx.log.warn(
          { projection, eventId, by: operatorOf(principal) },
          'parked event skipped by an operator; the read model stays without it',
        );
        return { projection, eventId, outcome: 'skipped' as const };
      },
    );

    // A reaction's parked event keeps its row once retried or skipped: who decided, and when, is its audit record.
    app.post(
      '/api/admin/operations/reactions/:reaction/parked/:eventId/retry',
      {
        config: { auth: 'user', permission: 'admin-stores:update' },
        schema: {
          tags: ['operations'],
          summary:
            'Runs the reaction on its parked event again; handled, it is no longer parked, still failing it stays parked with the new error',
          params: ParkedReactionParams,
          response: { 200: ParkedReactionOutcome, 422: ApiError, ...errors },
        },
      },
      async (request) => {
        const principal = authorizeGlobal(request, 'admin-stores:update');
        const { reaction: name, eventId } = request.params;
        const reaction = reactions.find((r) => r.name === name);
        if (!reaction) throw notParkedByReaction();
        const by = operatorOf(principal);
        const result = await retryParkedReaction(ctx, reaction, eventId, by);
        if (result.outcome === 'not_parked') throw notParkedByReaction();
        if (result.outcome === 'failed')
          throw new AppError('apply_failed', `${name} still cannot handle the event: ${result.error}`);
        ctx.log.info({ reaction: name, eventId, by }, "parked reaction event handled on an operator's retry");
        return { reaction: name, eventId, outcome: 'handled' as const };
      },
    );

    app.post(
      '/api/admin/operations/reactions/:reaction/parked/:eventId/skip',
      {
        config: { auth: 'user', permission: 'admin-stores:update' },
        schema: {
          tags: ['operations'],
          summary: "Gives a reaction's parked event up: the reaction never handles it",
          params: ParkedReactionParams,
          response: { 200: ParkedReactionOutcome, ...errors },
        },
      },
      async (request) => {
        const principal = authorizeGlobal(request, 'admin-stores:update');
        const { reaction, eventId } = request.params;
        const by = operatorOf(principal);
        if (!(await skipParkedReaction(ctx.database.db, reaction, eventId, by))) throw notParkedByReaction();
        ctx.log.warn(
          { reaction, eventId, by },
          'parked reaction event skipped by an operator; the reaction never handles it',
        );
        return { reaction, eventId, outcome: 'skipped' as const };
      },
    );

    app.post(
      '/api/admin/operations/projections/:projection/rebuild',
      {
        config: { auth: 'user', permission: 'admin-stores:update' },
        schema: {
          tags: ['operations'],
          summary:
            'Rebuilds a read model beside the live one from every event, then switches to it in one step; queries read the old one until then',
          params: ProjectionParams,
          response: { 202: RebuildStarted, 409: ApiError, ...errors },
        },
      },
      async (request, reply) => {
        const principal = authorizeGlobal(request, 'admin-stores:update');
        const projection = PROJECTIONS.find((p) => p.name === request.params.projection);
        if (!projection) throw new AppError('not_found', 'No projection has that name.');
        try {
          const started = await startRebuild(ctx.database.db, projection);
          // The request answers once the rebuild holds its lock; the build itself goes on in this process.
          started.finished.then(
            (result) =>
              ctx.log.info(
                { projection: projection.name, ...result, by: operatorOf(principal) },
                'projection rebuilt and switched in',
              ),
            (error: unknown) =>
              ctx.log.error(
                { err: error, projection: projection.name },
                'projection rebuild failed; the live read model is unchanged',
              ),
          );
        } catch (error) {
          if (error instanceof RebuildRunning)
            throw new AppError('rebuild_running', `A rebuild of ${projection.name} is already running.`);
          throw error;
        }
        ctx.log.info(
          { projection: projection.name, by: operatorOf(principal) },
          'projection rebuild started by an operator',
        );
        const record = (await listRebuilds(ctx.database.db)).find((r) => r.projection === projection.name)!;
        const { projection: _name, ...rebuild } = record;
        return reply.code(202).send({ projection: projection.name, rebuild });
      },
    );
  };
