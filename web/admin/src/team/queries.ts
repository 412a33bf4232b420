import { queryOptions } from '@tanstack/react-query';
import { api } from '../shared/api.js';

/*
 * The team feature's reads (members, support staff, the member's own mail settings), each key written here once:
 * changes invalidate or set the cache through them. The signed-in user is `meQuery` (shared/session.ts): every
 * feature reads it.
 */

export const teamQueries = {
  members: (storeId: string) => queryOptions({ queryKey: ['team', storeId], queryFn: () => api.teamMembers(storeId) }),
  supportUsers: () => queryOptions({ queryKey: ['support-users'], queryFn: () => api.supportUsers() }),
  notificationSettings: () =>
    queryOptions({ queryKey: ['notification-settings'], queryFn: () => api.notificationSettings() }),
};
