import { toDecimal, toMinor, type AdminClaimDetail, type ApiClaimResolution } from '@claims/contracts';

export interface ResolutionSummary {
  date: string;
  types: string[];
  reimbursed: boolean;
  actionedBy: string;
  denialReason: string | null;
  /** Only for a reship or refund (docs/product.md#merchant-claim-view). */
  money: null | {
    shipping: number;
    totalValueToCustomer: number;
    totalReimbursed: number;
    items: number;
    taxes: number;
    subtotal: number;
  };
}

/**
 * 'Resolution Details' (docs/product.md#merchant-claim-view) from a claim's resolution lines (decimals of its currency, summed in
 * minor units so nothing drifts). Subtotal is what the lines paid for the items (net of discount,
 * with tax), Taxes their share of the line tax, Items the rest; Total Value To Customer adds the
 * shipping; Total Reimbursed is what protection pays the store back (lines marked creditStore).
 */
export function summarizeResolutions(
  claim: Pick<AdminClaimDetail, 'currency' | 'items' | 'resolutions'>,
): ResolutionSummary | null {
  const lines: ApiClaimResolution[] = claim.resolutions;
  const first = lines[0];
  if (!first) return null;
  const minor = (value: number) => toMinor(value, claim.currency);
  const decimal = (value: number) => toDecimal(value, claim.currency);
  const types = [...new Set(lines.map((l) => l.resolutionType))];
  const deny = types.includes('DENY');
  const itemLines = lines.filter((l) => l.relatedClaimItemId !== null);

  let subtotal = 0;
  let taxes = 0;
  let shipping = 0;
  let reimbursed = 0;
  let claimLevel = 0;
  for (const line of lines) {
    shipping += minor(line.shippingAmount);
    if (line.creditStore) reimbursed += minor(line.paidValue) + minor(line.shippingAmount);
    if (line.relatedClaimItemId === null) claimLevel += minor(line.paidValue);
  }
  for (const line of itemLines) {
    subtotal += minor(line.paidValue);
    const item = claim.items.find((i) => i.id === line.relatedClaimItemId);
    if (!item || item.orderedQuantity <= 0) continue;
    const share = (line.percentage ?? 100) / 100;
    taxes += Math.round((minor(item.tax) / item.orderedQuantity) * line.quantity * share);
  }
  taxes = Math.min(taxes, subtotal);
  const money = types.some((t) => t === 'REFUND' || t === 'RESHIP')
    ? {
        shipping: decimal(shipping),
        totalValueToCustomer: decimal(subtotal + claimLevel + shipping),
        totalReimbursed: decimal(reimbursed),
        items: decimal(subtotal - taxes),
        taxes: decimal(taxes),
        subtotal: decimal(subtotal),
      }
    : null;

  return {
    date: first.createdAt,
    types,
    reimbursed: reimbursed > 0,
    actionedBy: first.resolvedBy.name || first.resolvedBy.id,
    // Items are decided one by one: the denial's own line says why, not the first line of the claim.
    denialReason: deny ? (lines.find((l) => l.resolutionType === 'DENY')?.reason ?? null) : null,
    money,
  };
}

/** What `quantity` units at `percentage` of a claimed line are worth (the server's rule, for the form's preview). */
export function estimateLine(
  item: { price: number; tax: number; discount: number; orderedQuantity: number },
  quantity: number,
  percentage: number,
  currency: string,
): number {
  const price = toMinor(item.price, currency);
  const perUnit =
    price + (toMinor(item.tax, currency) - toMinor(item.discount, currency)) / Math.max(1, item.orderedQuantity);
  return toDecimal(Math.round((Math.round(quantity * perUnit) * percentage) / 100), currency);
}
