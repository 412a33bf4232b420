import type { FinanceReplayView } from '@claims/contracts';

/** Every claim a replay's differences name: payouts, store-credit entries and the payouts behind invoice lines. */
export function claimsOfReplay(view: FinanceReplayView): string[] {
  return [
    ...view.differences.map((d) => d.claimId),
    ...view.storeCredit.differences.flatMap((d) => (d.claimId ? [d.claimId] : [])),
    ...view.invoices.differences.flatMap((d) => d.causes.flatMap((c) => (c.claimId ? [c.claimId] : []))),
  ];
}

/**
 * The replay with each claim it names given its number: a replay stores claim ids (its result is kept as it was
 * computed), and finance reads claims by number, so the numbers are added when it is read.
 */
export function withClaimNumbers(view: FinanceReplayView, numbers: ReadonlyMap<string, string>): FinanceReplayView {
  const numberOf = (claimId: string | null) => {
    const claimNumber = claimId ? numbers.get(claimId) : undefined;
    return claimNumber === undefined ? {} : { claimNumber };
  };
  return {
    ...view,
    differences: view.differences.map((d) => ({ ...d, ...numberOf(d.claimId) })),
    storeCredit: {
      ...view.storeCredit,
      differences: view.storeCredit.differences.map((d) => ({ ...d, ...numberOf(d.claimId) })),
    },
    invoices: {
      ...view.invoices,
      differences: view.invoices.differences.map((d) => ({
        ...d,
        causes: d.causes.map((c) => ({ ...c, ...numberOf(c.claimId) })),
      })),
    },
  };
}
