import { readerOf, ignoring } from '@claims/contracts';
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { defineProjection } from '../runtime/projection.js';
import { rowFold } from '../runtime/rowFold.js';

const migrations: Record<string, Migration> = {
  '2200_claim_reviews': sqlMigration(
    sql`
      create table claim_reviews (
        review_id uuid primary key,
        claim_id uuid not null,
        rating smallint not null,
        text text not null,
        created_at timestamptz not null
      )`,
    sql`create index claim_reviews_created on claim_reviews (created_at desc, review_id desc)`,
    sql`create index claim_reviews_claim on claim_reviews (claim_id)`,
  ),
};

/** A review is written once, when the shopper leaves it. */
const reviewRows = rowFold({
  table: 'claim_reviews',
  columns: { review_id: 'uuid', claim_id: 'uuid', rating: 'smallint', text: 'text', created_at: 'timestamptz' },
  key: ['review_id'],
  handles: ['ClaimReviewed'],
  startedBy: ['ClaimReviewed'],
  rowKey: (event) => ({ review_id: event.data.id }),
  evolve: (row, { data }) =>
    row ?? {
      review_id: data.id,
      claim_id: data.claimId,
      rating: data.rating,
      text: data.text,
      created_at: data.createdAt,
    },
});

/** Shoppers' reviews of how their claim was handled, for the desk's reviews list (the API adds each claim's number, store and shopper from the claim list). */
export const claimReviewsProjection = defineProjection({
  name: 'claim-reviews',
  ...readerOf(['claim'], {
    ClaimFiled: 'ignore',
    ClaimStatusChanged: 'ignore',
    ClaimMessageSent: 'ignore',
    ClaimReviewed: 'handle',
    ClaimAssigned: 'ignore',
    ...ignoring('decisions', 'deskMarks', 'returns'),
  }),
  migrations,
  tables: ['claim_reviews'],
  applyBatch: reviewRows.applyBatch,
});
