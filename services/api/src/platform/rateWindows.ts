import { sql, type QueryExecutorProvider } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';

/**
 * Fixed-window counters kept in PostgreSQL, so that every process of the product counts against the same limit
 * (`API_PROCESSES=N`, separate worker processes): one row per key, taken in one statement.
 */
export const rateWindowMigrations: Record<string, Migration> = {
  '2660_rate_windows': sqlMigration(
    sql`create table rate_windows (key text primary key, hits int not null, window_ends_at timestamptz not null)`,
    sql`create index rate_windows_end on rate_windows (window_ends_at)`,
  ),
};

export interface WindowHit {
  /** Hits in the current window, this one included. */
  hits: number;
  windowEndsAt: string;
}

/** Counts one hit on `key`: a window that has ended starts afresh. Concurrent hits each count (the row's lock orders them). */
export async function hitWindow(
  db: QueryExecutorProvider,
  key: string,
  windowMs: number,
  now: string,
): Promise<WindowHit> {
  const {
    rows: [row],
  } = await sql<{ hits: number; window_ends_at: Date }>`
    insert into rate_windows as w (key, hits, window_ends_at)
    values (${key}, 1, ${now}::timestamptz + ${windowMs} * interval '1 millisecond')
    on conflict (key) do update set
      hits = case when w.window_ends_at <= ${now}::timestamptz then 1 else w.hits + 1 end,
      window_ends_at = case when w.window_ends_at <= ${now}::timestamptz then excluded.window_ends_at else w.window_ends_at end
    returning hits, window_ends_at`.execute(db);
  return { hits: row!.hits, windowEndsAt: new Date(row!.window_ends_at).toISOString() };
}

/** A 429's `Retry-After`: whole seconds until `until`, at least one. */
export const retryAfterSeconds = (until: string, now: string): number =>
  Math.max(1, Math.ceil((Date.parse(until) - Date.parse(now)) / 1000));

/** Drops the windows that have ended (the hourly sweep). */
export async function deleteEndedWindows(db: QueryExecutorProvider, now: string): Promise<number> {
  const { rows } = await sql<{
    key: string;
  }>`delete from rate_windows where window_ends_at <= ${now}::timestamptz returning key`.execute(db);
  return rows.length;
}
