import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CLAIM_STATUS_LABELS,
  CreateMacroRequest,
  macroValuesFor,
  renderMacro,
  MacroList,
  MacroView,
  RenderedMacro,
  UpdateMacroRequest,
  VersionedQuery,
  type Permission,
  StoreParams,
} from '@claims/contracts';
import { macroDecider, type MacroState } from '@claims/domain';
import type { AppContext, RequestMeta } from '../context.js';
import { AppError } from '../platform/errors.js';
import { permissionsAt } from '../http/principal.js';
import { findStore } from '../catalog/storeRepository.js';
import { authorizedClaim } from '../http/authorizedClaim.js';
import { metaOf } from '../http/requestMeta.js';
import { authorizedStore, authorizeGlobal } from '../http/authorizedStore.js';
import { editDocument, editLiveDocument, listDocuments } from '../eventsourcing/documentAggregates.js';
import { loadAggregate } from '../eventsourcing/commandHandler.js';
import { errorResponses } from '../http/errorResponses.js';

const MacroParams = z.object({ macroId: z.uuid() });
const errors = errorResponses(400, 401, 403, 404, 409);
/** WRONG_ITEM → "Wrong item" (claim types have no labels of their own). */
const humanise = (code: string) => code.charAt(0) + code.slice(1).toLowerCase().replace(/_/g, ' ');
const macroNotFound = () => new AppError('not_found', 'No macro matches that reference.');

const toView = ({ state, version }: { state: MacroState; version: number }): MacroView => ({
  id: state.id,
  scope: state.storeId ? 'store' : 'global',
  storeId: state.storeId,
  name: state.name,
  kind: state.kind,
  body: state.body,
  resolution: state.resolution,
  version,
  createdAt: state.createdAt,
  updatedAt: state.updatedAt,
});

/** A macro of a store, or a global one (`storeId` null): the edits are the same for both. */
type MacroRef = { id: string; storeId: string | null };

async function createMacro(
  ctx: AppContext,
  storeId: string | null,
  macro: z.infer<typeof CreateMacroRequest>,
  meta: RequestMeta,
): Promise<MacroView> {
  const macroId = randomUUID();
  const command = { type: 'CreateMacro' as const, macroId, storeId, macro, now: ctx.now() };
  return toView(await editDocument(ctx, macroDecider, macroId, storeId, command, meta));
}

async function replaceMacro(
  ctx: AppContext,
  ref: MacroRef,
  { expectedVersion, ...macro }: z.infer<typeof UpdateMacroRequest>,
  meta: RequestMeta,
): Promise<MacroView> {
  const command = { type: 'UpdateMacro' as const, macroId: ref.id, macro, now: ctx.now() };
  return toView(await editLiveDocument(ctx, macroDecider, macroNotFound, ref, command, meta, expectedVersion));
}

async function deleteMacro(
  ctx: AppContext,
  ref: MacroRef,
  expectedVersion: number | undefined,
  meta: RequestMeta,
): Promise<void> {
  const command = { type: 'DeleteMacro' as const, macroId: ref.id, now: ctx.now() };
  await editLiveDocument(ctx, macroDecider, macroNotFound, ref, command, meta, expectedVersion);
}

/**
 * Macros: canned replies and resolutions with `{{placeholders}}`, per store (`macro:*`) or global
 * (`global-macro:*`, Order Protection only). Each macro is its own stream; lists fold the streams.
 */
export const macroRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // ---- store macros
    app.get(
      '/api/admin/stores/:storeId/macros',
      {
        config: { auth: 'user', permission: 'macro:read' },
        schema: {
          tags: ['back-office'],
          summary: "The store's macros, oldest first",
          params: StoreParams,
          response: { 200: MacroList, ...errors },
        },
      },
      async (request) => {
        const { store } = await authorizedStore(ctx, request, 'macro:read', request.params.storeId);
        return { data: (await listDocuments(ctx, macroDecider, 'macro', store.id)).map(toView) };
      },
    );

    app.post(
      '/api/admin/stores/:storeId/macros',
      {
        config: { auth: 'user', permission: 'macro:create' },
        schema: {
          tags: ['back-office'],
          summary: 'Create a store macro',
          params: StoreParams,
          body: CreateMacroRequest,
          response: { 201: MacroView, ...errors },
        },
      },
      async (request, reply) => {
        const { store, principal } = await authorizedStore(ctx, request, 'macro:create', request.params.storeId);
        return reply.code(201).send(await createMacro(ctx, store.id, request.body, metaOf(principal, request.id)));
      },
    );

    app.put(
      '/api/admin/stores/:storeId/macros/:macroId',
      {
        config: { auth: 'user', permission: 'macro:update' },
        schema: {
          tags: ['back-office'],
          summary: 'Replace a store macro',
          params: StoreParams.extend(MacroParams.shape),
          body: UpdateMacroRequest,
          response: { 200: MacroView, ...errors },
        },
      },
      async (request) => {
        const { store, principal } = await authorizedStore(ctx, request, 'macro:update', request.params.storeId);
        const ref = { id: request.params.macroId, storeId: store.id };
        return replaceMacro(ctx, ref, request.body, metaOf(principal, request.id));
      },
    );

    app.delete(
      '/api/admin/stores/:storeId/macros/:macroId',
      {
        config: { auth: 'user', permission: 'macro:delete' },
        schema: {
          tags: ['back-office'],
          summary: 'Delete a store macro',
          params: StoreParams.extend(MacroParams.shape),
          querystring: VersionedQuery,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const { store, principal } = await authorizedStore(ctx, request, 'macro:delete', request.params.storeId);
        const ref = { id: request.params.macroId, storeId: store.id };
        await deleteMacro(ctx, ref, request.query.expectedVersion, metaOf(principal, request.id));
        return reply.code(204).send(null);
      },
    );

    // ---- global macros (no store: only roles holding the permission on every store)
    app.get(
      '/api/admin/global-macros',
      {
        config: { auth: 'user', permission: 'global-macro:read' },
        schema: { tags: ['back-office'], summary: 'The global macros', response: { 200: MacroList, ...errors } },
      },
      async (request) => {
        authorizeGlobal(request, 'global-macro:read');
        return { data: (await listDocuments(ctx, macroDecider, 'macro', null)).map(toView) };
      },
    );

    app.post(
      '/api/admin/global-macros',
      {
        config: { auth: 'user', permission: 'global-macro:create' },
        schema: {
          tags: ['back-office'],
          summary: 'Create a global macro',
          body: CreateMacroRequest,
          response: { 201: MacroView, ...errors },
        },
      },
      async (request, reply) => {
        const principal = authorizeGlobal(request, 'global-macro:create');
        return reply.code(201).send(await createMacro(ctx, null, request.body, metaOf(principal, request.id)));
      },
    );

    app.put(
      '/api/admin/global-macros/:macroId',
      {
        config: { auth: 'user', permission: 'global-macro:update' },
        schema: {
          tags: ['back-office'],
          summary: 'Replace a global macro',
          params: MacroParams,
          body: UpdateMacroRequest,
          response: { 200: MacroView, ...errors },
        },
      },
      async (request) => {
        const principal = authorizeGlobal(request, 'global-macro:update');
        const ref = { id: request.params.macroId, storeId: null };
        return replaceMacro(ctx, ref, request.body, metaOf(principal, request.id));
      },
    );

    app.delete(
      '/api/admin/global-macros/:macroId',
      {
        config: { auth: 'user', permission: 'global-macro:delete' },
        schema: {
          tags: ['back-office'],
          summary: 'Delete a global macro',
          params: MacroParams,
          querystring: VersionedQuery,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const principal = authorizeGlobal(request, 'global-macro:delete');
        const ref = { id: request.params.macroId, storeId: null };
        await deleteMacro(ctx, ref, request.query.expectedVersion, metaOf(principal, request.id));
        return reply.code(204).send(null);
      },
    );

    // ---- rendering for one claim
    app.post(
      '/api/admin/claims/:claimId/macros/:macroId/render',
      {
        config: { auth: 'user', permission: 'claim:read' },
        schema: {
          tags: ['back-office'],
          summary:
            "A macro filled in for this claim: the reply text and, for a resolution macro, the resolve form's preset",
          params: z.object({ claimId: z.string().min(1).max(100), macroId: z.uuid() }),
          response: { 200: RenderedMacro, ...errors },
        },
      },
      async (request) => {
        const { state: claim } = await authorizedClaim(ctx, request, 'claim:read', request.params.claimId);
        const loaded = await loadAggregate(ctx, macroDecider, request.params.macroId);
        const macro = loaded.state;
        // Another store's macro is as missing as an unknown one.
        if (!macro || macro.deleted || (macro.storeId !== null && macro.storeId !== claim.storeId))
          throw macroNotFound();
        const needed: Permission = macro.storeId ? 'macro:read' : 'global-macro:read';
        const principal = request.requirePrincipal();
        if (!permissionsAt(principal, claim.storeId)?.has(needed))
          throw new AppError('forbidden', `You need the ${needed} permission for this.`);
        const store = await findStore(ctx.database.db, claim.storeId);
        const values = macroValuesFor({
          customer: claim.customer,
          claimNumber: claim.claimNumber,
          statusLabel: CLAIM_STATUS_LABELS[claim.status],
          claimType: humanise(claim.claimType),
          orderNumber: claim.orderNumber,
          storeName: store?.name ?? '',
          agentName: principal.kind === 'user' ? principal.user.name : principal.token.name,
        });
        const resolution = macro.resolution && {
          ...macro.resolution,
          ...(macro.resolution.description === undefined
            ? {}
            : { description: renderMacro(macro.resolution.description, values) }),
        };
        return { macroId: macro.id, kind: macro.kind, body: renderMacro(macro.body, values), resolution };
      },
    );
  };
