import { AdminReviewList, ClaimReviewList } from '@claims/contracts';
import { request } from '@claims/ui/http';

/** Shoppers' reviews: the desk's list and one claim's. */
export const reviewsApi = {
  list: (filter: { store?: string | undefined; rating?: number | undefined }) =>
    request('GET', 'admin/reviews', { query: { store: filter.store, rating: filter.rating }, schema: AdminReviewList }),
  ofClaim: (claimId: string) =>
    request('GET', `admin/claims/${encodeURIComponent(claimId)}/reviews`, { schema: ClaimReviewList }),
};
