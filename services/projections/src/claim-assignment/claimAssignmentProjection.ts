import { readerOf, ignoring } from '@claims/contracts';
import { sql, type QueryExecutorProvider } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { defineProjection } from '../runtime/projection.js';
import { entryOf, recordset } from '../runtime/bulkRows.js';

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

interface AssignmentRow {
  claim_id: string;
  store_id: string;
  status: string;
  assignee_id: string | null;
  assignee_name: string | null;
  customer_activity_at: string;
  store_replied_at: string | null;
  customer_replied: boolean;
}

const iso = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());

/** The rows of these claims as the table holds them before the batch. */
async function loadRows(trx: QueryExecutorProvider, claimIds: string[]): Promise<Map<string, AssignmentRow>> {
  const { rows } = await sql<
    Omit<AssignmentRow, 'customer_activity_at' | 'store_replied_at'> & {
      customer_activity_at: Date | string;
      store_replied_at: Date | string | null;
    }
  >`
    select claim_id, store_id, status, assignee_id, assignee_name, customer_activity_at, store_replied_at, customer_replied
    from claim_assignment where claim_id = any(${claimIds}::uuid[])`.execute(trx);
  return new Map(
    rows.map((r) => [
      r.claim_id,
      { ...r, customer_activity_at: iso(r.customer_activity_at)!, store_replied_at: iso(r.store_replied_at) },
    ]),
  );
}

/**
 * How a batch moves the status tabs' counts: per (store, status, assignee) the net change, and whether a
 * claim entered it (applied one by one, entering creates the count, even if the claim leaves it again).
 */
class CountMoves {
  private readonly moves = new Map<
    string,
    { store_id: string; status: string; assignee_id: string | null; delta: number; entered: boolean }
  >();

  add(row: Pick<AssignmentRow, 'store_id' | 'status' | 'assignee_id'>, delta: 1 | -1): void {
    const move = entryOf(this.moves, `${row.store_id}|${row.status}|${row.assignee_id ?? ''}`, () => ({
      store_id: row.store_id,
      status: row.status,
      assignee_id: row.assignee_id,
      delta: 0,
      entered: false,
    }));
    move.delta += delta;
    if (delta > 0) move.entered = true;
  }

  async write(trx: QueryExecutorProvider): Promise<void> {
    if (this.moves.size === 0) return;
    await sql`
      with r as (select * from ${recordset([...this.moves.values()], 'store_id uuid, status text, assignee_id uuid, delta bigint, entered boolean')}),
      left_behind as (
        update claim_queue_counts q set claims = q.claims + r.delta from r
        where not r.entered and q.store_id = r.store_id and q.status = r.status and q.assignee_id is not distinct from r.assignee_id)
      insert into claim_queue_counts (store_id, status, assignee_id, claims) select store_id, status, assignee_id, delta from r where entered
      on conflict (store_id, status, assignee_id) do update set claims = claim_queue_counts.claims + excluded.claims`.execute(
      trx,
    );
  }
}

/**
 * Working the queue as a team: per claim who works it, its status (mirrored for the counts), when the
 * customer last wrote (the filing is their first word) and whether they wrote after the store's last
 * message; and per store, status and assignee how many claims sit there, for the status tabs. A batch
 * reads its claims' rows once, folds its events into them in memory and writes them back in one upsert.
 */
export const claimAssignmentProjection = defineProjection({
  name: 'claim-assignment',
  ...readerOf(['claim'], {
    ClaimFiled: 'handle',
    ClaimStatusChanged: 'handle',
    ClaimResolved: 'handle',
    ClaimMessageSent: 'handle',
    ClaimReviewed: 'ignore',
    ClaimAssigned: 'handle',
    ClaimResolutionReversed: 'ignore',
    ...ignoring('deskMarks', 'returns'),
  }),
  migrations,
  tables: ['claim_assignment', 'claim_queue_counts'],
  // applyBatch writes by primary key only: the rest are built once a rebuild has loaded the rows.
  indexedAfterLoad: ['claim_assignment_assignee', 'claim_assignment_store_activity', 'claim_assignment_activity'],
  async applyBatch(trx, events) {
    const rows = await loadRows(trx, [...new Set(events.map((e) => e.data.claimId))]);
    const changed = new Set<string>();
    const counts = new CountMoves();
    const move = (row: AssignmentRow, to: Partial<Pick<AssignmentRow, 'status' | 'assignee_id' | 'assignee_name'>>) => {
      const next = { ...row, ...to };
      if (
        next.status === row.status &&
        next.assignee_id === row.assignee_id &&
        next.assignee_name === row.assignee_name
      )
        return;
      if (next.status !== row.status || next.assignee_id !== row.assignee_id) {
        counts.add(row, -1);
        counts.add(next, 1);
      }
      Object.assign(row, to);
      changed.add(row.claim_id);
    };
    for (const event of events) {
      const claimId = event.data.claimId;
      if (event.type === 'ClaimFiled') {
        if (rows.has(claimId)) continue;
        const row: AssignmentRow = {
          claim_id: claimId,
          store_id: event.data.storeId,
          status: 'NEW',
          assignee_id: null,
          assignee_name: null,
          customer_activity_at: iso(event.data.filedAt)!,
          store_replied_at: null,
          customer_replied: false,
        };
        rows.set(claimId, row);
        changed.add(claimId);
        counts.add(row, 1);
        continue;
      }
      const row = rows.get(claimId);
      if (!row) continue;
      switch (event.type) {
        case 'ClaimStatusChanged':
          move(row, { status: event.data.to });
          break;
        case 'ClaimResolved':
          move(row, { status: event.data.status });
          break;
        case 'ClaimAssigned':
          move(row, { assignee_id: event.data.assignee?.id ?? null, assignee_name: event.data.assignee?.name ?? null });
          break;
        case 'ClaimMessageSent': {
          const { senderType, createdAt } = event.data;
          if (senderType === 'customer') {
            if (Date.parse(createdAt) > Date.parse(row.customer_activity_at))
              row.customer_activity_at = iso(createdAt)!;
            row.customer_replied = true;
          } else if (senderType === 'merchant' || senderType === 'staff') {
            row.store_replied_at = iso(createdAt);
            row.customer_replied = false;
          } else {
            break;
          }
          changed.add(claimId);
          break;
        }
      }
    }
    if (changed.size > 0) {
      await sql`
        insert into claim_assignment (claim_id, store_id, status, assignee_id, assignee_name, customer_activity_at, store_replied_at, customer_replied)
        select * from ${recordset(
          [...changed].map((id) => rows.get(id)!),
          `claim_id uuid, store_id uuid, status text, assignee_id uuid, assignee_name text,
          customer_activity_at timestamptz, store_replied_at timestamptz, customer_replied boolean`,
        )}
        on conflict (claim_id) do update set status = excluded.status, assignee_id = excluded.assignee_id, assignee_name = excluded.assignee_name,
          customer_activity_at = excluded.customer_activity_at, store_replied_at = excluded.store_replied_at, customer_replied = excluded.customer_replied`.execute(
        trx,
      );
    }
    await counts.write(trx);
  },
});
