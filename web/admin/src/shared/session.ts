import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MeResponse, Permission } from '@claims/contracts';
import { api } from './api.js';

export const meQuery = queryOptions({ queryKey: ['me'], queryFn: () => api.me(), staleTime: 60_000, retry: false });

/** The signed-in user (the app's layout route has loaded it before any page renders). */
export function useMe(): MeResponse {
  const { data } = useQuery(meQuery);
  if (!data) throw new Error('useMe() outside the signed-in layout');
  return data;
}

/**
 * Whether the user holds `permission` on `storeId` (permissions are per store), or on at least one
 * store when no store is named. Controls the user lacks are not offered at all.
 */
export function can(me: MeResponse, permission: Permission, storeId?: string): boolean {
  if (storeId === undefined) return me.permissions.includes(permission);
  return me.stores.some((store) => store.id === storeId && store.permissions.includes(permission));
}

/** The stores where the user holds `permission`. */
export const storesWith = (me: MeResponse, permission: Permission) =>
  me.stores.filter((s) => s.permissions.includes(permission));

/**
 * Whether an Order Protection (internal) role of the user, which reaches every store, holds
 * `permission` of an internal resource (no merchant role holds one): what the operations page asks,
 * its figures belonging to no one store.
 */
export const holdsInternally = (me: MeResponse, permission: Permission) =>
  me.grants.some((grant) => grant.level === 'internal') && me.permissions.includes(permission);
