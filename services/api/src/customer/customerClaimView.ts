import type { Claim, ClaimStoreCredit, CustomerClaimView, ShopperStatusChange } from '@claims/contracts';
import { decidesWholeClaim, decisionOutcome } from '@claims/domain';
import { toApiClaim } from '../http/apiClaim.js';

/** The claim as the shopper sees it: the API's claim without versions, risk or who resolved it. */
export function toCustomerClaimView(
  claim: Claim,
  storeCredits: ClaimStoreCredit[],
  statusHistory: ShopperStatusChange[],
): CustomerClaimView {
  // Risk is the store's judgement of the shopper: never theirs to read.
  const { version: _version, risk: _risk, resolutions, ...rest } = toApiClaim(claim, 0);
  return {
    ...rest,
    resolutions: resolutions.map(({ resolvedBy: _by, decidedBy: _decidedBy, ...resolution }) => resolution),
    desiredMethod: claim.desiredMethod,
    updatedShippingAddress: claim.updatedShippingAddress,
    hasReview: claim.reviewed,
    storeCredits,
    statusHistory,
    outcome: claim.resolutions.length > 0 && decidesWholeClaim(claim) ? decisionOutcome(claim.resolutions) : null,
  };
}
