import { sql } from 'kysely';
import { expect } from 'vitest';
import { WEBHOOK_SOURCE_TYPES } from '@claims/contracts';
import type { Database } from '@claims/event-store';
import { PROJECTIONS, rebuild, streamsBehind } from '@claims/projections';
import type { Acknowledged } from './faultLoad.js';

/**
 * What the fault tests check once the load has stopped, whatever they killed: the pipeline settles, every
 * acknowledged command is in the store, every webhook owed arrived, and the read models equal a replay.
 */

/** Settled: every projection has applied the last event of every stream it handles, no delivery is pending, and nothing was appended for 2 s. */
export async function settled(database: Database): Promise<void> {
  const db = database.db;
  const count = async () =>
    (await sql<{ n: string }>`select max(global_position)::text as n from events`.execute(db)).rows[0]!.n;
  const before = await count();
  for (const projection of PROJECTIONS)
    expect(await streamsBehind(db, projection), `${projection.name}: streams behind`).toEqual([]);
  const { rows: pending } = await sql<{
    n: number;
  }>`select count(*)::int as n from webhook_deliveries where status <> 'succeeded'`.execute(db);
  expect(pending[0]!.n, 'deliveries not yet succeeded').toBe(0);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  expect(await count(), 'events still being appended').toBe(before);
}

/** The acknowledged commands (orders aside) whose event is not in the store, each as `type:id`. */
export async function missingFromStore(database: Database, acknowledged: readonly Acknowledged[]): Promise<string[]> {
  const { rows: stored } = await sql<{ stream_id: string; type: string; message_id: string | null }>`
    select stream_id, type, data->>'id' as message_id from events where type in ('ClaimFiled', 'ClaimMessageSent', 'ClaimResolved')`.execute(
    database.db,
  );
  const has = new Set(stored.map((e) => `${e.type}:${e.type === 'ClaimMessageSent' ? e.message_id : e.stream_id}`));
  const key = (a: Acknowledged) =>
    a.kind === 'filing'
      ? `ClaimFiled:${a.claimId}`
      : a.kind === 'message'
        ? `ClaimMessageSent:${a.messageId}`
        : `ClaimResolved:${a.claimId}`;
  return acknowledged
    .filter((a) => a.kind !== 'order')
    .map(key)
    .filter((k) => !has.has(k));
}

/** Every event of the store a webhook is owed for on the endpoint, with the webhook-id its delivery carries (null: none made). */
export async function owedWebhooks(
  database: Database,
  endpointId: string,
  storeId: string,
): Promise<Array<{ event_id: string; webhook_id: string | null }>> {
  const { rows } = await sql<{ event_id: string; webhook_id: string | null }>`
    select e.event_id, d.webhook_id
    from events e
    join webhook_endpoints w on w.id = ${endpointId}::uuid
    left join webhook_deliveries d on d.event_id = e.event_id and d.endpoint_id = w.id
    where e.type = any(${[...WEBHOOK_SOURCE_TYPES]}::text[]) and e.store_id = ${storeId}::uuid and e.occurred_at >= w.created_at`.execute(
    database.db,
  );
  return rows;
}

/** Every row of every read model, each table's rows sorted, for comparing live projections with a replay. */
async function readModels(database: Database): Promise<Record<string, string[]>> {
  const snapshot: Record<string, string[]> = {};
  for (const table of PROJECTIONS.flatMap((p) => p.tables)) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(database.db);
    snapshot[table] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return snapshot;
}

async function deliveryCount(database: Database): Promise<number> {
  return (await sql<{ n: number }>`select count(*)::int as n from webhook_deliveries`.execute(database.db)).rows[0]!.n;
}

/**
 * Every read model equals a full replay of the store, and the replay adds no webhook delivery (the outbox is keyed by
 * event and endpoint). Run with every worker stopped.
 */
export async function expectReplayEqualsLive(database: Database): Promise<void> {
  const live = await readModels(database);
  const outboxBefore = await deliveryCount(database);
  for (const projection of PROJECTIONS) await rebuild(database.db, projection);
  const replayed = await readModels(database);
  // Only the rows that differ, by table: a whole snapshot is too long for the assertion's message to show them.
  const differences = Object.fromEntries(
    Object.keys(live).flatMap((table) => {
      const before = new Set(live[table]);
      const after = new Set(replayed[table]);
      const onlyLive = [...before].filter((row) => !after.has(row));
      const onlyReplay = [...after].filter((row) => !before.has(row));
      return onlyLive.length + onlyReplay.length > 0 ? [[table, { onlyLive, onlyReplay }]] : [];
    }),
  );
  expect(differences, 'read model rows a full replay makes differently').toEqual({});
  expect(await deliveryCount(database), 'webhook deliveries after a full replay').toBe(outboxBefore);
}
