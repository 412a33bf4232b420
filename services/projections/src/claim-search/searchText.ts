/**
 * How claim search reads text, the same way when a claim is filed and when someone searches: lower
 * case, and words as runs of letters and digits, so `ben.ortiz@example.com` holds `ben`, `ortiz`,
 * `example` and `com`.
 */
export const searchWords = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Words worth correcting a typo towards: three characters or more, with a letter (numbers are matched whole or in part, never "nearly"). */
export const isLexiconWord = (word: string): boolean => word.length >= 3 && /\p{L}/u.test(word);

/** A LIKE pattern finding `text` anywhere, its own `%`, `_` and `\` taken literally. */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Edits (insert, delete, replace, swap two neighbours) between two words: optimal string alignment, so
 * `stnoe` is one edit from `stone` though they share few trigrams.
 */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** How many typos a word of this length may hold and still be recognised: one up to five letters, two beyond. */
export const typosAllowed = (word: string): number => (word.length <= 5 ? 1 : 2);
