import { z } from 'zod';

/** Body of `POST /api/claim-links`: the order number and email, as the order lookup takes them. */
export const ClaimLinkRecoveryRequest = z.object({
  order: z.string().trim().min(1).max(64),
  email: z.string().trim().min(1).max(320),
});
export type ClaimLinkRecoveryRequest = z.infer<typeof ClaimLinkRecoveryRequest>;

/** The answer, the same whether anything matched or not: the links only ever go to the order's email. */
export const ClaimLinkRecoveryResponse = z.object({ message: z.string() });
export type ClaimLinkRecoveryResponse = z.infer<typeof ClaimLinkRecoveryResponse>;

export const CLAIM_LINK_RECOVERY_ANSWER =
  "If that order number and email address match an order, we've sent the links to its claims to that email address. It can take a few minutes to arrive.";
