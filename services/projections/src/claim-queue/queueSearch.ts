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
  return rows
    .map((r) => r.word)
    .filter((w) => editDistance(w, word) <= typosAllowed(word))
    .slice(0, CORRECTIONS_PER_WORD);
}

/** Search words shorter than this cannot use the trigram index, so alone they would read every claim. */
const MIN_INDEXED_LENGTH = 3;

/**
 * The claims a search matches, as a query of claim ids, for one kind of match; null when that kind
 * cannot match anything (too short to look for, or no near word for a typo). `storeIds` narrows what
 * the index reads to the caller's stores (the page filters by store again, so this only saves work).
 */
async function matchingIds(
  db: QueryExecutorProvider,
  search: string,
  match: SearchMatch,
  storeIds: readonly string[] | null,
): Promise<RawBuilder<unknown> | null> {
  const raw = search.trim().replace(/^#/, '');
  if (!raw) return null;
  const inStores = storeIds ? sql`s.store_id = any(${[...storeIds]}::uuid[])` : sql`true`;
  switch (match) {
    case 'exact': {
      // Each arm uses its own index and finds a few rows.
      const lower = raw.toLowerCase();
      return sql`
        select claim_id from claim_list where claim_number = ${raw}
        union select claim_id from claim_list where order_number = ${raw}
        union select claim_id from claim_list where lower(customer_email) = ${lower}
        union select s.claim_id from claim_search s where s.skus @> array[${lower}]::text[] and ${inStores}`;
    }
    case 'contains': {
      const parts = [...new Set(raw.toLowerCase().split(/\s+/).filter(Boolean))];
      if (!parts.some((p) => p.length >= MIN_INDEXED_LENGTH)) return null;
      const likes = parts.map((p) => sql`s.document like ${containsPattern(p)}`);
      return sql`select s.claim_id from claim_search s where ${sql.join(likes, sql` and `)} and ${inStores}`;
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
      const conditions = [...contained, inStores];
      if (terms.length > 0) conditions.push(sql`s.words @@ to_tsquery('simple', ${terms.join(' & ')})`);
      return sql`select s.claim_id from claim_search s where ${sql.join(conditions, sql` and `)}`;
    }
  }
}

/**
 * At most this many matching claim ids are fetched before the page: more than that (a word most
 * claims hold) and the page reads the list in its sort order instead, where matches are dense.
 */
export const SEARCH_ID_LIMIT = 5_000;

/** What a search found for one kind of match: every matching claim id, or, past SEARCH_ID_LIMIT, the condition to filter the list by. */
export type SearchedClaims = { kind: 'ids'; ids: string[] } | { kind: 'many'; condition: RawBuilder<unknown> };

/**
 * The claims a search matches for one kind of match, looked up in the search index first so that the
 * page then reads only those rows of the list by key (a surname or part of an email matches a few
 * thousand of a million claims; filtering the list row by row in its sort order would read most of it).
 * Null when that kind matches nothing.
 */
export async function searchClaims(
  db: QueryExecutorProvider,
  search: string,
  match: SearchMatch,
  storeIds: readonly string[] | null,
): Promise<SearchedClaims | null> {
  const ids = await matchingIds(db, search, match, storeIds);
  if (!ids) return null;
  const { rows } = await sql<{
    claim_id: string;
  }>`select claim_id from (${ids}) m limit ${SEARCH_ID_LIMIT + 1}`.execute(db);
  if (rows.length === 0) return null;
  if (rows.length > SEARCH_ID_LIMIT) return { kind: 'many', condition: sql`c.claim_id in (${ids})` };
  return { kind: 'ids', ids: rows.map((r) => r.claim_id) };
}

/** The search as a condition on `c` (the claim list row). */
export const searchedCondition = (searched: SearchedClaims): RawBuilder<unknown> =>
  searched.kind === 'ids' ? sql`c.claim_id = any(${searched.ids}::uuid[])` : searched.condition;

/** The kinds of match a search tries, in order: the first that finds anything is the answer. */
export const SEARCH_ORDER: readonly SearchMatch[] = ['exact', 'contains', 'close'];
