import { ClaimFacts } from '@claims/contracts';
import { request } from '@claims/ui/http';

/** `GET /api/admin/claims/{id}/facts`: the order, signature, the shopper's other claims, flags and decision terms. */
export const claimFacts = (claimId: string) =>
  request('GET', `admin/claims/${encodeURIComponent(claimId)}/facts`, { schema: ClaimFacts });
