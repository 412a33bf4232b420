import { z } from 'zod';

/** Body of `POST /api/admin/claims/{claimId}/reopen`: takes a closed claim back to OPEN. */
export const ReopenClaimRequest = z.object({
  note: z.string().trim().max(2_000).optional(),
  expectedVersion: z.number().int().nonnegative().optional(),
});
export type ReopenClaimRequest = z.infer<typeof ReopenClaimRequest>;
