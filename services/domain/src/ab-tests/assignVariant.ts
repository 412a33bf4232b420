import type { AbVariant } from '@claims/contracts';

/** FNV-1a, 32 bits: a fixed, well-spread hash that needs no crypto module (the back-office bundles the domain too). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * The variant of a test a claim session sees: a hash of the test and the session id, so the same session
 * always gets the same variant (on every device, after every restart) and the split is even across sessions.
 */
export function assignVariant<V extends Pick<AbVariant, 'id'>>(
  testId: string,
  sessionId: string,
  variants: readonly V[],
): V {
  if (variants.length === 0) throw new Error('a test has at least two variants');
  return variants[fnv1a(`${testId}:${sessionId}`) % variants.length]!;
}
