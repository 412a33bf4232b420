import { CLAIM_STATUS_LABELS, toDecimal, type ApiClaim, type Claim } from '@claims/contracts';

/** A claim at the API edge: money as decimals of its currency. */
export function toApiClaim(claim: Claim, version: number): ApiClaim {
  const money = (minor: number) => toDecimal(minor, claim.currency);
  return {
    id: claim.id,
    claimNumber: claim.claimNumber,
    status: claim.status,
    statusLabel: CLAIM_STATUS_LABELS[claim.status],
    claimType: claim.claimType,
    storeId: claim.storeId,
    createdAt: claim.filedAt,
    sourceOrderId: claim.sourceOrderId,
    orderNumber: claim.orderNumber,
    currency: claim.currency,
    items: claim.items.map((i) => ({ ...i, price: money(i.price), tax: money(i.tax), discount: money(i.discount) })),
    resolutions: claim.resolutions.map((r) => ({
      ...r,
      paidValue: money(r.paidValue),
      shippingAmount: money(r.shippingAmount),
      decidedBy: r.resolvedBy,
    })),
    version,
    risk: claim.risk,
  };
}
