import { readerOf, handling, ignoring } from '@claims/contracts';
import { sql, type QueryExecutorProvider } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { payoutLinesOf } from '@claims/domain';
import { defineProjection, type ProjectedEvent } from '../runtime/projection.js';
import { recordset, insertNew } from '../runtime/bulkRows.js';

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
  // A reversed resolution is no longer owed, and its credit's unredeemed part was taken back: both leave the figures.
  '2600_claim_analytics_reversals': sqlMigration(
    sql`alter table claim_analytics_lines add column reversed boolean not null default false`,
    sql`alter table claim_analytics_credits add column reclaimed bigint not null default 0`,
    // The reversals and reclaims recorded before the projection handled them (where the event store shares the
    // database); both are idempotent, so one applied again afterwards changes nothing.
    sql`
      do $$ begin
        if to_regclass('events') is not null then
          update claim_analytics_lines l set reversed = true
          from (select (jsonb_array_elements(data->'lines')->>'resolutionId')::uuid as id from events where type = 'ClaimResolutionReversed') r
          where l.id = r.id;
          update claim_analytics_credits c set reclaimed = (e.data->>'amount')::bigint
          from events e where e.type = 'StoreCreditReclaimed' and c.resolution_id = (e.data->>'resolutionId')::uuid;
        end if;
      end $$`,
  ),
};

/**
 * Claim analytics: the facts of each claim the dashboards count (when and where it was filed, its type,
 * carrier and shipment status, its first response from the store, its decision, the value of each decided
 * line and whether it was reversed since, the credit issued and what a reversal reclaimed of it, and the shopper's
 * rating), kept from the events alone.
 */
export const claimAnalyticsProjection = defineProjection({
  name: 'claim-analytics',
  ...readerOf(['claim', 'store-credit'], {
    ClaimFiled: 'handle',
    ClaimStatusChanged: 'ignore',
    ClaimAssigned: 'ignore',
    StoreCreditIssued: 'handle',
    StoreCreditRedeemed: 'ignore',
    StoreCreditAdjusted: 'ignore',
    StoreCreditReclaimed: 'handle',
    ...handling('decisions', 'conversation'),
    ...ignoring('deskMarks', 'returns'),
  }),
  migrations,
  tables: ['claim_analytics', 'claim_analytics_lines', 'claim_analytics_credits'],
  async applyBatch(trx, events) {
    const filed: object[] = [];
    const credits: object[] = [];
    const firstResponses = new Map<string, string>();
    const ratings = new Map<string, number>();
    const resolutions: ProjectedEvent<'ClaimResolved'>[] = [];
    const reversedLines: string[] = [];
    const reclaims = new Map<string, number>();
    for (const event of events) {
      switch (event.type) {
        case 'ClaimFiled': {
          const d = event.data;
          // Counted under the shipment of its first item (a claim over several shipments is still one claim).
          const shipment = d.shipments?.[0] ?? null;
          filed.push({
            claim_id: d.claimId,
            store_id: d.storeId,
            filed_at: d.filedAt,
            claim_type: d.claimType,
            is_ota: d.isOta,
            currency: d.currency,
            carrier: shipment?.carrier ?? null,
            shipment_status: shipment?.status ?? null,
          });
          break;
        }
        case 'ClaimMessageSent':
          if (
            (event.data.senderType === 'merchant' || event.data.senderType === 'staff') &&
            !firstResponses.has(event.data.claimId)
          ) {
            firstResponses.set(event.data.claimId, event.occurredAt);
          }
          break;
        case 'ClaimResolved':
          resolutions.push(event);
          break;
        case 'ClaimResolutionReversed':
          reversedLines.push(...event.data.lines.map((line) => line.resolutionId));
          break;
        case 'ClaimReviewed':
          ratings.set(event.data.claimId, event.data.rating);
          break;
        case 'StoreCreditReclaimed':
          reclaims.set(event.data.resolutionId, event.data.amount);
          break;
        case 'StoreCreditIssued': {
          const d = event.data;
          credits.push({ resolution_id: d.resolutionId, claim_id: d.claimId, amount: d.amount, currency: d.currency });
          break;
        }
        default: {
          const exhaustive: never = event;
          return exhaustive;
        }
      }
    }
    await insertNew(
      trx,
      'claim_analytics',
      filed,
      'claim_id uuid, store_id uuid, filed_at timestamptz, claim_type text, is_ota boolean, currency text, carrier text, shipment_status text',
      ['claim_id'],
    );
    if (firstResponses.size > 0) {
      await sql`update claim_analytics c set first_response_at = coalesce(c.first_response_at, r.at)
        from ${recordset(
          [...firstResponses].map(([claimId, at]) => ({ claim_id: claimId, at })),
          'claim_id uuid, at timestamptz',
        )}
        where c.claim_id = r.claim_id`.execute(trx);
    }
    if (resolutions.length > 0) await writeDecisions(trx, resolutions);
    if (ratings.size > 0) {
      await sql`update claim_analytics c set rating = r.rating
        from ${recordset(
          [...ratings].map(([claimId, rating]) => ({ claim_id: claimId, rating })),
          'claim_id uuid, rating int',
        )}
        where c.claim_id = r.claim_id`.execute(trx);
    }
    await insertNew(
      trx,
      'claim_analytics_credits',
      credits,
      'resolution_id uuid, claim_id uuid, amount bigint, currency text',
      ['resolution_id'],
    );
    // After the inserts: a line (or credit) and its reversal may come in one batch, the reversal always after it.
    if (reversedLines.length > 0) {
      await sql`update claim_analytics_lines set reversed = true where id = any(${reversedLines}::uuid[])`.execute(trx);
    }
    if (reclaims.size > 0) {
      await sql`update claim_analytics_credits c set reclaimed = r.amount
        from ${recordset(
          [...reclaims].map(([resolutionId, amount]) => ({ resolution_id: resolutionId, amount })),
          'resolution_id uuid, amount bigint',
        )}
        where c.resolution_id = r.resolution_id`.execute(trx);
    }
  },
});

/**
 * Every decided line valued in the store's currency (from the claim's currency, so only for claims the
 * table holds), and each claim's decision: the first decision that leaves it Resolved (approved) or Denied.
 */
async function writeDecisions(
  trx: QueryExecutorProvider,
  resolutions: readonly ProjectedEvent<'ClaimResolved'>[],
): Promise<void> {
  const claimIds = [...new Set(resolutions.map((e) => e.data.claimId))];
  const { rows } = await sql<{
    claim_id: string;
    currency: string;
  }>`select claim_id, currency from claim_analytics where claim_id = any(${claimIds}::uuid[])`.execute(trx);
  const currencies = new Map(rows.map((r) => [r.claim_id, r.currency]));
  const lines: object[] = [];
  const decisions = new Map<string, { claim_id: string; at: string; outcome: string }>();
  for (const { data: d, occurredAt } of resolutions) {
    const currency = currencies.get(d.claimId);
    if (!currency) continue;
    const owed = new Map(payoutLinesOf(d, currency).map((line) => [line.id, line]));
    const storeCurrency = d.valuation?.storeCurrency ?? currency;
    for (const line of d.resolutions) {
      lines.push({
        id: line.id,
        claim_id: d.claimId,
        resolution_type: line.resolutionType,
        reason: line.reason,
        amount: owed.get(line.id)?.amount ?? 0,
        currency: owed.get(line.id)?.currency ?? storeCurrency,
      });
    }
    if ((d.status === 'RESOLVED' || d.status === 'DENIED') && !decisions.has(d.claimId)) {
      decisions.set(d.claimId, {
        claim_id: d.claimId,
        at: occurredAt,
        outcome: d.status === 'RESOLVED' ? 'APPROVED' : 'DENIED',
      });
    }
  }
  await insertNew(
    trx,
    'claim_analytics_lines',
    lines,
    'id uuid, claim_id uuid, resolution_type text, reason text, amount bigint, currency text',
    ['id'],
  );
  if (decisions.size > 0) {
    await sql`update claim_analytics c set decided_at = r.at, outcome = r.outcome
      from ${recordset([...decisions.values()], 'claim_id uuid, at timestamptz, outcome text')}
      where c.claim_id = r.claim_id and c.decided_at is null`.execute(trx);
  }
}
