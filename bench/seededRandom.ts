/** Deterministic PRNG (mulberry32), so every run of a bench generates the same mix. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One of the values, drawn by their weights. */
export function pick<T>(random: () => number, weighted: ReadonlyArray<readonly [T, number]>): T {
  let r = random() * weighted.reduce((sum, [, w]) => sum + w, 0);
  for (const [value, weight] of weighted) {
    r -= weight;
    if (r < 0) return value;
  }
  return weighted.at(-1)![0];
}
