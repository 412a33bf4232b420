import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { payoutLinesOf } from '@claims/domain';
import { defineProjection } from '../runtime/projection.js';

const migrations: Record<string, Migration> = {
  '0900_claim_analytics': sqlMigration(
    // One row of facts per claim; the query aggregates them (medians and p90s with percentile_cont).
    sql`
      create table claim_analytics (
        claim_id uuid primary key,
        store_id uuid not null,
        filed_at timestamptz not null,
        claim_type text not null,
        is_ota boolean not null,
        currency text not null,
        carrier text,
        shipment_status text,
        first_response_at timestamptz,
        decided_at timestamptz,
        outcome text,
        rating int
      )`,
    sql`create index claim_analytics_store_filed on claim_analytics (store_id, filed_at)`,
    sql`create index claim_analytics_filed on claim_analytics (filed_at)`,
    // Every decided line: its type, its reason, what the store is owed for it in the store's currency.
    sql`
      create table claim_analytics_lines (
        id uuid primary key,
        claim_id uuid not null,
        resolution_type text not null,
        reason text,
        amount bigint not null,
        currency text not null
      )`,
    sql`create index claim_analytics_lines_claim on claim_analytics_lines (claim_id)`,
    // Store credit comes on a stream of its own, so through Kafka it may arrive before its claim: a table of its own, joined when read.
    sql`
      create table claim_analytics_credits (
        resolution_id uuid primary key,
        claim_id uuid not null,
        amount bigint not null,
        currency text not null
      )`,
    sql`create index claim_analytics_credits_claim on claim_analytics_credits (claim_id)`,
  ),
};

/**
 * Claim analytics: the facts of each claim the dashboards count (when and where it was filed, its type,
 * carrier and shipment status, its first response from the store, its decision, the value of each decided
 * line, the credit issued and the shopper's rating), kept from the events alone.
 */
export const claimAnalyticsProjection = defineProjection({
  name: 'claim-analytics',
  handles: ['ClaimFiled', 'ClaimMessageSent', 'ClaimResolved', 'ClaimReviewed', 'StoreCreditIssued'],
  migrations,
  tables: ['claim_analytics', 'claim_analytics_lines', 'claim_analytics_credits'],
  async apply(trx, event) {
    switch (event.type) {
      case 'ClaimFiled': {
        const d = event.data;
        // Counted under the shipment of its first item (a claim over several shipments is still one claim).
        const shipment = d.shipments?.[0] ?? null;
        await sql`
          insert into claim_analytics (claim_id, store_id, filed_at, claim_type, is_ota, currency, carrier, shipment_status)
          values (${d.claimId}, ${d.storeId}, ${d.filedAt}, ${d.claimType}, ${d.isOta}, ${d.currency}, ${shipment?.carrier ?? null}, ${shipment?.status ?? null})
          on conflict (claim_id) do nothing`.execute(trx);
        return;
      }
      case 'ClaimMessageSent':
        if (event.data.senderType !== 'merchant' && event.data.senderType !== 'staff') return;
        await sql`update claim_analytics set first_response_at = coalesce(first_response_at, ${event.occurredAt}::timestamptz)
          where claim_id = ${event.data.claimId}`.execute(trx);
        return;
      case 'ClaimResolved': {
        const d = event.data;
        const { rows } = await sql<{ currency: string }>`select currency from claim_analytics where claim_id = ${d.claimId}`.execute(trx);
        const claim = rows[0];
        if (!claim) return;
        const owed = new Map(payoutLinesOf(d, claim.currency).map((line) => [line.id, line]));
        const storeCurrency = d.valuation?.storeCurrency ?? claim.currency;
        for (const line of d.resolutions) {
          await sql`
            insert into claim_analytics_lines (id, claim_id, resolution_type, reason, amount, currency)
            values (${line.id}, ${d.claimId}, ${line.resolutionType}, ${line.reason}, ${owed.get(line.id)?.amount ?? 0}, ${owed.get(line.id)?.currency ?? storeCurrency})
            on conflict (id) do nothing`.execute(trx);
        }
        // The claim is decided by the first decision that leaves it Resolved (approved) or Denied.
        if (d.status === 'RESOLVED' || d.status === 'DENIED') {
          await sql`update claim_analytics set decided_at = ${event.occurredAt}, outcome = ${d.status === 'RESOLVED' ? 'APPROVED' : 'DENIED'}
            where claim_id = ${d.claimId} and decided_at is null`.execute(trx);
        }
        return;
      }
      case 'ClaimReviewed':
        await sql`update claim_analytics set rating = ${event.data.rating} where claim_id = ${event.data.claimId}`.execute(trx);
        return;
      case 'StoreCreditIssued': {
        const d = event.data;
        await sql`insert into claim_analytics_credits (resolution_id, claim_id, amount, currency)
          values (${d.resolutionId}, ${d.claimId}, ${d.amount}, ${d.currency}) on conflict (resolution_id) do nothing`.execute(trx);
        return;
      }
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },
});
