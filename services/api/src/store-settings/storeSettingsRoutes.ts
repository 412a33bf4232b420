import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApiError,
  EDITABLE_SETTINGS_GROUPS,
  SETTINGS_GROUP_ACCESS,
  SETTINGS_GROUP_LABELS,
  SETTINGS_GROUPS,
  SettingsChange,
  SettingsChangeInput,
  SettingsGroup,
  SettingsGroupView,
  SettingsHistoryQuery,
  SettingsHistoryResponse,
  StoreSettingsQuery,
  StoreSettingsView,
  updateSettingsRequest,
  type Permission,
  type SettingsVersionRef,
  type Store,
  StoreParams,
} from '@claims/contracts';
import {
  settingsAsOf,
  settingsEventTime,
  settingsHistory,
  settingsValuesOf,
  type StoreSettingsState,
} from '@claims/domain';
import type { AppContext } from '../context.js';
import { AppError } from '../platform/errors.js';
import { visibleStore } from '../http/authorizedStore.js';
import { metaOf } from '../http/requestMeta.js';
import { changeStoreSettings, readSettingsStream, type SettingsStream } from './storeSettingsStream.js';
import { errorResponses } from '../http/errorResponses.js';

const errors = errorResponses(400, 401, 403, 404);
const forbidden = (permission: Permission) =>
  new AppError('forbidden', `You need the ${permission} permission for this.`);

/** The settings at the moment asked (now, or `asOf`), with the stream's version then. */
function settingsAt(
  store: Store,
  stream: SettingsStream,
  asOf: string | undefined,
): { state: StoreSettingsState | null; version: number } {
  if (asOf === undefined || stream.records.length === 0) return { state: stream.state, version: stream.version };
  const state = settingsAsOf(
    stream.records.map((r) => r.event),
    asOf,
  );
  if (!state) throw new AppError('not_found', `${store.name} had no settings recorded by ${asOf}.`);
  return { state, version: state.version };
}

/** Who changed a group last and when: the version its state names, found among the records. */
function lastChangeOf(stream: SettingsStream, version: number | undefined): SettingsVersionRef | null {
  const record = stream.records.find((r) => r.version === version);
  const at = record && settingsEventTime(record.event);
  return record && at ? { version: record.version, at, actor: record.actor } : null;
}

/** The answer for the groups asked: each with its value then, whether the caller may change it, and its last change. */
function viewOf(
  store: Store,
  stream: SettingsStream,
  held: ReadonlySet<Permission>,
  groups: readonly SettingsGroup[],
  asOf: string | undefined,
): StoreSettingsView {
  const { state, version } = settingsAt(store, stream, asOf);
  const values = settingsValuesOf(state?.settings ?? store.settings);
  const updatable = (group: SettingsGroup) => {
    const permission = SETTINGS_GROUP_ACCESS[group].update;
    return asOf === undefined && permission !== null && held.has(permission);
  };
  // Each view is parsed: which value goes with which group is a pairing TypeScript checks only per literal.
  const views = groups.flatMap((group) => {
    if (group === 'general' || group === 'branding') {
      if (asOf !== undefined) return [];
      const value =
        group === 'general'
          ? { name: store.name, slug: store.slug, domain: store.domain, currency: store.currency }
          : store.branding;
      return [SettingsGroupView.parse({ group, value, updatable: false, lastChange: null })];
    }
    return [
      SettingsGroupView.parse({
        group,
        value: values[group],
        updatable: updatable(group),
        lastChange: lastChangeOf(stream, state?.changedIn[group]),
      }),
    ];
  });
  return {
    storeId: store.id,
    storeName: store.name,
    version,
    asOf: asOf === undefined ? null : new Date(asOf).toISOString(),
    groups: views,
  };
}

const readable = (held: ReadonlySet<Permission>) =>
  SETTINGS_GROUPS.filter((group) => held.has(SETTINGS_GROUP_ACCESS[group].read));
/** Any group's read permission lets a caller in; which groups they then see is the handler's. */
const readsOf = (groups: readonly SettingsGroup[]) => ({
  anyOf: [...new Set(groups.map((group) => SETTINGS_GROUP_ACCESS[group].read))],
});

/**
 * A store's settings (docs/product.md#settings-groups): each group read and changed with its own permission;
 * the editable ones are versions of the store's settings stream, with their history and `?asOf=`.
 */
export const storeSettingsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/stores/:storeId/settings',
      {
        config: { auth: 'user', permission: readsOf(SETTINGS_GROUPS) },
        schema: {
          tags: ['back-office'],
          summary: 'Every settings group the caller may read (as of a time with asOf)',
          params: StoreParams,
          querystring: StoreSettingsQuery,
          response: { 200: StoreSettingsView, ...errors },
        },
      },
      async (request) => {
        const { store, held } = await visibleStore(ctx, request, request.params.storeId);
        const groups = readable(held);
        if (groups.length === 0) throw new AppError('forbidden', "You may read none of this store's settings.");
        return viewOf(store, await readSettingsStream(ctx, store.id), held, groups, request.query.asOf);
      },
    );

    app.get(
      '/api/admin/stores/:storeId/settings/history',
      {
        config: { auth: 'user', permission: readsOf(EDITABLE_SETTINGS_GROUPS) },
        schema: {
          tags: ['back-office'],
          summary: 'Every version of the settings groups the caller may read: who, when, which fields (newest first)',
          params: StoreParams,
          querystring: SettingsHistoryQuery,
          response: { 200: SettingsHistoryResponse, ...errors },
        },
      },
      async (request) => {
        const { store, held } = await visibleStore(ctx, request, request.params.storeId);
        const asked = request.query.group;
        if (asked && !held.has(SETTINGS_GROUP_ACCESS[asked].read)) throw forbidden(SETTINGS_GROUP_ACCESS[asked].read);
        const groups = EDITABLE_SETTINGS_GROUPS.filter((group) =>
          asked ? group === asked : held.has(SETTINGS_GROUP_ACCESS[group].read),
        );
        if (groups.length === 0) throw new AppError('forbidden', "You may read none of this store's settings.");
        const stream = await readSettingsStream(ctx, store.id);
        const entries = settingsHistory(stream.records)
          .filter((entry) => groups.includes(entry.group))
          .reverse();
        return { storeId: store.id, version: stream.version, entries };
      },
    );

    app.get(
      '/api/admin/stores/:storeId/settings/:group',
      {
        config: { auth: 'user', permission: readsOf(SETTINGS_GROUPS) },
        schema: {
          tags: ['back-office'],
          summary: 'One settings group (as of a time with asOf)',
          params: StoreParams.extend({ group: SettingsGroup }),
          querystring: StoreSettingsQuery,
          response: { 200: StoreSettingsView, ...errors },
        },
      },
      async (request) => {
        const { group, storeId } = request.params;
        const { store, held } = await visibleStore(ctx, request, storeId);
        if (!held.has(SETTINGS_GROUP_ACCESS[group].read)) throw forbidden(SETTINGS_GROUP_ACCESS[group].read);
        if (request.query.asOf !== undefined && (group === 'general' || group === 'branding')) {
          throw new AppError(
            'validation_failed',
            `${SETTINGS_GROUP_LABELS[group]} has no history here: ask without asOf.`,
          );
        }
        return viewOf(store, await readSettingsStream(ctx, store.id), held, [group], request.query.asOf);
      },
    );

    app.put(
      '/api/admin/stores/:storeId/settings/general',
      {
        config: { auth: 'user', permission: { anyOf: [] } },
        schema: {
          tags: ['back-office'],
          summary: 'Settings general are read-only (always 403 for a store the caller sees)',
          params: StoreParams,
          response: errors,
        },
      },
      async (request) => {
        await visibleStore(ctx, request, request.params.storeId);
        throw new AppError(
          'forbidden',
          "General settings are read-only: the store's name, domain and currency come from its platform.",
        );
      },
    );

    for (const option of SettingsChangeInput.options) {
      const group = option.shape.group.value;
      const permission = SETTINGS_GROUP_ACCESS[group].update;
      app.put(
        `/api/admin/stores/:storeId/settings/${group}`,
        {
          config: { auth: 'user', permission: permission ?? { anyOf: [] } },
          schema: {
            tags: ['back-office'],
            summary: `Change the ${SETTINGS_GROUP_LABELS[group].toLowerCase()} settings (${permission}); a new version of the store's settings`,
            params: StoreParams,
            body: updateSettingsRequest(option.shape.value),
            response: { 200: StoreSettingsView, ...errors, 409: ApiError, 422: ApiError },
          },
        },
        async (request) => {
          const { store, principal, held } = await visibleStore(ctx, request, request.params.storeId);
          if (!permission || !held.has(permission)) throw forbidden(permission ?? SETTINGS_GROUP_ACCESS[group].read);
          const change = SettingsChange.parse({ group, value: request.body.value });
          const handled = await changeStoreSettings(
            ctx,
            store,
            change,
            metaOf(principal, request.id),
            request.body.expectedVersion,
          );
          if (handled.decided.length > 0)
            request.log.info({ storeId: store.id, group, version: handled.version }, 'store settings changed');
          return viewOf(store, await readSettingsStream(ctx, store.id), held, [group], undefined);
        },
      );
    }
  };
