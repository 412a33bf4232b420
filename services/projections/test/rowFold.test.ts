import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { EventEnvelope, EventType } from '@claims/contracts';
import { sqlMigration, storedDomainEvent } from '@claims/event-store';
import type { ProjectedEvent } from '../src/runtime/projection.js';
import { rowFold, type Columns, type RowFold, type RowOf } from '../src/runtime/rowFold.js';
import { projectionDatabase } from './support/projectionDatabase.js';
import { claimHistories, claimHistory, interleave } from './support/claimHistories.js';

/**
 * A row per claim label while it is on the claim (a key of two columns; removing the label deletes the row), with how
 * often it was added: a fold that deletes and creates again.
 */
const labelRows = rowFold({
  table: 'fold_labels',
  columns: { claim_id: 'uuid', label: 'text', times_added: 'bigint', version: 'int' },
  key: ['claim_id', 'label'],
  handles: ['ClaimLabelAdded', 'ClaimLabelRemoved'],
  rowKey: ({ data }) => ({ claim_id: data.claimId, label: data.label }),
  evolve: (row, event) =>
    event.type === 'ClaimLabelRemoved'
      ? null
      : {
          claim_id: event.data.claimId,
          label: event.data.label,
          times_added: (row?.times_added ?? 0) + 1,
          version: event.streamVersion,
        },
});

/** A row per claim begun by its filing (never read back for it) and gone once the claim is archived: every column type. */
const activityRows = rowFold({
  table: 'fold_activity',
  columns: {
    claim_id: 'uuid',
    store_id: 'uuid',
    decided: 'boolean',
    senders: 'text[]',
    last_sender: 'text | null',
    messages: 'smallint',
    value: 'bigint',
    decided_at: 'timestamptz | null',
    filed_at: 'timestamptz',
  },
  key: ['claim_id'],
  handles: ['ClaimFiled', 'ClaimMessageSent', 'ClaimResolved', 'ClaimStatusChanged'],
  startedBy: ['ClaimFiled'],
  rowKey: ({ data }) => ({ claim_id: data.claimId }),
  evolve(row, event) {
    switch (event.type) {
      case 'ClaimFiled':
        return {
          claim_id: event.data.claimId,
          store_id: event.data.storeId,
          decided: false,
          senders: [],
          last_sender: null,
          messages: 0,
          // Beyond an int's range, as the driver answers a bigint in text.
          value: 2 ** 40 + event.data.items.length,
          decided_at: null,
          filed_at: event.data.filedAt,
        };
      case 'ClaimMessageSent':
        return (
          row && {
            ...row,
            senders: [...new Set([...row.senders, event.data.senderType])],
            last_sender: event.data.senderName,
            messages: row.messages + 1,
          }
        );
      case 'ClaimResolved':
        return row && { ...row, decided: true, decided_at: event.occurredAt };
      case 'ClaimStatusChanged':
        return event.data.to === 'ARCHIVED' ? null : row;
    }
  },
});

const FOLDS = [labelRows, activityRows];

const migrations = {
  '0001_fold_tables': sqlMigration(
    sql`create table fold_labels (claim_id uuid, label text, times_added bigint not null, version int not null,
      primary key (claim_id, label))`,
    sql`create table fold_activity (claim_id uuid primary key, store_id uuid not null, decided boolean not null,
      senders text[] not null, last_sender text, messages smallint not null, value bigint not null, decided_at timestamptz,
      filed_at timestamptz not null)`,
  ),
};

const projected = (event: EventEnvelope): ProjectedEvent => ({ ...event, ...storedDomainEvent(event) });

/** The fold's rows as `evolve` leaves them applied one event at a time, from no row, with no table in between. */
function foldedOneByOne<C extends Columns, K extends keyof C & string, T extends EventType>(
  fold: RowFold<C, K, T>,
  events: readonly ProjectedEvent[],
): RowOf<C>[] {
  const rows = new Map<string, RowOf<C> | null>();
  for (const event of events) {
    if (!(fold.handles as readonly string[]).includes(event.type)) continue;
    const typed = event as unknown as ProjectedEvent<T>;
    const key = JSON.stringify(fold.key.map((k) => fold.rowKey(typed)[k]));
    rows.set(key, fold.evolve(rows.get(key) ?? null, typed));
  }
  return [...rows.values()].filter((row): row is RowOf<C> => row !== null);
}

/** Every row the table holds, in the values the fold sees (read back by their keys). */
async function tableRows<C extends Columns, K extends keyof C & string, T extends EventType>(
  db: Kysely<unknown>,
  fold: RowFold<C, K, T>,
): Promise<RowOf<C>[]> {
  const { rows: keys } = await sql<Pick<RowOf<C>, K>>`
    select ${sql.join(fold.key.map((k) => sql.id(k)))} from ${sql.id(fold.table)}`.execute(db);
  return fold.read(db, keys);
}

/** The rows in the order of their keys, compared column by column whatever order a row's fields were written in. */
function byKey<C extends Columns, K extends keyof C & string, T extends EventType>(
  fold: RowFold<C, K, T>,
  rows: readonly RowOf<C>[],
): RowOf<C>[] {
  const keyOf = (row: RowOf<C>) => JSON.stringify(fold.key.map((k) => row[k]));
  return [...rows].sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
}

describe('a row fold written in bulk', () => {
  let db: Kysely<unknown>;
  async function expectOneByOne<C extends Columns, K extends keyof C & string, T extends EventType>(
    fold: RowFold<C, K, T>,
    events: readonly ProjectedEvent[],
  ): Promise<void> {
    expect(byKey(fold, await tableRows(db, fold)), fold.table).toEqual(byKey(fold, foldedOneByOne(fold, events)));
  }

  beforeAll(async () => {
    db = await projectionDatabase([], migrations);
  }, 120_000);
  afterAll(async () => {
    await db.destroy();
  });

  it('leaves the rows that applying its events one at a time leaves, in any split into batches', async () => {
    await fc.assert(
      fc.asyncProperty(
        claimHistories,
        fc.array(fc.nat(), { minLength: 1, maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 6 }),
        async (claims, picks, sizes) => {
          const events = interleave(claims.map(claimHistory), picks).map(projected);
          await sql`truncate fold_labels, fold_activity`.execute(db);
          for (let start = 0, i = 0; start < events.length; i++) {
            const end = Math.min(events.length, start + sizes[i % sizes.length]!);
            await db.transaction().execute(async (trx) => {
              for (const fold of FOLDS) await fold.applyBatch(trx, events.slice(start, end));
            });
            start = end;
          }
          await expectOneByOne(labelRows, events);
          await expectOneByOne(activityRows, events);
        },
      ),
      { numRuns: 40 },
    );
  }, 600_000);
});
