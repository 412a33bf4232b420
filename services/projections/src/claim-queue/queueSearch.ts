import { sql, type QueryExecutorProvider, type RawBuilder } from 'kysely';
import type { SearchMatch } from '@claims/contracts';
import { containsPattern, editDistance, isLexiconWord, searchWords, typosAllowed } from '../claim-search/searchText.js';

/** Nearest lexicon words (by trigram distance) looked at for a typed word, and how many of them it may stand for. */
const NEAREST_WORDS = 30;
const CORRECTIONS_PER_WORD = 8;

/** Words of the lexicon a typed word may be a typo of: the nearest by trigrams, kept when few edits away. */
async function corrections(db: QueryExecutorProvider, word: string): Promise<string[]> {
  const { rows } = await sql<{ word: string }>`
    select word from claim_search_lexicon order by word <-> ${word} limit ${NEAREST_WORDS}`.execute(db);
  return rows.map((r) => r.word).filter((w) => editDistance(w, word) <= typosAllowed(word)).slice(0, CORRECTIONS_PER_WORD);
}

/** Search words shorter than this cannot use the trigram index, so alone they would read every claim. */
const MIN_INDEXED_LENGTH = 3;

/**
 * The claims a search matches, as a condition on `c` (the claim list row), for one kind of match; null
 * when that kind cannot match anything (too short to look for, or no near word for a typo).
 */
export async function searchCondition(db: QueryExecutorProvider, search: string, match: SearchMatch): Promise<RawBuilder<unknown> | null> {
  const raw = search.trim().replace(/^#/, '');
  if (!raw) return null;
  switch (match) {
    case 'exact': {
      // Each arm uses its own index; a claim id list of a few rows then joins the claim list by key.
      const lower = raw.toLowerCase();
      return sql`c.claim_id in (
        select claim_id from claim_list where claim_number = ${raw}
        union all select claim_id from claim_list where order_number = ${raw}
        union all select claim_id from claim_list where lower(customer_email) = ${lower}
        union all select claim_id from claim_search where skus @> array[${lower}]::text[])`;
    }
    case 'contains': {
      const parts = [...new Set(raw.toLowerCase().split(/\s+/).filter(Boolean))];
      if (!parts.some((p) => p.length >= MIN_INDEXED_LENGTH)) return null;
      const likes = parts.map((p) => sql`s.document like ${containsPattern(p)}`);
      return sql`c.claim_id in (select s.claim_id from claim_search s where ${sql.join(likes, sql` and `)})`;
    }
    case 'close': {
      const words = [...new Set(searchWords(raw))];
      if (!words.some((w) => w.length >= MIN_INDEXED_LENGTH)) return null;
      const terms: string[] = [];
      const contained: RawBuilder<unknown>[] = [];
      for (const word of words) {
        if (!isLexiconWord(word)) {
          contained.push(sql`s.document like ${containsPattern(word)}`);
          continue;
        }
        // The word as the start of one (`benj` for Benjamin), or a word it is a typo of.
        const near = await corrections(db, word);
        // Words hold only letters and digits (searchWords), so quoting them is all a tsquery needs.
        terms.push(`(${[`'${word}':*`, ...near.map((w) => `'${w}'`)].join(' | ')})`);
      }
      const conditions = [...contained];
      if (terms.length > 0) conditions.push(sql`s.words @@ to_tsquery('simple', ${terms.join(' & ')})`);
      return sql`c.claim_id in (select s.claim_id from claim_search s where ${sql.join(conditions, sql` and `)})`;
    }
  }
}

/** The kinds of match a search tries, in order: the first that finds anything is the answer. */
export const SEARCH_ORDER: readonly SearchMatch[] = ['exact', 'contains', 'close'];
