import { queryOptions } from '@tanstack/react-query';
import { api } from '../shared/api.js';
import { onboardingApi } from './onboarding/onboardingApi.js';

/* The operations feature's reads (platform state, onboarding), each key written here once: changes invalidate through them. */

export const operationsQueries = {
  /** Projectors, relay, reactions, what they parked and readiness: read again while the page is open. */
  state: () => queryOptions({ queryKey: ['operations'], queryFn: () => api.operations(), staleTime: 0 }),
};

export const onboardingQueries = {
  accounts: () => queryOptions({ queryKey: ['accounts'], queryFn: onboardingApi.accounts }),
  stores: () => queryOptions({ queryKey: ['onboarding'], queryFn: onboardingApi.list }),
};
