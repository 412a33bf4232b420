import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiError, PublicStore, SETTINGS_DEFAULTS, WhitelabelSettings, type Store } from '@claims/contracts';
import type { AppContext } from '../context.js';
import { findStore, findStoreBySlugOrDomain } from '../catalog/storeRepository.js';
import { AppError } from '../platform/errors.js';
import { readBrandingStream, withRevision } from '../branding/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `GET /api/stores/{id}`: the facts the portal needs about a store, nothing of its account. */
export function toPublicStore(store: Store): PublicStore {
  const acknowledgment = store.settings.claimAcknowledgment ?? SETTINGS_DEFAULTS.claimAcknowledgment;
  return {
    id: store.id,
    slug: store.slug,
    name: store.name,
    currency: store.currency,
    branding: store.branding,
    capabilities: store.settings.capabilities,
    credit: store.settings.credit,
    returns: store.settings.returns,
    claimAcknowledgment: acknowledgment.enabled && acknowledgment.message.trim() !== '' ? acknowledgment.message : null,
  };
}

const noStore = () => new AppError('not_found', 'No store matches that link.');

/** The portal omits the domain on localhost; so does the Host fallback (docs/product.md#http-client). */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export const storeRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/stores/:id',
      {
        schema: {
          tags: ['customer'],
          summary: 'Public facts of a store (by id or slug): name, capabilities, branding',
          params: z.object({ id: z.string().trim().min(1).max(100) }),
          response: { 200: PublicStore, 404: ApiError },
        },
      },
      async (request) => {
        const { id } = request.params;
        const store = UUID.test(id)
          ? await findStore(ctx.database.db, id)
          : await findStoreBySlugOrDomain(ctx.database.db, { slug: id });
        if (!store) throw noStore();
        return toPublicStore(store);
      },
    );

    app.get(
      '/api/whitelabel/settings',
      {
        schema: {
          tags: ['customer'],
          summary:
            "Branding of the portal, by store (id or slug), by the domain it is served on, else by the request's Host (a custom domain)",
          querystring: z.object({
            domain: z.string().trim().toLowerCase().max(253).optional(),
            store: z.string().trim().max(100).optional(),
          }),
          response: { 200: WhitelabelSettings, 404: ApiError },
        },
      },
      async (request) => {
        // Without either, the Host the request came to (X-Forwarded-Host behind a trusted proxy): a store's custom domain.
        const host = request.hostname.toLowerCase();
        const storeKey = request.query.store || undefined;
        const domain = request.query.domain || (storeKey || LOCAL_HOSTS.has(host) ? undefined : host);
        if (!domain && !storeKey) throw new AppError('not_found', 'Give a store or a domain to find its branding.');
        let store: Store | null = null;
        if (storeKey) {
          store = UUID.test(storeKey)
            ? await findStore(ctx.database.db, storeKey)
            : await findStoreBySlugOrDomain(ctx.database.db, { slug: storeKey });
        }
        if (!store && domain) store = await findStoreBySlugOrDomain(ctx.database.db, { domain });
        if (!store) throw noStore();
        const revision = (await readBrandingStream(ctx.database.db, store.id)).state?.revision ?? 0;
        return {
          storeId: store.id,
          storeName: store.name,
          branding: withRevision(store.branding, revision),
          contact: store.settings.contact ?? SETTINGS_DEFAULTS.contact,
          policies: store.settings.policies ?? SETTINGS_DEFAULTS.policies,
        };
      },
    );
  };
