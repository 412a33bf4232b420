import type { Migration } from 'kysely/migration';
import { registerMigrations } from '@claims/event-store';
import { claimListProjection } from './claim-list/claimListProjection.js';
import { claimTimelineProjection } from './claim-timeline/claimTimelineProjection.js';
import { webhookOutboxProjection } from './webhook-outbox/webhookOutboxProjection.js';
import { payoutLedgerProjection } from './payout-ledger/payoutLedgerProjection.js';
import { storeCreditProjection } from './store-credit/storeCreditProjection.js';
import { claimAnalyticsProjection } from './claim-analytics/claimAnalyticsProjection.js';
import { invoicesProjection } from './invoices/invoicesProjection.js';
import { claimSearchProjection } from './claim-search/claimSearchProjection.js';
import { claimAssignmentProjection } from './claim-assignment/claimAssignmentProjection.js';
import { claimReviewsProjection } from './claim-reviews/claimReviewsProjection.js';
import { abTestsProjection } from './ab-tests/abTestsProjection.js';
import { claimReturnsProjection } from './claim-returns/claimReturnsProjection.js';
import { claimRiskProjection } from './claim-risk/claimRiskProjection.js';
import { projectionRuntimeMigrations } from './runtime/projectionMigrations.js';
import { projectionFaultMigrations } from './runtime/projectionFaults.js';
import type { Projection } from './runtime/projection.js';

/** Every read model the product keeps, by name (the names `npm run replay -- --projection` takes). */
export const PROJECTIONS: readonly Projection[] = [
  claimListProjection,
  claimTimelineProjection,
  webhookOutboxProjection,
  payoutLedgerProjection,
  storeCreditProjection,
  claimAnalyticsProjection,
  invoicesProjection,
  claimSearchProjection,
  claimAssignmentProjection,
  claimReviewsProjection,
  abTestsProjection,
  claimReturnsProjection,
  claimRiskProjection,
];

export const projectionMigrations: Record<string, Migration> = registerMigrations(
  projectionRuntimeMigrations,
  projectionFaultMigrations,
  ...PROJECTIONS.map((p) => p.migrations),
);

export {
  DELIVERIES_DUE_CHANNEL,
  WEBHOOK_OUTBOX,
  webhookOutboxProjection,
} from './webhook-outbox/webhookOutboxProjection.js';
