import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SavedView, SavedViewInput, SavedViewList, savedViewsStreamOf, type SavedViewCommand } from '@claims/contracts';
import { savedViewsDecider, visibleViews, type SavedViewState } from '@claims/domain';
import type { AppContext } from '../context.js';
import { AppError } from '../platform/errors.js';
import { isInternal, type Principal, type UserPrincipal } from '../http/principal.js';
import { metaOf } from '../http/requestMeta.js';
import { handleCommand, loadAggregate } from '../eventsourcing/commandHandler.js';
import { errorResponses } from '../http/errorResponses.js';

const ViewParams = z.object({ viewId: z.uuid() });
const errors = errorResponses(400, 401, 403, 404, 409);
const viewNotFound = () => new AppError('not_found', 'No saved view you can see matches that reference.');

const toView = (view: SavedViewState, userId: string): SavedView => ({
  id: view.id,
  name: view.name,
  filters: view.filters,
  shared: view.shared,
  owner: view.owner,
  mine: view.owner.id === userId,
  createdAt: view.createdAt,
  updatedAt: view.updatedAt,
});

/**
 * The teams a user works in, whose shared views they see: Order Protection's staff, or each account
 * their roles reach (an account role's, or the account of a store they hold a role on), in a stable order.
 */
async function teamsOf(ctx: AppContext, principal: UserPrincipal): Promise<string[]> {
  if (isInternal(principal)) return ['staff'];
  const accounts = new Set(principal.grants.flatMap((g) => (g.accountId ? [g.accountId] : [])));
  const storeIds = principal.grants.flatMap((g) => (g.storeId ? [g.storeId] : []));
  if (storeIds.length > 0) {
    const { rows } = await sql<{
      account_id: string;
    }>`select distinct account_id from stores where id = any(${storeIds}::uuid[])`.execute(ctx.database.db);
    for (const row of rows) accounts.add(row.account_id);
  }
  return [...accounts].sort();
}

/**
 * Saved views of the claim queue, kept on the server per user and shareable with the team. One
 * stream per team holds every member's views (few, small): a list reads one stream per team.
 */
export const savedViewRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    /** The signed-in user (the routes' declared claim:read: views are of the claim queue). */
    function queueUser(principal: Principal): UserPrincipal {
      if (principal.kind !== 'user') throw new AppError('forbidden', 'Saved views belong to people, not API tokens.');
      return principal;
    }

    /** The team stream holding a view the user can see, with the view. */
    async function findView(user: UserPrincipal, viewId: string): Promise<{ team: string; view: SavedViewState }> {
      for (const team of await teamsOf(ctx, user)) {
        const { state } = await loadAggregate(ctx, savedViewsDecider, savedViewsStreamOf(team));
        const view = visibleViews(state, user.user.id).find((v) => v.id === viewId);
        if (view) return { team, view };
      }
      throw viewNotFound();
    }

    async function decide(
      user: UserPrincipal,
      team: string,
      command: SavedViewCommand,
      requestId: string,
      viewId: string,
    ): Promise<SavedViewState | null> {
      // Teammates saving at once each decide again on the other's change: different views never conflict.
      const handled = await handleCommand(ctx, {
        decider: savedViewsDecider,
        streamId: savedViewsStreamOf(team),
        storeId: null,
        command,
        meta: metaOf(user, requestId),
      });
      return handled.state?.views.find((v) => v.id === viewId) ?? null;
    }

    app.get(
      '/api/admin/saved-views',
      {
        config: { auth: 'user', permission: 'claim:read' },
        schema: {
          tags: ['back-office'],
          summary: 'Your saved views of the claim queue and those your team shares, oldest first',
          response: { 200: SavedViewList, ...errors },
        },
      },
      async (request) => {
        const user = queueUser(request.requirePrincipal());
        const views: SavedView[] = [];
        for (const team of await teamsOf(ctx, user)) {
          const { state } = await loadAggregate(ctx, savedViewsDecider, savedViewsStreamOf(team));
          views.push(...visibleViews(state, user.user.id).map((v) => toView(v, user.user.id)));
        }
        return { data: views };
      },
    );

    app.post(
      '/api/admin/saved-views',
      {
        config: { auth: 'user', permission: 'claim:read' },
        schema: {
          tags: ['back-office'],
          summary: "Save the queue's filters as a view, optionally shared with your team",
          body: SavedViewInput,
          response: { 201: SavedView, ...errors },
        },
      },
      async (request, reply) => {
        const user = queueUser(request.requirePrincipal());
        const { team: wanted, ...view } = request.body;
        const teams = await teamsOf(ctx, user);
        const team = wanted ?? teams[0];
        if (!team || !teams.includes(team)) throw new AppError('validation_failed', 'You are not on that team.');
        const viewId = randomUUID();
        const saved = await decide(
          user,
          team,
          {
            type: 'CreateSavedView',
            team,
            viewId,
            owner: { id: user.user.id, name: user.user.name },
            view,
            now: ctx.now(),
          },
          request.id,
          viewId,
        );
        if (!saved) throw viewNotFound();
        return reply.code(201).send(toView(saved, user.user.id));
      },
    );

    app.put(
      '/api/admin/saved-views/:viewId',
      {
        config: { auth: 'user', permission: 'claim:read' },
        schema: {
          tags: ['back-office'],
          summary: 'Rename, re-filter, share or unshare your view (only its owner may)',
          params: ViewParams,
          body: SavedViewInput.omit({ team: true }),
          response: { 200: SavedView, ...errors },
        },
      },
      async (request) => {
        const user = queueUser(request.requirePrincipal());
        const { team } = await findView(user, request.params.viewId);
        const saved = await decide(
          user,
          team,
          {
            type: 'UpdateSavedView',
            viewId: request.params.viewId,
            actorId: user.user.id,
            view: request.body,
            now: ctx.now(),
          },
          request.id,
          request.params.viewId,
        );
        if (!saved) throw viewNotFound();
        return toView(saved, user.user.id);
      },
    );

    app.delete(
      '/api/admin/saved-views/:viewId',
      {
        config: { auth: 'user', permission: 'claim:read' },
        schema: {
          tags: ['back-office'],
          summary: 'Delete your view (only its owner may)',
          params: ViewParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const user = queueUser(request.requirePrincipal());
        const { team } = await findView(user, request.params.viewId);
        await decide(
          user,
          team,
          { type: 'DeleteSavedView', viewId: request.params.viewId, actorId: user.user.id, now: ctx.now() },
          request.id,
          request.params.viewId,
        );
        return reply.code(204).send(null);
      },
    );
  };
