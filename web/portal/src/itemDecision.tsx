import { RESOLUTION_REASON_LABELS, type CustomerClaimView } from '@claims/contracts';
import { formatMoney } from '@claims/format';

type Resolution = CustomerClaimView['resolutions'][number];

/** What the store decided on a line, in the shopper's words: the money issued (credit with its bonus), a reshipment, or a denial and why. */
function decisionWords(line: Resolution, claim: CustomerClaimView): string {
  const money = (value: number) => formatMoney(value, claim.currency);
  switch (line.resolutionType) {
    case 'REFUND':
      return `Refunded ${money(line.paidValue)}`;
    case 'RESHIP':
      return `Reshipping ${line.quantity}`;
    case 'STORE_CREDIT': {
      const credit = claim.storeCredits.find((c) => c.resolutionId === line.id);
      return credit && credit.bonus > 0
        ? `Store credit ${formatMoney(credit.total, credit.currency)} (${formatMoney(credit.credit, credit.currency)} plus a ${formatMoney(credit.bonus, credit.currency)} bonus)`
        : `Store credit ${money(line.paidValue)}`;
    }
    case 'FLAT_RATE':
      return `Paid ${money(line.paidValue)}`;
    case 'CUSTOM':
      return `Paid ${money(line.paidValue)}`;
    case 'DENY':
      return line.reason ? `Not covered: ${RESOLUTION_REASON_LABELS[line.reason]}` : 'Not covered';
  }
}

/** The decision on one item, or on the whole claim (a claim-level amount), or that it is still being reviewed. */
export function ItemDecision({ claim, itemId }: { claim: CustomerClaimView; itemId: string }) {
  const lines = claim.resolutions.filter((r) => r.relatedClaimItemId === itemId || r.relatedClaimItemId === null);
  if (lines.length === 0) return <span className="choice-help">Decision: being reviewed</span>;
  return <span className="choice-help">Decision: {lines.map((line) => decisionWords(line, claim)).join('; ')}</span>;
}
