import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApiError,
  BrandingView,
  UpdateBrandingRequest,
  UpdateWhitelabelRequest,
  WhitelabelListResponse,
  type Permission,
  StoreParams,
} from '@claims/contracts';
import { brandingContrast, brandingHistory } from '@claims/domain';
import type { AppContext } from '../context.js';
import { AppError } from '../platform/errors.js';
import { authorizedStore, authorizeGlobal } from '../http/authorizedStore.js';
import { metaOf } from '../http/requestMeta.js';
import { findStore, findStoreBySlugOrDomain, listStores } from '../catalog/storeRepository.js';
import { handleBranding, readBrandingStream } from './brandingStream.js';
import { errorResponses } from '../http/errorResponses.js';

const errors = errorResponses(400, 401, 403, 404);

/** The editor's view: the store's branding and domain now (its catalog row), every version, each contrast pair. */
async function viewOf(ctx: AppContext, storeId: string): Promise<BrandingView> {
  const store = await findStore(ctx.database.db, storeId);
  if (!store) throw new AppError('not_found', 'No store matches that reference.');
  const stream = await readBrandingStream(ctx.database.db, store.id);
  return {
    storeId: store.id,
    storeName: store.name,
    version: stream.version,
    branding: store.branding,
    domain: store.domain,
    revision: stream.state?.revision ?? 0,
    contrast: brandingContrast(store.branding),
    history: brandingHistory(stream.records).reverse(),
  };
}

/**
 * The branding editor and white label (`branding`, `whitelabel`: docs/product.md#branding): each change a version of the
 * store's `store-branding` stream with its actor and time, contrast checked by the decider.
 */
export const brandingRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const guard = (request: Parameters<typeof authorizedStore>[1], permission: Permission, storeId: string) =>
      authorizedStore(ctx, request, permission, storeId);

    app.get(
      '/api/admin/stores/:storeId/branding',
      {
        config: { auth: 'user', permission: 'branding:read' },
        schema: {
          tags: ['back-office'],
          summary: "The store's branding, custom domain, contrast checks and versions (branding:read)",
          params: StoreParams,
          response: { 200: BrandingView, ...errors },
        },
      },
      async (request) => {
        const { store } = await guard(request, 'branding:read', request.params.storeId);
        return viewOf(ctx, store.id);
      },
    );

    app.put(
      '/api/admin/stores/:storeId/branding',
      {
        config: { auth: 'user', permission: 'branding:update' },
        schema: {
          tags: ['back-office'],
          summary:
            "Save the store's branding (branding:update): refused with insufficient_contrast when a text colour pair is below WCAG AA",
          params: StoreParams,
          body: UpdateBrandingRequest,
          response: { 200: BrandingView, ...errors, 409: ApiError, 422: ApiError },
        },
      },
      async (request) => {
        const { store, principal } = await guard(request, 'branding:update', request.params.storeId);
        const handled = await handleBranding(
          ctx,
          store,
          metaOf(principal, request.id),
          {
            type: 'ChangeBranding',
            storeId: store.id,
            branding: request.body.branding,
            baseline: store.branding,
            now: ctx.now(),
          },
          request.body.expectedVersion,
        );
        if (handled.decided.length > 0)
          request.log.info({ storeId: store.id, version: handled.version }, 'branding changed');
        return viewOf(ctx, store.id);
      },
    );

    app.put(
      '/api/admin/stores/:storeId/whitelabel',
      {
        config: { auth: 'user', permission: 'whitelabel:update' },
        schema: {
          tags: ['back-office'],
          summary: "Set or remove the store's custom portal domain (whitelabel:update)",
          params: StoreParams,
          body: UpdateWhitelabelRequest,
          response: { 200: BrandingView, ...errors, 409: ApiError, 422: ApiError },
        },
      },
      async (request) => {
        const { store, principal } = await guard(request, 'whitelabel:update', request.params.storeId);
        const { domain, expectedVersion } = request.body;
        if (domain) {
          const holder = await findStoreBySlugOrDomain(ctx.database.db, { domain });
          if (holder && holder.id !== store.id)
            throw new AppError('domain_taken', `${domain} is already another store's portal domain.`);
        }
        await handleBranding(
          ctx,
          store,
          metaOf(principal, request.id),
          { type: 'SetPortalDomain', storeId: store.id, domain, baseline: store.domain, now: ctx.now() },
          expectedVersion,
        );
        return viewOf(ctx, store.id);
      },
    );

    app.post(
      '/api/admin/stores/:storeId/whitelabel/restart',
      {
        config: { auth: 'user', permission: 'whitelabel:restart' },
        schema: {
          tags: ['back-office'],
          summary:
            "Restart the store's white label (whitelabel:restart): shoppers' browsers fetch its logo, background and fonts again",
          params: StoreParams,
          response: { 200: BrandingView, ...errors },
        },
      },
      async (request) => {
        const { store, principal } = await guard(request, 'whitelabel:restart', request.params.storeId);
        await handleBranding(ctx, store, metaOf(principal, request.id), {
          type: 'RestartWhitelabel',
          storeId: store.id,
          domain: store.domain,
          now: ctx.now(),
        });
        return viewOf(ctx, store.id);
      },
    );

    app.get(
      '/api/admin/whitelabel',
      {
        config: { auth: 'user', permission: 'whitelabel:list' },
        schema: {
          tags: ['back-office'],
          summary: 'Every store with its custom portal domain and white-label revision (whitelabel:list)',
          response: { 200: WhitelabelListResponse, 401: ApiError, 403: ApiError },
        },
      },
      async (request) => {
        // Internal staff only: the permission is held on every store or not at all.
        authorizeGlobal(request, 'whitelabel:list');
        const rows = await Promise.all(
          (await listStores(ctx.database.db)).map(async (s) => ({
            storeId: s.id,
            storeName: s.name,
            domain: s.domain,
            revision: (await readBrandingStream(ctx.database.db, s.id)).state?.revision ?? 0,
          })),
        );
        return { stores: rows };
      },
    );
  };
