import { z } from 'zod';

/** Someone with a claim open in the back-office. */
export const ClaimViewer = z.object({ userId: z.string(), name: z.string() });
export type ClaimViewer = z.infer<typeof ClaimViewer>;

/**
 * The `presence` event of `GET /api/admin/claims/{claimId}/presence` (server-sent events): who else
 * has the claim open right now, sent when it changes. The one asking is never in it.
 */
export const ClaimPresence = z.object({ claimId: z.uuid(), viewers: z.array(ClaimViewer) });
export type ClaimPresence = z.infer<typeof ClaimPresence>;
