import { readerOf } from '@claims/contracts';
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { defineProjection } from '../runtime/projection.js';
import { recordset } from '../runtime/bulkRows.js';

const migrations: Record<string, Migration> = {
  '2500_ab_tests': sqlMigration(
    sql`
      create table ab_test_assignments (
        test_id uuid not null,
        session_id uuid not null,
        store_id uuid not null,
        order_id uuid not null,
        variant_id text not null,
        primary key (test_id, session_id)
      )`,
    sql`create index ab_test_assignments_order on ab_test_assignments (order_id)`,
    sql`
      create table ab_test_filed_claims (
        claim_id uuid primary key,
        store_id uuid not null,
        order_id uuid not null,
        resolution text not null
      )`,
    sql`create index ab_test_filed_claims_order on ab_test_filed_claims (order_id)`,
  ),
};

/**
 * A/B test results: which variant each claim session was assigned, and each claim filed with the resolution
 * its shopper chose. They meet by order (one claim session per order) when read, so the order the two
 * streams arrive in (different Kafka partitions) does not matter.
 */
export const abTestsProjection = defineProjection({
  name: 'ab-tests',
  ...readerOf(['ab-assignments', 'claim'], {
    AbVariantAssigned: 'handle',
    ClaimFiled: 'handle',
    ClaimStatusChanged: 'ignore',
    ClaimResolved: 'ignore',
    ClaimMessageSent: 'ignore',
    ClaimReviewed: 'ignore',
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
  tables: ['ab_test_assignments', 'ab_test_filed_claims'],
  async applyBatch(trx, events) {
    const assignments: object[] = [];
    const filed: object[] = [];
    for (const event of events) {
      switch (event.type) {
        case 'AbVariantAssigned': {
          const d = event.data;
          assignments.push({
            test_id: d.testId,
            session_id: d.sessionId,
            store_id: d.storeId,
            order_id: d.orderId,
            variant_id: d.variantId,
          });
          break;
        }
        case 'ClaimFiled':
          filed.push({
            claim_id: event.data.claimId,
            store_id: event.data.storeId,
            order_id: event.data.orderId,
            resolution: event.data.desiredMethod,
          });
          break;
        default: {
          const exhaustive: never = event;
          return exhaustive;
        }
      }
    }
    if (assignments.length > 0) {
      await sql`
        insert into ab_test_assignments (test_id, session_id, store_id, order_id, variant_id)
        select * from ${recordset(assignments, 'test_id uuid, session_id uuid, store_id uuid, order_id uuid, variant_id text')}
        on conflict do nothing`.execute(trx);
    }
    if (filed.length > 0) {
      await sql`
        insert into ab_test_filed_claims (claim_id, store_id, order_id, resolution)
        select * from ${recordset(filed, 'claim_id uuid, store_id uuid, order_id uuid, resolution text')}
        on conflict do nothing`.execute(trx);
    }
  },
});
