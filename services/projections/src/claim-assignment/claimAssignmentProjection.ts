import { sql, type QueryExecutorProvider } from 'kysely';
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

interface Placed { store_id: string; status: string; assignee_id: string | null }

/** One claim leaves a (status, assignee) count of its store and joins another. */
async function moveCount(trx: QueryExecutorProvider, from: Placed, to: Omit<Placed, 'store_id'>): Promise<void> {
  await sql`update claim_queue_counts set claims = claims - 1
    where store_id = ${from.store_id} and status = ${from.status} and assignee_id is not distinct from ${from.assignee_id}::uuid`.execute(trx);
  await addCount(trx, { store_id: from.store_id, ...to });
}

async function addCount(trx: QueryExecutorProvider, to: Placed): Promise<void> {
  await sql`insert into claim_queue_counts (store_id, status, assignee_id, claims) values (${to.store_id}, ${to.status}, ${to.assignee_id}::uuid, 1)
    on conflict (store_id, status, assignee_id) do update set claims = claim_queue_counts.claims + 1`.execute(trx);
}

async function placed(trx: QueryExecutorProvider, claimId: string): Promise<Placed | null> {
  const { rows } = await sql<Placed>`select store_id, status, assignee_id from claim_assignment where claim_id = ${claimId}`.execute(trx);
  return rows[0] ?? null;
}

async function changeStatus(trx: QueryExecutorProvider, claimId: string, status: string): Promise<void> {
  const before = await placed(trx, claimId);
  if (!before || before.status === status) return;
  await sql`update claim_assignment set status = ${status} where claim_id = ${claimId}`.execute(trx);
  await moveCount(trx, before, { status, assignee_id: before.assignee_id });
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
      case 'ClaimFiled': {
        const { rows } = await sql<Placed>`
          insert into claim_assignment (claim_id, store_id, status, customer_activity_at)
          values (${event.data.claimId}, ${event.data.storeId}, 'NEW', ${event.data.filedAt})
          on conflict (claim_id) do nothing
          returning store_id, status, assignee_id`.execute(trx);
        if (rows[0]) await addCount(trx, rows[0]);
        return;
      }
      case 'ClaimStatusChanged':
        await changeStatus(trx, event.data.claimId, event.data.to);
        return;
      case 'ClaimResolved':
        await changeStatus(trx, event.data.claimId, event.data.status);
        return;
      case 'ClaimAssigned': {
        const before = await placed(trx, event.data.claimId);
        if (!before) return;
        const assignee = event.data.assignee;
        await sql`update claim_assignment set assignee_id = ${assignee?.id ?? null}::uuid, assignee_name = ${assignee?.name ?? null}
          where claim_id = ${event.data.claimId}`.execute(trx);
        if (before.assignee_id !== (assignee?.id ?? null)) await moveCount(trx, before, { status: before.status, assignee_id: assignee?.id ?? null });
        return;
      }
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
