import { queryOptions } from '@tanstack/react-query';
import { api } from '../shared/api.js';
import { brandingApi } from './branding/brandingApi.js';
import { deskToolsApi, type MacroOwner } from './desk-tools/deskToolsApi.js';

/*
 * The settings feature's reads, each key written here once: a change invalidates through the same factories. The
 * claim page reads macros through `macroQueries` too, so a macro saved here is fresh there.
 */

export const storeSettingsQueries = {
  /** Everything read about a store's settings (its groups and their history): what a saved group makes stale. */
  all: (storeId: string) => ['settings', storeId] as const,
  current: (storeId: string) =>
    queryOptions({ queryKey: ['settings', storeId, 'current'], queryFn: () => api.settings(storeId) }),
  history: (storeId: string) =>
    queryOptions({ queryKey: ['settings', storeId, 'history'], queryFn: () => api.settingsHistory(storeId) }),
};

export const brandingQueries = {
  branding: (storeId: string) =>
    queryOptions({ queryKey: ['branding', storeId], queryFn: () => brandingApi.branding(storeId) }),
};

export const abTestQueries = {
  of: (storeId: string) =>
    queryOptions({ queryKey: ['ab-tests', storeId], queryFn: () => brandingApi.abTests(storeId) }),
};

export const macroQueries = {
  /** One store's macros, or the global (Order Protection) ones. */
  of: (owner: MacroOwner) =>
    queryOptions({
      queryKey: ['macros', owner.scope === 'global' ? 'global' : owner.storeId],
      queryFn: () => deskToolsApi.macros(owner),
    }),
};

export const sopQueries = {
  of: (storeId: string) => queryOptions({ queryKey: ['sops', storeId], queryFn: () => deskToolsApi.sops(storeId) }),
};
