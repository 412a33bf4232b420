import { cumulativeStdNormalProbability } from 'simple-statistics';
import { AB_MIN_CLAIMS_PER_VARIANT, AB_SIGNIFICANCE_ALPHA, type AbSignificance } from '@claims/contracts';

export interface ProportionSample {
  variantId: string;
  label: string;
  /** Claims filed with the variant. */
  trials: number;
  /** Of those, claims whose shopper took the tested resolution. */
  successes: number;
}

/**
 * Two-proportion z-test (pooled, two-sided) on the store-credit take rate of two variants: a winner only
 * when each has at least {@link AB_MIN_CLAIMS_PER_VARIANT} claims and p < {@link AB_SIGNIFICANCE_ALPHA}.
 * The normal CDF is simple-statistics' (its table is exact to 4 decimals, plenty beside a 0.05 threshold).
 */
export function twoProportionTest(a: ProportionSample, b: ProportionSample): AbSignificance {
  const rateA = a.trials === 0 ? 0 : a.successes / a.trials;
  const rateB = b.trials === 0 ? 0 : b.successes / b.trials;
  const base = {
    metric: 'STORE_CREDIT take rate' as const,
    variants: [a.variantId, b.variantId] as [string, string],
    difference: rateA - rateB,
  };
  if (Math.min(a.trials, b.trials) < AB_MIN_CLAIMS_PER_VARIANT) {
    return {
      ...base,
      z: null,
      pValue: null,
      significant: false,
      winner: null,
      verdict: `No winner yet: each variant needs at least ${AB_MIN_CLAIMS_PER_VARIANT} claims (now ${a.trials} and ${b.trials}).`,
    };
  }
  const pooled = (a.successes + b.successes) / (a.trials + b.trials);
  const standardError = Math.sqrt(pooled * (1 - pooled) * (1 / a.trials + 1 / b.trials));
  if (standardError === 0) {
    return {
      ...base,
      z: 0,
      pValue: 1,
      significant: false,
      winner: null,
      verdict: 'No winner: both variants have the same take rate.',
    };
  }
  const z = (rateA - rateB) / standardError;
  const pValue = Math.min(1, 2 * (1 - cumulativeStdNormalProbability(Math.abs(z))));
  const significant = pValue < AB_SIGNIFICANCE_ALPHA;
  const leader = rateA >= rateB ? a : b;
  return {
    ...base,
    z,
    pValue,
    significant,
    winner: significant ? leader.variantId : null,
    verdict: significant
      ? `${leader.label} wins: its store-credit take rate differs with p = ${pValue.toFixed(4)} (< ${AB_SIGNIFICANCE_ALPHA}).`
      : `No clear winner: the difference is not significant (p = ${pValue.toFixed(4)}, needs < ${AB_SIGNIFICANCE_ALPHA}).`,
  };
}
