import { sql, type QueryExecutorProvider, type RawBuilder } from 'kysely';
import type { EventType } from '@claims/contracts';
import type { ProjectedEvent } from './projection.js';
import { recordset } from './bulkRows.js';

/** The PostgreSQL types a folded row's columns may have, and the value each holds in the fold. */
interface ColumnValues {
  uuid: string;
  text: string;
  smallint: number;
  int: number;
  bigint: number;
  boolean: boolean;
  /** An instant as `Date.toISOString()` writes it, whether it came from an event or was read back. */
  timestamptz: string;
  'text[]': string[];
}
type SqlType = keyof ColumnValues;

/** A column's type as the table declares it, `| null` where the column may hold null. */
export type ColumnType = SqlType | `${SqlType} | null`;
export type Columns = Record<string, ColumnType>;

type ValueOf<C extends ColumnType> = C extends `${infer T extends SqlType} | null`
  ? ColumnValues[T] | null
  : C extends SqlType
    ? ColumnValues[C]
    : never;

/** A row of the columns, each holding the value its type folds as. */
export type RowOf<C extends Columns> = { readonly [K in keyof C]: ValueOf<C[K]> };

/**
 * A table whose every row is a fold of events of one stream, as Emmett's document projections are: `evolve` is pure,
 * given the row as the events before left it (null: none yet) and answering it as the event leaves it (null: the row
 * goes). The bulk statements that read, write and delete a batch's rows are generated from `columns`, its one list.
 */
export interface RowFoldDefinition<C extends Columns, K extends keyof C & string, T extends EventType> {
  readonly table: string;
  /** Every column of the table, each written on every upsert: the one list the statements are generated from. */
  readonly columns: C;
  /** The primary key's columns: a row is found and upserted by them. */
  readonly key: readonly K[];
  /** The event types that change these rows; the fold is given no other. */
  readonly handles: readonly T[];
  /**
   * Event types that begin a row's life and come once per row (a claim's filing): no row can be before them, so a row
   * whose first event in a batch is one of them is not read from the table. Saves most reads of a rebuild.
   */
  readonly startedBy?: readonly T[];
  /** The key of the row an event folds into. */
  rowKey(event: ProjectedEvent<T>): { readonly [P in K]: ValueOf<C[P]> };
  evolve(row: RowOf<C> | null, event: ProjectedEvent<T>): RowOf<C> | null;
}

export interface RowFold<C extends Columns, K extends keyof C & string, T extends EventType> extends RowFoldDefinition<
  C,
  K,
  T
> {
  /**
   * Folds a batch's events (in their order) into their rows: reads the rows the batch changes in one statement, folds
   * in memory, upserts what remains in one and deletes what `evolve` removed in one. Events of other types are skipped.
   */
  applyBatch(trx: QueryExecutorProvider, events: readonly ProjectedEvent[]): Promise<void>;
  /** The rows of the given keys as the table holds them, in the values the fold sees. */
  read(trx: QueryExecutorProvider, keys: readonly Pick<RowOf<C>, K>[]): Promise<RowOf<C>[]>;
}

export function rowFold<const C extends Columns, const K extends keyof C & string, const T extends EventType>(
  definition: RowFoldDefinition<C, K, T>,
): RowFold<C, K, T> {
  const { table, columns, key, handles, startedBy = [] } = definition;
  const names = Object.keys(columns);
  const typeOf = (name: string) => columns[name]!.replace(' | null', '') as SqlType;
  const shape = (of: readonly string[]) => of.map((name) => `${name} ${typeOf(name)}`).join(', ');
  const list = (of: readonly string[]) => sql.join(of.map((name) => sql.id(name)));
  const keyOf = (row: Pick<RowOf<C>, K>) => JSON.stringify(key.map((k) => row[k]));
  const keyMatches = (alias: string) =>
    sql.join(
      key.map((k) => sql`${sql.id(alias, k)} = r.${sql.id(k)}`),
      sql` and `,
    );
  const relation = (rows: readonly object[], of: readonly string[]): RawBuilder<unknown> => recordset(rows, shape(of));
  // `handles` is checked at run time; the compiler cannot follow a type guard into a generic `T`.
  const ofFold = (events: readonly ProjectedEvent[]) =>
    events.filter((event) =>
      (handles as readonly string[]).includes(event.type),
    ) as unknown as readonly ProjectedEvent<T>[];
  const starts = (event: ProjectedEvent<T>) => startedBy.includes(event.type as T);

  /** A value as the fold holds it: the driver answers timestamps as Date and bigint as text. */
  const folded = (name: string, value: unknown): unknown => {
    if (value === null) return null;
    switch (typeOf(name)) {
      case 'timestamptz':
        return new Date(value as Date | string).toISOString();
      case 'bigint':
      case 'int':
      case 'smallint':
        return Number(value);
      default:
        return value;
    }
  };

  async function read(trx: QueryExecutorProvider, keys: readonly Pick<RowOf<C>, K>[]): Promise<RowOf<C>[]> {
    if (keys.length === 0) return [];
    const { rows } = await sql<Record<string, unknown>>`
      select ${sql.join(names.map((n) => sql.id('t', n)))} from ${sql.id(table)} t
      join ${relation(keys, key)} on ${keyMatches('t')}`.execute(trx);
    return rows.map((row) => Object.fromEntries(names.map((n) => [n, folded(n, row[n])])) as RowOf<C>);
  }

  async function applyBatch(trx: QueryExecutorProvider, all: readonly ProjectedEvent[]): Promise<void> {
    const events = ofFold(all);
    if (events.length === 0) return;
    // Per row, in the batch's order: its key and whether its first event here begins it.
    const touched = new Map<string, { key: Pick<RowOf<C>, K>; begins: boolean }>();
    for (const event of events) {
      const rowKey = definition.rowKey(event);
      const k = keyOf(rowKey);
      if (!touched.has(k)) touched.set(k, { key: rowKey, begins: starts(event) });
    }
    const stored = await read(
      trx,
      [...touched.values()].filter((t) => !t.begins).map((t) => t.key),
    );
    const rows = new Map<string, RowOf<C> | null>(stored.map((row) => [keyOf(row), row]));
    for (const event of events) {
      const k = keyOf(definition.rowKey(event));
      rows.set(k, definition.evolve(rows.get(k) ?? null, event));
    }
    const kept = [...rows.values()].filter((row): row is RowOf<C> => row !== null);
    const gone = [...rows.entries()].filter(([, row]) => row === null).map(([k]) => touched.get(k)!.key);
    if (kept.length > 0) {
      const updated = names.filter((n) => !(key as readonly string[]).includes(n));
      const onConflict =
        updated.length === 0
          ? sql`do nothing`
          : sql`do update set ${sql.join(updated.map((n) => sql`${sql.id(n)} = excluded.${sql.id(n)}`))}`;
      await sql`
        insert into ${sql.id(table)} (${list(names)}) select ${list(names)} from ${relation(kept, names)}
        on conflict (${list(key)}) ${onConflict}`.execute(trx);
    }
    if (gone.length > 0)
      await sql`delete from ${sql.id(table)} t using ${relation(gone, key)} where ${keyMatches('t')}`.execute(trx);
  }

  return { ...definition, applyBatch, read };
}
