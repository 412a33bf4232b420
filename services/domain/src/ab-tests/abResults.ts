import { CustomerResolution, type AbSignificance, type AbVariant, type AbVariantResult } from '@claims/contracts';
import { twoProportionTest, type ProportionSample } from './significance.js';

/** What the event stream counted for one variant: sessions assigned, and claims filed per resolution chosen. */
export interface VariantTally {
  sessions: number;
  claimsByResolution: Readonly<Record<string, number>>;
}

/** The tested resolution: a variant's success is a claim whose shopper took store credit. */
const TESTED: CustomerResolution = 'STORE_CREDIT';

/**
 * A test's results: each variant's sessions, claims and take rate of every resolution (a variant nobody
 * reached counts zero), and the z-test of the two variants with the most claims.
 */
export function abTestResults(
  variants: readonly AbVariant[],
  tallies: ReadonlyMap<string, VariantTally>,
): { variants: AbVariantResult[]; significance: AbSignificance | null } {
  const results = variants.map((variant): AbVariantResult => {
    const tally = tallies.get(variant.id);
    const byResolution = tally?.claimsByResolution ?? {};
    const claimsFiled = Object.values(byResolution).reduce((sum, n) => sum + n, 0);
    return {
      variantId: variant.id,
      label: variant.label,
      creditBonus: variant.creditBonus,
      sessions: tally?.sessions ?? 0,
      claimsFiled,
      resolutions: CustomerResolution.options.map((resolution) => {
        const claims = byResolution[resolution] ?? 0;
        return { resolution, claims, takeRate: claimsFiled === 0 ? 0 : claims / claimsFiled };
      }),
    };
  });
  const [a, b] = [...results].sort((x, y) => y.claimsFiled - x.claimsFiled);
  const sample = (v: AbVariantResult): ProportionSample => ({
    variantId: v.variantId,
    label: v.label,
    trials: v.claimsFiled,
    successes: v.resolutions.find((r) => r.resolution === TESTED)?.claims ?? 0,
  });
  return { variants: results, significance: a && b ? twoProportionTest(sample(a), sample(b)) : null };
}
