import { readerOf, ignoring } from '@claims/contracts';
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { defineProjection } from '../runtime/projection.js';
import { rowFold } from '../runtime/rowFold.js';

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

/** The variant a claim session was given in a test: a session is assigned once per test. */
const assignmentRows = rowFold({
  table: 'ab_test_assignments',
  columns: { test_id: 'uuid', session_id: 'uuid', store_id: 'uuid', order_id: 'uuid', variant_id: 'text' },
  key: ['test_id', 'session_id'],
  handles: ['AbVariantAssigned'],
  startedBy: ['AbVariantAssigned'],
  rowKey: ({ data }) => ({ test_id: data.testId, session_id: data.sessionId }),
  evolve: (row, { data }) =>
    row ?? {
      test_id: data.testId,
      session_id: data.sessionId,
      store_id: data.storeId,
      order_id: data.orderId,
      variant_id: data.variantId,
    },
});

/** Each claim filed, with the resolution its shopper chose. */
const filedClaimRows = rowFold({
  table: 'ab_test_filed_claims',
  columns: { claim_id: 'uuid', store_id: 'uuid', order_id: 'uuid', resolution: 'text' },
  key: ['claim_id'],
  handles: ['ClaimFiled'],
  startedBy: ['ClaimFiled'],
  rowKey: ({ data }) => ({ claim_id: data.claimId }),
  evolve: (row, { data }) =>
    row ?? { claim_id: data.claimId, store_id: data.storeId, order_id: data.orderId, resolution: data.desiredMethod },
});

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
    ClaimAssigned: 'ignore',
    ...ignoring('decisions', 'conversation', 'deskMarks', 'returns'),
  }),
  migrations,
  tables: ['ab_test_assignments', 'ab_test_filed_claims'],
  async applyBatch(trx, events) {
    await assignmentRows.applyBatch(trx, events);
    await filedClaimRows.applyBatch(trx, events);
  },
});
