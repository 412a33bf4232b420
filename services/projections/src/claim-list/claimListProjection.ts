import { readerOf, handling } from '@claims/contracts';
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { lineValue, protectionStatus, requestedResolution, riskOfFiled } from '@claims/domain';
import { defineProjection } from '../runtime/projection.js';
import { rowFold } from '../runtime/rowFold.js';
import { claimListRiskBackfill } from './claimListRiskBackfill.js';

const migrations: Record<string, Migration> = {
  '0200_claim_list': sqlMigration(
    sql`
      create table claim_list (
        claim_id uuid primary key,
        store_id uuid not null,
        claim_number text not null,
        status text not null,
        claim_type text not null,
        order_id uuid not null,
        source_order_id text not null,
        order_number text not null,
        customer_email text not null,
        customer_name text not null,
        protection_status text not null,
        requested_resolution text not null,
        currency text not null,
        claimed_value bigint not null,
        item_count int not null,
        message_count int not null default 0,
        resolution_type text,
        resolved_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        version bigint not null
      )`,
    // Keyset pagination walks (created_at desc, claim_id desc) inside a store, optionally by status.
    sql`create index claim_list_store_created on claim_list (store_id, created_at desc, claim_id desc)`,
    sql`create index claim_list_store_status_created on claim_list (store_id, status, created_at desc, claim_id desc)`,
    sql`create index claim_list_created on claim_list (created_at desc, claim_id desc)`,
    sql`create index claim_list_number on claim_list (claim_number)`,
    sql`create index claim_list_order_number on claim_list (order_number)`,
    sql`create index claim_list_email on claim_list (lower(customer_email))`,
  ),
  // A rare type filter otherwise walks the created_at index discarding ~80k rows a page at 1M claims
  // (first page 95 ms -> 8.5 ms in SQL, docs/benchmarks.md).
  '0210_claim_list_by_type': sqlMigration(
    sql`create index claim_list_type_created on claim_list (claim_type, created_at desc, claim_id desc)`,
  ),
  // The queue sorted by claimed value, both ways (a backward scan serves ascending), keyset like the rest.
  '1820_claim_list_by_value': sqlMigration(
    sql`create index claim_list_store_value on claim_list (store_id, claimed_value desc, claim_id desc)`,
    sql`create index claim_list_value on claim_list (claimed_value desc, claim_id desc)`,
  ),
  // The rows of claims whose resolution was reversed before the projection handled it (where the event store shares
  // the database): folded again from the claim's events, as applyBatch would have; applying the reversal afterwards
  // changes nothing.
  '2610_claim_list_reversals': sqlMigration(
    sql`
      do $$ begin
        if to_regclass('events') is not null then
          with reversal as (
            select distinct on (stream_id) stream_id, stream_version, occurred_at from events
            where type = 'ClaimResolutionReversed' order by stream_id, stream_version desc),
          since as (
            select r.stream_id,
              (select e.data->'resolutions'->0->>'resolutionType' from events e
                where e.stream_id = r.stream_id and e.type = 'ClaimResolved' and e.stream_version > r.stream_version
                order by e.stream_version limit 1) as resolution_type,
              (select max(e.occurred_at) from events e
                where e.stream_id = r.stream_id and e.type = 'ClaimResolved' and e.stream_version > r.stream_version
                  and e.data->>'status' in ('RESOLVED', 'DENIED')) as resolved_at,
              r.stream_version, r.occurred_at
            from reversal r)
          update claim_list c set resolution_type = s.resolution_type, resolved_at = s.resolved_at,
            updated_at = greatest(c.updated_at, s.occurred_at), version = greatest(c.version, s.stream_version)
          from since s where c.claim_id = s.stream_id::uuid;
        end if;
      end $$`,
  ),
  // The queue's risk column and filter read the claim's risk here, from its ClaimFiled like the rest of the row, rather
  // than join the claim-risk projection's table (docs/decisions/claim-queue.md "Risk in the queue"). Nullable: rows
  // of a projection database apart from the event store have none until it is rebuilt.
  '2900_claim_list_risk': sqlMigration(
    sql`alter table claim_list add column risk_level text, add column risk_score smallint`,
    sql`create index claim_list_store_risk_created on claim_list (store_id, risk_level, created_at desc, claim_id desc)`,
  ),
  '2910_claim_list_risk_backfill': claimListRiskBackfill,
};

/** Every event of a claim's stream moves its row (its version, at least). */
const claimListReader = readerOf(['claim'], {
  ClaimFiled: 'handle',
  ClaimStatusChanged: 'handle',
  ClaimAssigned: 'handle',
  ...handling('decisions', 'conversation', 'deskMarks', 'returns'),
});

/** A claim's row: filed with its order, customer and items, then moved by each event of the claim's stream. */
const claimRows = rowFold({
  table: 'claim_list',
  columns: {
    claim_id: 'uuid',
    store_id: 'uuid',
    claim_number: 'text',
    status: 'text',
    claim_type: 'text',
    order_id: 'uuid',
    source_order_id: 'text',
    order_number: 'text',
    customer_email: 'text',
    customer_name: 'text',
    protection_status: 'text',
    requested_resolution: 'text',
    currency: 'text',
    claimed_value: 'bigint',
    item_count: 'int',
    message_count: 'int',
    resolution_type: 'text | null',
    resolved_at: 'timestamptz | null',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
    version: 'bigint',
    risk_level: 'text | null',
    risk_score: 'smallint | null',
  },
  key: ['claim_id'],
  handles: claimListReader.handles,
  startedBy: ['ClaimFiled'],
  rowKey: (event) => ({ claim_id: event.data.claimId }),
  evolve(row, event) {
    if (event.type === 'ClaimFiled') {
      const d = event.data;
      const risk = riskOfFiled(d);
      return (
        row ?? {
          claim_id: d.claimId,
          store_id: d.storeId,
          claim_number: d.claimNumber,
          status: 'NEW',
          claim_type: d.claimType,
          order_id: d.orderId,
          source_order_id: d.sourceOrderId,
          order_number: d.orderNumber,
          customer_email: d.customer.email,
          customer_name: d.customer.name,
          protection_status: protectionStatus({ isOta: d.isOta, policy: d.policy }),
          requested_resolution: requestedResolution(d.items),
          currency: d.currency,
          claimed_value: d.items.reduce((sum, i) => sum + lineValue(i, i.quantity), 0),
          item_count: d.items.length,
          message_count: 0,
          resolution_type: null,
          resolved_at: null,
          created_at: d.filedAt,
          updated_at: event.occurredAt,
          version: event.streamVersion,
          risk_level: risk.level,
          risk_score: risk.score,
        }
      );
    }
    if (!row) return null;
    const moved = { ...row, version: event.streamVersion };
    const active = { ...moved, updated_at: event.occurredAt };
    switch (event.type) {
      case 'ClaimStatusChanged':
        return { ...active, status: event.data.to };
      // Items may be decided in several passes: the first decision names the row's resolution type, the
      // last (the one that leaves the claim Resolved or Denied) its resolution time.
      case 'ClaimResolved': {
        const { status, resolutions } = event.data;
        return {
          ...active,
          status,
          resolution_type: row.resolution_type ?? resolutions[0]!.resolutionType,
          resolved_at: status === 'RESOLVED' || status === 'DENIED' ? event.occurredAt : row.resolved_at,
        };
      }
      // A reversal takes back every standing line (decideReverse), so the claim is undecided until the next decision.
      case 'ClaimResolutionReversed':
        return { ...active, resolution_type: null, resolved_at: null };
      case 'ClaimMessageSent':
        return { ...active, message_count: row.message_count + 1 };
      // The back-office's own marks, a review and a return move the row's version (so a list's expectedVersion stays
      // exact), not its updated_at: that is the claim's last activity, which the SLA timers count from (docs/decisions/agent-desk.md).
      case 'ClaimNoteAdded':
      case 'ClaimLabelAdded':
      case 'ClaimLabelRemoved':
      case 'ClaimMetadataSet':
      case 'ClaimAssigned':
      case 'ClaimReviewed':
      case 'ReturnStarted':
      case 'ReturnStatusChanged':
        return moved;
    }
  },
});

/** The claim desk's queue: one row per claim, kept current by the claim's events. */
export const claimListProjection = defineProjection({
  name: 'claim-list',
  ...claimListReader,
  migrations,
  tables: ['claim_list'],
  // applyBatch writes by primary key only: the rest are built once a rebuild has loaded the rows.
  indexedAfterLoad: [
    'claim_list_store_created',
    'claim_list_store_status_created',
    'claim_list_created',
    'claim_list_number',
    'claim_list_order_number',
    'claim_list_email',
    'claim_list_type_created',
    'claim_list_store_value',
    'claim_list_value',
    'claim_list_store_risk_created',
  ],
  applyBatch: claimRows.applyBatch,
});
