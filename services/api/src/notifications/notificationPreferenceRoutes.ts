import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  NotificationSettingsList,
  notificationPreferencesStreamOf,
  SetNotificationPreferencesRequest,
  StoreNotificationSettings,
  TeamNotificationKind,
  type RoleName,
  type Store,
  StoreParams,
} from '@claims/contracts';
import { memberGetsMail, memberPreferencesDecider, type MemberPreferences } from '@claims/domain';
import type { AppContext } from '../context.js';
import { AppError } from '../platform/errors.js';
import type { Principal } from '../http/principal.js';
import { findStore } from '../catalog/storeRepository.js';
import { handleCommand, loadAggregate } from '../eventsourcing/commandHandler.js';
import { storeNotFound } from '../http/authorizedStore.js';
import { metaOf } from '../http/requestMeta.js';
import { errorResponses } from '../http/errorResponses.js';

const errors = errorResponses(400, 401, 403, 404);

/** The member's roles at each store their own (not Order Protection's) grants reach: team mail is about a member's stores. */
function memberRoles(principal: Principal): Map<string, RoleName[]> {
  if (principal.kind !== 'user') throw new AppError('forbidden', 'Mail settings belong to signed-in team members.');
  const roles = new Map<string, RoleName[]>();
  for (const grant of principal.grants) {
    if (grant.level === 'internal' || grant.stores === 'all') continue;
    for (const storeId of grant.stores) roles.set(storeId, [...(roles.get(storeId) ?? []), grant.role]);
  }
  return roles;
}

function settingsOf(
  store: Store,
  userId: string,
  roles: readonly RoleName[],
  preferences: MemberPreferences,
): StoreNotificationSettings {
  return {
    store: { id: store.id, slug: store.slug, name: store.name },
    settings: TeamNotificationKind.options.map((kind) => ({
      kind,
      enabled: memberGetsMail(preferences, userId, roles, kind),
      chosen: preferences.get(userId)?.[kind] !== undefined,
    })),
  };
}

/**
 * A team member's own choice of the mail they get about each store's claims (new claims, customer replies): one
 * `notification-preferences:<store id>` stream per store; nobody chooses for someone else.
 */
export const notificationPreferenceRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/notification-preferences',
      {
        config: { auth: 'user', permission: 'signed-in' },
        schema: {
          tags: ['back-office'],
          summary: "The signed-in member's mail settings, per store they belong to",
          response: { 200: NotificationSettingsList, ...errors },
        },
      },
      async (request) => {
        const principal = request.requirePrincipal();
        const data: StoreNotificationSettings[] = [];
        for (const [storeId, roles] of memberRoles(principal)) {
          const store = await findStore(ctx.database.db, storeId);
          if (!store || principal.kind !== 'user') continue;
          const preferences = await loadAggregate(
            ctx,
            memberPreferencesDecider,
            notificationPreferencesStreamOf(store.id),
          );
          data.push(settingsOf(store, principal.user.id, roles, preferences.state));
        }
        return { data: data.sort((a, b) => a.store.name.localeCompare(b.store.name)) };
      },
    );

    app.put(
      '/api/admin/stores/:storeId/notification-preferences',
      {
        config: { auth: 'user', permission: 'signed-in' },
        schema: {
          tags: ['back-office'],
          summary: "Choose which mail the signed-in member gets about this store's claims",
          params: StoreParams,
          body: SetNotificationPreferencesRequest,
          response: { 200: StoreNotificationSettings, ...errors },
        },
      },
      async (request) => {
        const principal = request.requirePrincipal();
        const roles = memberRoles(principal).get(request.params.storeId);
        const store = roles && (await findStore(ctx.database.db, request.params.storeId));
        if (!roles || !store || principal.kind !== 'user') throw storeNotFound();
        const handled = await handleCommand(ctx, {
          decider: memberPreferencesDecider,
          streamId: notificationPreferencesStreamOf(store.id),
          storeId: store.id,
          meta: metaOf(principal, request.id),
          command: {
            type: 'SetNotificationPreferences',
            storeId: store.id,
            userId: principal.user.id,
            settings: request.body.settings,
            now: ctx.now(),
          },
        });
        return settingsOf(store, principal.user.id, roles, handled.state);
      },
    );
  };
