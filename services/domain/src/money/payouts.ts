import {
  DEFAULT_MONEY_RULES,
  currencyDecimals,
  type CandidateMoneyRules,
  type ClaimResolution,
  type ResolutionType,
  type Valuation,
} from '@claims/contracts';
import { convertMinor, fractionOf, plus, roundHalfEven, times, whole, type Fraction } from './exactMoney.js';

/** One payout owed to a store for one resolution line, in minor units of the store's currency. */
export interface PayoutLine {
  /** The resolution line's id: an entry per line, so a replay compares line by line. */
  id: string;
  claimId: string;
  resolutionType: ResolutionType;
  amount: number;
  currency: string;
}

/** Decisions recorded before valuations were: valued in the claim's own currency under the default rules. */
export const unrecordedValuation = (claimCurrency: string): Valuation => ({
  storeCurrency: claimCurrency,
  exchangeRate: 1,
  rules: DEFAULT_MONEY_RULES,
  credit: { bonus: 0, bonusType: 'percentage' },
});

const percent = (value: number): Fraction => ({ n: fractionOf(value).n, d: fractionOf(value).d * 100n });

/**
 * What the store is reimbursed for one line, exactly, in its own currency: a refund its paid value plus the
 * shipping resolved; a reshipment its replacement cost (a percentage of the value); store credit the credit
 * issued with its bonus; flat rate and custom the amount decided; a denial nothing.
 */
function owed(line: ClaimResolution, claimCurrency: string, valuation: Valuation): Fraction | null {
  const inStore = (orderMinor: Fraction) =>
    convertMinor(orderMinor, claimCurrency, valuation.storeCurrency, valuation.exchangeRate);
  switch (line.resolutionType) {
    case 'DENY':
      return null;
    case 'REFUND':
      return inStore(whole(line.paidValue + line.shippingAmount));
    case 'RESHIP':
      return inStore(times(whole(line.paidValue), percent(valuation.rules.replacementCostPercent)));
    case 'STORE_CREDIT': {
      const credit = inStore(whole(line.paidValue));
      if (valuation.credit.bonusType === 'percentage')
        return plus(credit, times(credit, percent(valuation.credit.bonus)));
      // A fixed bonus is an amount of the store's currency (docs/product.md#store-credit-bonus: shown times the exchange rate to the shopper).
      return plus(
        credit,
        times(fractionOf(valuation.credit.bonus), whole(10 ** currencyDecimals(valuation.storeCurrency))),
      );
    }
    case 'FLAT_RATE':
    case 'CUSTOM':
      return inStore(whole(line.paidValue));
    default: {
      const exhaustive: never = line.resolutionType;
      return exhaustive;
    }
  }
}

/** `value` with the candidate's defined entries over it (a key present but undefined changes nothing). */
const over = <T extends object>(value: T, candidate: Partial<T> | undefined): T =>
  candidate ? { ...value, ...Object.fromEntries(Object.entries(candidate).filter(([, v]) => v !== undefined)) } : value;

/** The valuation a decision is replayed under: the one it recorded, with the candidate rules over it. */
export function valuationUnder(recorded: Valuation, candidate: CandidateMoneyRules): Valuation {
  const { credit, ...rules } = candidate;
  return { ...recorded, rules: over(recorded.rules, rules), credit: over(recorded.credit, credit) };
}

/** The payout lines of one resolution event, under its recorded rules or candidate ones; lines that move no money are left out. */
export function payoutLinesOf(
  resolved: { claimId: string; resolutions: readonly ClaimResolution[]; valuation?: Valuation | undefined },
  claimCurrency: string,
  candidate: CandidateMoneyRules = {},
): PayoutLine[] {
  const valuation = valuationUnder(resolved.valuation ?? unrecordedValuation(claimCurrency), candidate);
  return resolved.resolutions.flatMap((line) => {
    const exact = owed(line, claimCurrency, valuation);
    const amount = exact && roundHalfEven(exact);
    return amount
      ? [
          {
            id: line.id,
            claimId: resolved.claimId,
            resolutionType: line.resolutionType,
            amount,
            currency: valuation.storeCurrency,
          },
        ]
      : [];
  });
}

/** Store credit in minor units of one currency: the credit decided, the store's bonus on it, and their sum. */
export interface StoreCreditValue {
  credit: number;
  bonus: number;
  total: number;
  currency: string;
}

/**
 * What a STORE_CREDIT line gives the shopper, in the claim's currency (the credit decided and the bonus: a percentage
 * of it, or a fixed amount of the store's currency times the exchange rate, docs/product.md#store-credit-bonus) and in the store's, where the
 * total is exactly the payout line the ledger and the credit ledger record. Null for any other line.
 */
export function storeCreditOf(
  line: ClaimResolution,
  claimCurrency: string,
  valuation: Valuation = unrecordedValuation(claimCurrency),
): { claim: StoreCreditValue; store: StoreCreditValue } | null {
  if (line.resolutionType !== 'STORE_CREDIT') return null;
  const { bonus, bonusType } = valuation.credit;
  const claimBonus =
    bonusType === 'percentage'
      ? times(whole(line.paidValue), percent(bonus))
      : times(
          times(fractionOf(bonus), fractionOf(valuation.exchangeRate)),
          whole(10 ** currencyDecimals(claimCurrency)),
        );
  // The total is rounded, not the bonus, so in one currency the shopper's total is the ledger's to the cent.
  const claimTotal = roundHalfEven(plus(whole(line.paidValue), claimBonus));
  const storeCredit = roundHalfEven(
    convertMinor(whole(line.paidValue), claimCurrency, valuation.storeCurrency, valuation.exchangeRate),
  );
  const storeTotal = roundHalfEven(owed(line, claimCurrency, valuation)!);
  return {
    claim: { credit: line.paidValue, bonus: claimTotal - line.paidValue, total: claimTotal, currency: claimCurrency },
    store: {
      credit: storeCredit,
      bonus: storeTotal - storeCredit,
      total: storeTotal,
      currency: valuation.storeCurrency,
    },
  };
}
