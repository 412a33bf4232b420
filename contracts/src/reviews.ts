import { z } from 'zod';
import { Review } from './claim.js';
import { StoreRef } from './backoffice.js';

/** `GET /api/admin/reviews` (`reviews:read`): the newest reviews, of one store and one rating when given. */
export const AdminReviewListQuery = z.object({
  store: z.uuid().optional(),
  rating: z.coerce.number().int().min(1).max(5).optional(),
});
export type AdminReviewListQuery = z.infer<typeof AdminReviewListQuery>;

export const AdminReview = z.object({
  id: z.uuid(),
  claimId: z.uuid(),
  claimNumber: z.string(),
  store: StoreRef,
  customerName: z.string(),
  rating: z.number().int().min(1).max(5),
  text: z.string(),
  createdAt: z.iso.datetime(),
});
export type AdminReview = z.infer<typeof AdminReview>;
export const AdminReviewList = z.object({ data: z.array(AdminReview) });
export type AdminReviewList = z.infer<typeof AdminReviewList>;

/** `GET /api/admin/claims/{claimId}/reviews` (`reviews:read`): the shopper's reviews of this claim, oldest first. */
export const ClaimReviewList = z.object({ data: z.array(Review) });
export type ClaimReviewList = z.infer<typeof ClaimReviewList>;
