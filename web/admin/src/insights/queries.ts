import { queryOptions } from '@tanstack/react-query';
import type { AnalyticsQuery } from '@claims/contracts';
import { api } from '../shared/api.js';

/* The insights feature's reads, each key written here once. */

export const analyticsQueries = {
  /** The figures of the claims filed in a period, against the period before. */
  of: (query: AnalyticsQuery) => queryOptions({ queryKey: ['analytics', query], queryFn: () => api.analytics(query) }),
};
