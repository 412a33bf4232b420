import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../shared/api.js';

/* The integrations feature's reads (API tokens, webhooks), each key written here once: changes invalidate through them. */

export const apiTokenQueries = {
  of: (storeId: string) => queryOptions({ queryKey: ['api-tokens', storeId], queryFn: () => api.apiTokens(storeId) }),
};

export const webhookQueries = {
  endpoints: (storeId: string) =>
    queryOptions({ queryKey: ['webhook-endpoints', storeId], queryFn: () => api.webhookEndpoints(storeId) }),
  /** One endpoint's delivery log, newest attempt first, a page at a time. */
  deliveries: (storeId: string, endpointId: string) =>
    infiniteQueryOptions({
      queryKey: ['webhook-deliveries', storeId, endpointId],
      queryFn: ({ pageParam }) => api.webhookDeliveries(storeId, endpointId, pageParam),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (page) => page.nextCursor ?? undefined,
    }),
};
