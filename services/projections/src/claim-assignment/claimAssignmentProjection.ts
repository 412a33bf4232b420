import { sql, type QueryExecutorProvider, type RawBuilder } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { defineProjection } from '../runtime/projection.js';

const migrations: Record<string, Migration> = {
  '1810_claim_assignment': sqlMigration(
    sql`
      create table claim_assignment (
        claim_id uuid primary key,
        store_id uuid not null,
        status text not null,
        assignee_id uuid,
        assignee_name text,
        customer_activity_at timestamptz not null,
        store_replied_at timestamptz,
        customer_replied boolean not null default false
      )`,
    sql`create index claim_assignment_assignee on claim_assignment (assignee_id)`,
    // The queue sorted by when the customer last wrote walks these (keyset), joining the claim list row by row.
    sql`create index claim_assignment_store_activity on claim_assignment (store_id, customer_activity_at desc, claim_id desc)`,
    sql`create index claim_assignment_activity on claim_assignment (customer_activity_at desc, claim_id desc)`,
    // The status tabs' counts without a filter but store and assignee: a handful of rows per store instead of a count over every claim.
    sql`
      create table claim_queue_counts (
        store_id uuid not null,
        status text not null,
        assignee_id uuid,
        claims bigint not null,
        unique nulls not distinct (store_id, status, assignee_id)
      )`,
  ),
};

/** Adds one to a (store, status, assignee) count, creating it: the tail of each statement below. */
const countIn = (rows: RawBuilder<unknown>, status: RawBuilder<unknown>) => sql`
  insert into claim_queue_counts (store_id, status, assignee_id, claims) select store_id, ${status}, assignee_id, 1 from ${rows} moved
  on conflict (store_id, status, assignee_id) do update set claims = claim_queue_counts.claims + 1`;

/**
 * Moves a claim to another status or assignee and its count with it, in one statement (a rebuild
 * applies hundreds of thousands): nothing when it is there already.
 */
async function move(trx: QueryExecutorProvider, claimId: string, to: { status: string } | { assignee: { id: string; name: string } | null }): Promise<void> {
  const set = 'status' in to
    ? sql`status = ${to.status}`
    : sql`assignee_id = ${to.assignee?.id ?? null}::uuid, assignee_name = ${to.assignee?.name ?? null}`;
  const changes = 'status' in to
    ? sql`old.status is distinct from ${to.status}`
    : sql`old.assignee_id is distinct from ${to.assignee?.id ?? null}::uuid or old.assignee_name is distinct from ${to.assignee?.name ?? null}`;
  await sql`
    with old as (select claim_id, store_id, status, assignee_id, assignee_name from claim_assignment where claim_id = ${claimId}),
    changed as (
      update claim_assignment a set ${set} from old where a.claim_id = old.claim_id and (${changes})
      returning a.store_id, a.status, a.assignee_id, old.status as from_status, old.assignee_id as from_assignee),
    left_behind as (
      update claim_queue_counts q set claims = q.claims - 1 from changed
      where q.store_id = changed.store_id and q.status = changed.from_status and q.assignee_id is not distinct from changed.from_assignee
        and (changed.status, changed.assignee_id) is distinct from (changed.from_status, changed.from_assignee))
    ${countIn(sql`(select * from changed where (status, assignee_id) is distinct from (from_status, from_assignee))`, sql`moved.status`)}`.execute(trx);
}

/**
 * Working the queue as a team: per claim who works it, its status (mirrored for the counts), when the
 * customer last wrote (the filing is their first word) and whether they wrote after the store's last
 * message; and per store, status and assignee how many claims sit there, for the status tabs.
 */
export const claimAssignmentProjection = defineProjection({
  name: 'claim-assignment',
  handles: ['ClaimFiled', 'ClaimStatusChanged', 'ClaimResolved', 'ClaimMessageSent', 'ClaimAssigned'],
  migrations,
  tables: ['claim_assignment', 'claim_queue_counts'],
  async apply(trx, event) {
    switch (event.type) {
      case 'ClaimFiled':
        await sql`
          with filed as (
            insert into claim_assignment (claim_id, store_id, status, customer_activity_at)
            values (${event.data.claimId}, ${event.data.storeId}, 'NEW', ${event.data.filedAt})
            on conflict (claim_id) do nothing
            returning store_id, status, assignee_id)
          ${countIn(sql`filed`, sql`moved.status`)}`.execute(trx);
        return;
      case 'ClaimStatusChanged':
        await move(trx, event.data.claimId, { status: event.data.to });
        return;
      case 'ClaimResolved':
        await move(trx, event.data.claimId, { status: event.data.status });
        return;
      case 'ClaimAssigned':
        await move(trx, event.data.claimId, { assignee: event.data.assignee });
        return;
      case 'ClaimMessageSent': {
        const { claimId, senderType, createdAt } = event.data;
        if (senderType === 'customer') {
          await sql`update claim_assignment set customer_activity_at = greatest(customer_activity_at, ${createdAt}::timestamptz), customer_replied = true
            where claim_id = ${claimId}`.execute(trx);
        } else if (senderType === 'merchant' || senderType === 'staff') {
          await sql`update claim_assignment set store_replied_at = ${createdAt}, customer_replied = false where claim_id = ${claimId}`.execute(trx);
        }
        return;
      }
    }
  },
});
