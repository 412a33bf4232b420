/**
 * A later issue for the same item replaces an earlier one (docs/product.md#draft-claim). Issues keep the order in which
 * their latest version was reported, so a replaced issue moves to where it was reported again.
 */
export function latestIssuePerItem<T extends { sourceItemId: string }>(issues: readonly T[]): T[] {
  const latest = new Map<string, T>();
  for (const issue of issues) {
    latest.delete(issue.sourceItemId);
    latest.set(issue.sourceItemId, issue);
  }
  return [...latest.values()];
}
