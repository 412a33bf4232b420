import { CLAIM_STATUS_LABELS, toDecimal, type Claim, type CustomerClaimView } from '@claims/contracts';

/** The claim as the shopper sees it: money as decimals, nothing of the back-office. */
export function toCustomerClaimView(claim: Claim): CustomerClaimView {
  const money = (minor: number) => toDecimal(minor, claim.currency);
  return {
    id: claim.id,
    claimNumber: claim.claimNumber,
    status: claim.status,
    statusLabel: CLAIM_STATUS_LABELS[claim.status],
    claimType: claim.claimType,
    storeId: claim.storeId,
    sourceOrderId: claim.sourceOrderId,
    orderNumber: claim.orderNumber,
    currency: claim.currency,
    createdAt: claim.filedAt,
    desiredMethod: claim.desiredMethod,
    updatedShippingAddress: claim.updatedShippingAddress,
    items: claim.items.map((i) => ({ ...i, price: money(i.price), tax: money(i.tax), discount: money(i.discount) })),
    resolutions: claim.resolutions.map(({ resolvedBy: _by, ...r }) => ({ ...r, paidValue: money(r.paidValue), shippingAmount: money(r.shippingAmount) })),
    hasReview: claim.reviewed,
  };
}
