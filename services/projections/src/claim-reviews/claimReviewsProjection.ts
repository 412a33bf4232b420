import { readerOf } from '@claims/contracts';
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { defineProjection } from '../runtime/projection.js';
import { recordset } from '../runtime/bulkRows.js';

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

/** Shoppers' reviews of how their claim was handled, for the desk's reviews list (the API adds each claim's number, store and shopper from the claim list). */
export const claimReviewsProjection = defineProjection({
  name: 'claim-reviews',
  ...readerOf(['claim'], {
    ClaimFiled: 'ignore',
    ClaimStatusChanged: 'ignore',
    ClaimResolved: 'ignore',
    ClaimMessageSent: 'ignore',
    ClaimReviewed: 'handle',
    ClaimNoteAdded: 'ignore',
    ClaimLabelAdded: 'ignore',
    ClaimLabelRemoved: 'ignore',
    ClaimMetadataSet: 'ignore',
    ClaimAssigned: 'ignore',
    ReturnStarted: 'ignore',
    ReturnStatusChanged: 'ignore',
    ClaimResolutionReversed: 'ignore',
  }),
  migrations,
  tables: ['claim_reviews'],
  async applyBatch(trx, events) {
    const rows = events.map(({ data: r }) => ({
      review_id: r.id,
      claim_id: r.claimId,
      rating: r.rating,
      text: r.text,
      created_at: r.createdAt,
    }));
    await sql`
      insert into claim_reviews (review_id, claim_id, rating, text, created_at)
      select * from ${recordset(rows, 'review_id uuid, claim_id uuid, rating int, text text, created_at timestamptz')}
      on conflict (review_id) do nothing`.execute(trx);
  },
});
