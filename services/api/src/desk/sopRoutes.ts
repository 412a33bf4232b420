import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  VersionedQuery,
  CreateSopRequest,
  type Permission,
  type SopCommand,
  SetSopStateRequest,
  SopList,
  SopListQuery,
  SopView,
  UpdateSopRequest,
  StoreParams,
} from '@claims/contracts';
import { sopDecider, type SopAggregate } from '@claims/domain';
import type { AppContext } from '../context.js';
import { AppError } from '../platform/errors.js';
import { metaOf } from '../http/requestMeta.js';
import { authorizedStore } from '../http/authorizedStore.js';
import { editDocument, editLiveDocument, listDocuments } from '../eventsourcing/documentAggregates.js';
import { errorResponses } from '../http/errorResponses.js';

const SopParams = StoreParams.extend({ sopId: z.uuid() });
type SopParams = z.infer<typeof SopParams>;
const errors = errorResponses(400, 401, 403, 404, 409, 422);

const toView = ({ state, version }: { state: SopAggregate; version: number }): SopView => ({
  id: state.id,
  storeId: state.storeId,
  title: state.title,
  body: state.body,
  state: state.state,
  version,
  createdAt: state.createdAt,
  updatedAt: state.updatedAt,
});

const sopNotFound = () => new AppError('not_found', 'No SOP matches that reference.');

/** An edit of the live SOP in the path (404 when there is none) by a user holding `permission` on its store. */
async function editSop(
  ctx: AppContext,
  request: FastifyRequest & { params: SopParams },
  permission: Permission,
  command: SopCommand,
  expectedVersion: number | undefined,
) {
  const { storeId, sopId } = request.params;
  const { store, principal } = await authorizedStore(ctx, request, permission, storeId);
  const ref = { id: sopId, storeId: store.id };
  return editLiveDocument(ctx, sopDecider, sopNotFound, ref, command, metaOf(principal, request.id), expectedVersion);
}

/** A store's standard operating procedures (`sop:*`; publishing and archiving: `sop:set-state`), one stream each. */
export const sopRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/stores/:storeId/sops',
      {
        config: { auth: 'user', permission: 'sop:read' },
        schema: {
          tags: ['back-office'],
          summary: "The store's SOPs, oldest first (?state= filters)",
          params: StoreParams,
          querystring: SopListQuery,
          response: { 200: SopList, ...errors },
        },
      },
      async (request) => {
        const { store } = await authorizedStore(ctx, request, 'sop:read', request.params.storeId);
        const all = (await listDocuments(ctx, sopDecider, 'sop', store.id)).map(toView);
        return { data: request.query.state ? all.filter((s) => s.state === request.query.state) : all };
      },
    );

    app.post(
      '/api/admin/stores/:storeId/sops',
      {
        config: { auth: 'user', permission: 'sop:create' },
        schema: {
          tags: ['back-office'],
          summary: 'Write an SOP (it starts as a draft)',
          params: StoreParams,
          body: CreateSopRequest,
          response: { 201: SopView, ...errors },
        },
      },
      async (request, reply) => {
        const { store, principal } = await authorizedStore(ctx, request, 'sop:create', request.params.storeId);
        const sopId = randomUUID();
        const created = await editDocument(
          ctx,
          sopDecider,
          sopId,
          store.id,
          { type: 'CreateSop', sopId, storeId: store.id, sop: request.body, now: ctx.now() },
          metaOf(principal, request.id),
        );
        return reply.code(201).send(toView(created));
      },
    );

    app.put(
      '/api/admin/stores/:storeId/sops/:sopId',
      {
        config: { auth: 'user', permission: 'sop:update' },
        schema: {
          tags: ['back-office'],
          summary: 'Rewrite an SOP (not while archived)',
          params: SopParams,
          body: UpdateSopRequest,
          response: { 200: SopView, ...errors },
        },
      },
      async (request) => {
        const { expectedVersion, ...sop } = request.body;
        const command = { type: 'UpdateSop' as const, sopId: request.params.sopId, sop, now: ctx.now() };
        return toView(await editSop(ctx, request, 'sop:update', command, expectedVersion));
      },
    );

    app.post(
      '/api/admin/stores/:storeId/sops/:sopId/state',
      {
        config: { auth: 'user', permission: 'sop:set-state' },
        schema: {
          tags: ['back-office'],
          summary: 'Publish, unpublish, archive or restore an SOP (draft ↔ active → archived → draft)',
          params: SopParams,
          body: SetSopStateRequest,
          response: { 200: SopView, ...errors },
        },
      },
      async (request) => {
        const { expectedVersion, state } = request.body;
        const command = { type: 'SetSopState' as const, sopId: request.params.sopId, state, now: ctx.now() };
        return toView(await editSop(ctx, request, 'sop:set-state', command, expectedVersion));
      },
    );

    app.delete(
      '/api/admin/stores/:storeId/sops/:sopId',
      {
        config: { auth: 'user', permission: 'sop:delete' },
        schema: {
          tags: ['back-office'],
          summary: 'Delete an SOP',
          params: SopParams,
          querystring: VersionedQuery,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const command = { type: 'DeleteSop' as const, sopId: request.params.sopId, now: ctx.now() };
        await editSop(ctx, request, 'sop:delete', command, request.query.expectedVersion);
        return reply.code(204).send(null);
      },
    );
  };
