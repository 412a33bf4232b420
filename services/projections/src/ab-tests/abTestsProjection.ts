import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { defineProjection } from '../runtime/projection.js';

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
  handles: ['AbVariantAssigned', 'ClaimFiled'],
  migrations,
  tables: ['ab_test_assignments', 'ab_test_filed_claims'],
  async apply(trx, event) {
    switch (event.type) {
      case 'AbVariantAssigned':
        await sql`
          insert into ab_test_assignments (test_id, session_id, store_id, order_id, variant_id)
          values (${event.data.testId}, ${event.data.sessionId}, ${event.data.storeId}, ${event.data.orderId}, ${event.data.variantId})
          on conflict do nothing`.execute(trx);
        return;
      case 'ClaimFiled':
        await sql`
          insert into ab_test_filed_claims (claim_id, store_id, order_id, resolution)
          values (${event.data.claimId}, ${event.data.storeId}, ${event.data.orderId}, ${event.data.desiredMethod})
          on conflict do nothing`.execute(trx);
        return;
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },
});
