import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { ReturnStatus } from '@claims/contracts';
import { api, type ClaimListParams } from '../shared/api.js';
import { claimFacts } from './claim/claimFactsApi.js';
import { claimRuleActivity } from './claim/ruleActivityApi.js';
import { orderApi } from './order/orderApi.js';
import { returnsApi } from './returns/returnsApi.js';
import { reviewsApi } from './reviews/reviewsApi.js';

/*
 * The claims feature's reads, each key written here once: a change invalidates or sets the cache through the same
 * factories (`claimQueries.detail(id).queryKey`), so a read and what makes it stale cannot drift apart.
 */

/** Every list of claims (the queue's pages, an order reference's matches): a change to any claim makes them stale. */
const CLAIM_LISTS = ['claims'] as const;
/** Every returns list of the returns page: a moved return makes them stale. */
const RETURN_LISTS = ['returns'] as const;

export const claimQueries = {
  lists: () => CLAIM_LISTS,
  /** The queue's pages for these filters; the first page also brings the status tabs' counts. */
  queue: (params: ClaimListParams, pageSize: number) =>
    infiniteQueryOptions({
      queryKey: [...CLAIM_LISTS, params, pageSize],
      queryFn: ({ pageParam, signal }) =>
        api.listClaims(
          { ...params, cursor: pageParam, limit: String(pageSize), counts: pageParam ? undefined : 'true' },
          signal,
        ),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) => last.nextCursor ?? undefined,
    }),
  /** The claims an order or claim number finds. */
  matching: (reference: string) =>
    queryOptions({
      queryKey: [...CLAIM_LISTS, { search: reference }],
      queryFn: () => api.listClaims({ search: reference, limit: '100' }),
    }),
  /** The claim as it is now; its key is the prefix of the claim's other reads (as of a version, its facts). */
  detail: (claimId: string) => queryOptions({ queryKey: ['claim', claimId], queryFn: () => api.getClaim(claimId) }),
  /** The claim as of one stream version: it never changes. */
  asOf: (claimId: string, version: number) =>
    queryOptions({
      queryKey: ['claim', claimId, 'asOf', version],
      queryFn: () => api.getClaim(claimId, version),
      staleTime: Infinity,
    }),
  facts: (claimId: string) =>
    queryOptions({ queryKey: ['claim', claimId, 'facts'], queryFn: () => claimFacts(claimId) }),
  /** What rules did or would have done to the claim (a moment after filing: the read model follows the events). */
  ruleActivity: (claimId: string) =>
    queryOptions({ queryKey: ['claim', claimId, 'rule-activity'], queryFn: () => claimRuleActivity(claimId) }),
  timeline: (claimId: string) =>
    queryOptions({ queryKey: ['timeline', claimId], queryFn: () => api.timeline(claimId) }),
  assignees: (claimId: string) =>
    queryOptions({ queryKey: ['assignees', claimId], queryFn: () => api.assignees(claimId) }),
  notes: (claimId: string) => queryOptions({ queryKey: ['notes', claimId], queryFn: () => api.notes(claimId) }),
  savedViews: () => queryOptions({ queryKey: ['saved-views'], queryFn: () => api.savedViews() }),
};

export const orderQueries = {
  detail: (orderId: string) => queryOptions({ queryKey: ['order', orderId], queryFn: () => orderApi.order(orderId) }),
  /** The orders a system or source order id names (several stores may share a source id). */
  byReference: (reference: string) =>
    queryOptions({ queryKey: ['order-ref', reference], queryFn: () => orderApi.find(reference) }),
};

export const returnQueries = {
  lists: () => RETURN_LISTS,
  list: (storeId: string, status: ReturnStatus | undefined) =>
    queryOptions({
      queryKey: [...RETURN_LISTS, storeId, status],
      queryFn: () => returnsApi.list({ storeId, status }),
    }),
  ofClaim: (claimId: string) =>
    queryOptions({ queryKey: ['claim-returns', claimId], queryFn: () => returnsApi.ofClaim(claimId) }),
};

export const reviewQueries = {
  list: (filter: { store: string | undefined; rating: number | undefined }) =>
    queryOptions({ queryKey: ['reviews', filter], queryFn: () => reviewsApi.list(filter) }),
  ofClaim: (claimId: string) =>
    queryOptions({ queryKey: ['reviews', claimId], queryFn: () => reviewsApi.ofClaim(claimId) }),
};
