import { sql, type QueryExecutorProvider } from 'kysely';
import type { FinanceReplayRequest, FinanceReplayView } from '@claims/contracts';
import type { Database } from '@claims/event-store';

type Result = Pick<
  FinanceReplayView,
  'stores' | 'differences' | 'premiums' | 'storeCredit' | 'invoices' | 'eventsReplayed'
>;

/** A result as stored; one written before premiums, store credit and invoices were replayed lacks them (nor each line's detail). */
type StoredResult = Result | Pick<Result, 'stores'>;

const emptyResult: Result = {
  stores: [],
  differences: [],
  premiums: { stores: [], differences: [] },
  storeCredit: { stores: [], differences: [] },
  invoices: { stores: [], differences: [] },
  eventsReplayed: 0,
};

const STALLED_AFTER = '2 minutes';

/**
 * The finance_replays table's one owner: each run's request, progress and comparison. A requester runs one replay at a
 * time (a unique index on the running ones, so concurrent requests cannot both start): false when one is under way. A
 * running replay that stopped making progress (its process stopped) is failed first, so it holds nobody back.
 */
export async function insertReplay(
  db: Database['db'],
  id: string,
  requestedBy: string,
  request: FinanceReplayRequest,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await sql`update finance_replays set status = 'failed', error = 'The replay stopped making progress (the service restarted); start it again.', finished_at = now()
      where requested_by = ${requestedBy} and status = 'running' and updated_at < now() - ${STALLED_AFTER}::interval`.execute(
      trx,
    );
    const { rows } = await sql<{ id: string }>`
      insert into finance_replays (id, requested_by, request, status) values (${id}::uuid, ${requestedBy}, ${JSON.stringify(request)}::jsonb, 'running')
      on conflict (requested_by) where status = 'running' do nothing
      returning id`.execute(trx);
    return rows.length > 0;
  });
}

export async function recordProgress(db: QueryExecutorProvider, id: string, progress: number): Promise<void> {
  await sql`update finance_replays set progress = ${progress}, updated_at = now() where id = ${id}::uuid and status = 'running'`.execute(
    db,
  );
}

export async function finishReplay(
  db: QueryExecutorProvider,
  id: string,
  outcome: { result: Result } | { error: string },
): Promise<void> {
  if ('result' in outcome) {
    await sql`update finance_replays set status = 'done', progress = 1, result = ${JSON.stringify(outcome.result)}::jsonb, finished_at = now() where id = ${id}::uuid`.execute(
      db,
    );
  } else {
    await sql`update finance_replays set status = 'failed', error = ${outcome.error}, finished_at = now() where id = ${id}::uuid`.execute(
      db,
    );
  }
}

/** A replay's state for `GET /api/finance/replays/{id}`, or null for an unknown id. */
export async function findReplay(db: QueryExecutorProvider, id: string): Promise<FinanceReplayView | null> {
  const { rows } = await sql<{
    id: string;
    status: FinanceReplayView['status'];
    progress: number;
    request: FinanceReplayRequest;
    result: StoredResult | null;
    error: string | null;
    stalled: boolean;
  }>`
    select id, status, progress, request, result, error, (status = 'running' and updated_at < now() - ${STALLED_AFTER}::interval) as stalled
    from finance_replays where id = ${id}::uuid`.execute(db);
  const row = rows[0];
  if (!row) return null;
  const rules = row.request.rules ?? null;
  const failed = (error: string): FinanceReplayView => ({
    id: row.id,
    status: 'failed',
    progress: Number(row.progress),
    ...emptyResult,
    rules,
    error,
  });
  // A process that stopped mid-replay leaves it running with no progress: say so instead of "running" forever.
  if (row.stalled) return failed('The replay stopped making progress (the service restarted); start it again.');
  if (row.result && !('invoices' in row.result))
    return failed(
      'This replay was recorded by an earlier version, before premiums, store credit and invoices were compared; start it again.',
    );
  return {
    id: row.id,
    status: row.status,
    progress: Number(row.progress),
    ...emptyResult,
    ...row.result,
    rules,
    error: row.error,
  };
}
