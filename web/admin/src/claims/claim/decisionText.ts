import type { AdminClaimDetail, ApiClaimResolution } from '@claims/contracts';
import { formatMoney } from '@claims/format';
import { reasonLabel } from '../../shared/labels.js';

/** What one decided line gives the shopper, in words: the amount issued (credit with its bonus), the units reshipped, or the denial's reason. */
export function decisionText(
  line: ApiClaimResolution,
  claim: Pick<AdminClaimDetail, 'currency' | 'storeCredits'>,
): string {
  const money = (value: number) => formatMoney(value, claim.currency);
  switch (line.resolutionType) {
    case 'REFUND':
      return `Refund ${money(line.paidValue)}`;
    case 'RESHIP':
      return `Reship × ${line.quantity}`;
    case 'STORE_CREDIT': {
      const credit = claim.storeCredits.find((c) => c.resolutionId === line.id);
      if (!credit || credit.bonus === 0) return `Store credit ${money(line.paidValue)}`;
      return `Store credit ${formatMoney(credit.credit, credit.currency)} + ${formatMoney(credit.bonus, credit.currency)} bonus = ${formatMoney(credit.total, credit.currency)}`;
    }
    case 'FLAT_RATE':
      return `Flat rate ${money(line.paidValue)}`;
    case 'CUSTOM':
      return `Custom ${money(line.paidValue)}`;
    case 'DENY':
      return line.reason ? `Denied: ${reasonLabel(line.reason)}` : 'Denied';
  }
}

/** Which item a line decided ("Whole claim" for a claim-level amount). */
export const lineSubject = (line: ApiClaimResolution, claim: Pick<AdminClaimDetail, 'items'>): string =>
  line.relatedClaimItemId ? (claim.items.find((i) => i.id === line.relatedClaimItemId)?.name ?? 'Item') : 'Whole claim';
