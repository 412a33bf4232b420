import {
  defaultClaimCeiling,
  toDecimal,
  toMinor,
  type Claim,
  type ClaimItem,
  type ClaimResolution,
  type Valuation,
} from '@claims/contracts';
import { fail, ok, type Result } from '../result.js';
import { payoutLinesOf } from '../money/payouts.js';
import { decidedItemIds } from './claimRules.js';
import { lineValue } from './resolutionValue.js';

/** What a claimed item is worth, in minor units of the claim's currency: its claimed quantity at the price paid, with its tax, less its discount. */
export const claimedValue = (item: ClaimItem): number => Math.max(0, lineValue(item, item.quantity));

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const shown = (minor: number, currency: string) => `${toDecimal(minor, currency)} ${currency}`;

/**
 * A decision pays no line more than what it settles is worth (an item its claimed value, a claim-level amount the
 * items still open), the claim with what stands of its earlier decisions no more than all its items are worth, and its
 * payout to the store (replacement cost and credit bonus applied as the rules say) no more than the store's ceiling on
 * one claim. A refusal names the bound, so the agent can decide again within it.
 */
export function withinBounds(
  claim: Claim,
  resolutions: readonly ClaimResolution[],
  valuation: Valuation,
): Result<null> {
  const decided = decidedItemIds(claim);
  for (const line of resolutions) {
    const item = claim.items.find((i) => i.id === line.relatedClaimItemId);
    const worth = item ? claimedValue(item) : sum(claim.items.filter((i) => !decided.has(i.id)).map(claimedValue));
    if (line.paidValue > worth) {
      const what = item
        ? `${item.name} is worth ${shown(worth, claim.currency)} as claimed`
        : `The items still open on claim #${claim.claimNumber} are worth ${shown(worth, claim.currency)}`;
      return fail('exceeds_claimed_value', `${what}: ${shown(line.paidValue, claim.currency)} is more than that.`);
    }
  }
  const standing = [...claim.resolutions, ...resolutions];
  const worth = sum(claim.items.map(claimedValue));
  const paid = sum(standing.map((r) => r.paidValue));
  if (paid > worth) {
    return fail(
      'exceeds_claimed_value',
      `Claim #${claim.claimNumber} is worth ${shown(worth, claim.currency)}: its decisions would pay ${shown(paid, claim.currency)}.`,
    );
  }
  const payout = sum(
    payoutLinesOf({ claimId: claim.id, resolutions: standing, valuation }, claim.currency).map((line) => line.amount),
  );
  const ceiling = toMinor(
    valuation.rules.claimCeiling ?? defaultClaimCeiling(valuation.storeCurrency),
    valuation.storeCurrency,
  );
  if (payout > ceiling) {
    return fail(
      'exceeds_claim_ceiling',
      `Claim #${claim.claimNumber} would pay ${shown(payout, valuation.storeCurrency)}, more than the store's ceiling of ${shown(ceiling, valuation.storeCurrency)} a claim.`,
    );
  }
  return ok(null);
}
