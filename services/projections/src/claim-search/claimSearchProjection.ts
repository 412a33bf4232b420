import { readerOf, ignoring } from '@claims/contracts';
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { defineProjection } from '../runtime/projection.js';
import { recordset } from '../runtime/bulkRows.js';
import { isLexiconWord, searchWords } from './searchText.js';

const migrations: Record<string, Migration> = {
  // pg_trgm is a trusted extension (PostgreSQL 13+): a database owner may create it; PGlite is given it at start.
  '1800_claim_search': sqlMigration(
    sql`create extension if not exists pg_trgm`,
    sql`
      create table claim_search (
        claim_id uuid primary key,
        store_id uuid not null,
        document text not null,
        words tsvector not null,
        item_types text[] not null,
        skus text[] not null
      )`,
    // Any part of a name, email, item, SKU or number (LIKE '%…%'), and near words (typos), through trigrams.
    sql`create index claim_search_document on claim_search using gin (document gin_trgm_ops)`,
    sql`create index claim_search_words on claim_search using gin (words)`,
    sql`create index claim_search_item_types on claim_search using gin (item_types)`,
    sql`create index claim_search_skus on claim_search using gin (skus)`,
    // Every word the claims hold, once: a typo is corrected towards its nearest ones (GiST orders by trigram distance, <->).
    sql`create table claim_search_lexicon (word text primary key)`,
    sql`create index claim_search_lexicon_trgm on claim_search_lexicon using gist (word gist_trgm_ops)`,
  ),
};

/**
 * What the claim queue's search reads: per claim, its customer's name and email, order and claim
 * numbers, items' names and SKUs as one lower-case document (for substrings), its words (full-text),
 * its items' types (a MULTIPLE claim matches each of them) and SKUs; and the lexicon of every word,
 * which typos are corrected against. Joined to the claim list by claim id when queried.
 */
export const claimSearchProjection = defineProjection({
  name: 'claim-search',
  ...readerOf(['claim'], {
    ClaimFiled: 'handle',
    ClaimStatusChanged: 'ignore',
    ClaimAssigned: 'ignore',
    ...ignoring('decisions', 'conversation', 'deskMarks', 'returns'),
  }),
  migrations,
  tables: ['claim_search', 'claim_search_lexicon'],
  // applyBatch writes by primary key only: the rest are built once a rebuild has loaded the rows.
  indexedAfterLoad: [
    'claim_search_document',
    'claim_search_words',
    'claim_search_item_types',
    'claim_search_skus',
    'claim_search_lexicon_trgm',
  ],
  async applyBatch(trx, events) {
    const claims = events.map(({ data: d }) => {
      const document = [
        d.customer.name,
        d.customer.email,
        d.orderNumber,
        d.sourceOrderId,
        d.claimNumber,
        ...d.items.flatMap((i) => [i.name, i.sku]),
      ]
        .join(' ')
        .toLowerCase();
      return {
        claim_id: d.claimId,
        store_id: d.storeId,
        document,
        words: [...new Set(searchWords(document))],
        item_types: [...new Set(d.items.map((i) => i.claimType))],
        skus: [...new Set(d.items.map((i) => i.sku.toLowerCase()))],
      };
    });
    const lexicon = [...new Set(claims.flatMap((c) => c.words.filter(isLexiconWord)))];
    await sql`
      with searched as (
        insert into claim_search (claim_id, store_id, document, words, item_types, skus)
        select claim_id, store_id, document, to_tsvector('simple', array_to_string(words, ' ')), item_types, skus
        from ${recordset(claims, 'claim_id uuid, store_id uuid, document text, words text[], item_types text[], skus text[]')}
        on conflict (claim_id) do nothing)
      insert into claim_search_lexicon (word) select unnest(${lexicon}::text[]) on conflict (word) do nothing`.execute(
      trx,
    );
  },
});
