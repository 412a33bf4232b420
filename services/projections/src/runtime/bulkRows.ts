import { sql, type QueryExecutorProvider, type RawBuilder } from 'kysely';

/**
 * A batch's rows as one relation `r` with the given columns (`name type, …`): the rows go as one
 * jsonb parameter, whatever their count, so a batch of any size is one statement and one round trip.
 * Chosen over one `unnest` array per column because rows hold arrays (SKUs, entry ids) and nulls, which
 * jsonb carries as they are; the rates it gives are in docs/benchmarks.md, "Projections".
 */
export const recordset = (rows: readonly object[], columns: string): RawBuilder<unknown> =>
  sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(${sql.raw(columns)})`;

/** The last value per key wins: what applying the same upsert event by event leaves. */
export function lastBy<R>(rows: readonly R[], key: (row: R) => string): R[] {
  const byKey = new Map<string, R>();
  for (const row of rows) {
    const k = key(row);
    byKey.delete(k);
    byKey.set(k, row);
  }
  return [...byKey.values()];
}

/** A per-key fold: the value for a key, created by `init` the first time it is asked for. */
export function entryOf<V>(map: Map<string, V>, key: string, init: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = init();
    map.set(key, value);
  }
  return value;
}

/**
 * Inserts a batch's rows in one statement, each column of `columns` (`name type, …`, as {@link recordset}) from the
 * row's field of that name. A row whose `key` is already there stays as it is, so a batch applied again changes nothing.
 */
export async function insertNew(
  trx: QueryExecutorProvider,
  table: string,
  rows: readonly object[],
  columns: string,
  key: readonly string[],
): Promise<void> {
  if (rows.length === 0) return;
  const names = columns.split(',').map((column) => sql.id(column.trim().split(/\s+/)[0]!));
  await sql`
    insert into ${sql.id(table)} (${sql.join(names)}) select * from ${recordset(rows, columns)}
    on conflict (${sql.join(key.map((k) => sql.id(k)))}) do nothing`.execute(trx);
}
