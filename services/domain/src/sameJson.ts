/**
 * Whether two JSON values are equal as JSON: the same members with the same values, in any key order
 * (a member holding undefined counts as absent, as in JSON). A state folded from stored events has its
 * keys in the order PostgreSQL's jsonb keeps them, not in the order the request wrote them, so
 * comparing serialisations would take an unchanged save for a change.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const present = (o: Record<string, unknown>) => Object.keys(o).filter((key) => o[key] !== undefined);
  const keys = present(left);
  return keys.length === present(right).length && keys.every((key) => sameJson(left[key], right[key]));
}
