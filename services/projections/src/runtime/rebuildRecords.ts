import { sql, type QueryExecutorProvider } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';

/** The last rebuild of each projection as the operations page shows it (any process may run or read it). */
export const rebuildRecordMigrations: Record<string, Migration> = {
  '1900_projection_rebuilds': sqlMigration(
    sql`
      create table projection_rebuilds (
        projection text primary key,
        status text not null,
        done bigint not null default 0,
        total bigint not null default 0,
        error text,
        started_at timestamptz not null default now(),
        finished_at timestamptz
      )`,
  ),
};

export interface RebuildRecord {
  projection: string;
  status: 'running' | 'done' | 'failed';
  done: number;
  total: number;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
}

export async function startRebuildRecord(db: QueryExecutorProvider, projection: string): Promise<void> {
  await sql`
    insert into projection_rebuilds (projection, status) values (${projection}, 'running')
    on conflict (projection) do update set status = 'running', done = 0, total = 0, error = null, started_at = now(), finished_at = null`.execute(
    db,
  );
}

export async function recordRebuildProgress(
  db: QueryExecutorProvider,
  projection: string,
  progress: { done: number; total: number },
): Promise<void> {
  await sql`update projection_rebuilds set done = ${progress.done}, total = ${progress.total} where projection = ${projection}`.execute(
    db,
  );
}

export async function finishRebuild(
  db: QueryExecutorProvider,
  projection: string,
  progress: { done: number; total: number } | null,
  error: string | null,
): Promise<void> {
  await sql`
    update projection_rebuilds set status = ${error === null ? 'done' : 'failed'}, error = ${error}, finished_at = now(),
      done = coalesce(${progress?.done ?? null}::bigint, done), total = coalesce(${progress?.total ?? null}::bigint, total)
    where projection = ${projection}`.execute(db);
}

export async function listRebuilds(db: QueryExecutorProvider): Promise<RebuildRecord[]> {
  const { rows } = await sql<{
    projection: string;
    status: RebuildRecord['status'];
    done: string;
    total: string;
    error: string | null;
    started_at: Date | string;
    finished_at: Date | string | null;
  }>`
    select projection, status, done, total, error, started_at, finished_at from projection_rebuilds order by projection`.execute(
    db,
  );
  return rows.map((r) => ({
    projection: r.projection,
    status: r.status,
    done: Number(r.done),
    total: Number(r.total),
    error: r.error,
    startedAt: new Date(r.started_at).toISOString(),
    finishedAt: r.finished_at === null ? null : new Date(r.finished_at).toISOString(),
  }));
}
