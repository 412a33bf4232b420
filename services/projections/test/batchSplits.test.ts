import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyEvents, PROJECTIONS } from '../src/index.js';
import { projectionDatabase } from './support/projectionDatabase.js';
import { webhookEndpointsTable } from './support/webhookEndpointsTable.js';
import { order } from './support/claimStory.js';
import { claimHistories, claimHistory, interleave } from './support/claimHistories.js';
import { MoneyHistory, moneyStep } from './support/moneyHistory.js';

const TABLES = [...new Set(PROJECTIONS.flatMap((p) => p.tables))];

/** Every row of every read model, as text, sorted; a delivery without its random id and insert time. */
async function snapshot(db: Kysely<unknown>): Promise<Record<string, string[]>> {
  const tables: Record<string, string[]> = {};
  for (const table of [...TABLES, 'webhook_deliveries']) {
    const { rows } = await sql<{
      row: string;
    }>`select (to_jsonb(t) - 'id' - 'created_at')::text as row from ${sql.table(table)} t`.execute(db);
    tables[table] = rows.map((r) => r.row).sort();
  }
  return tables;
}

async function reset(db: Kysely<unknown>): Promise<void> {
  await sql`truncate ${sql.join([...TABLES, 'webhook_deliveries', 'webhook_delivery_attempts', 'projection_offsets'].map((t) => sql.table(t)))}`.execute(
    db,
  );
}

describe('every projection applied in batches equals it applied event by event', () => {
  let oneByOne: Kysely<unknown>;
  let batched: Kysely<unknown>;
  beforeAll(async () => {
    oneByOne = await projectionDatabase(PROJECTIONS, webhookEndpointsTable);
    batched = await projectionDatabase(PROJECTIONS, webhookEndpointsTable);
    const endpointId = randomUUID();
    for (const db of [oneByOne, batched]) {
      await sql`insert into webhook_endpoints (id, store_id, url, secret, event_types, created_at)
        values (${endpointId}, ${order.storeId}, 'https://example.com/hook', 'whsec_x', null, '2000-01-01T00:00:00Z')`.execute(
        db,
      );
    }
  }, 240_000);
  afterAll(async () => {
    await Promise.all([oneByOne.destroy(), batched.destroy()]);
  });

  it('for a random history, in random batch splits, with earlier batches and overlapping slices delivered again', async () => {
    await fc.assert(
      fc.asyncProperty(
        claimHistories,
        fc.array(moneyStep, { maxLength: 30 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 30 })), { maxLength: 4 }),
        async (claims, moneySteps, picks, sizes, redeliveries) => {
          const money = new MoneyHistory();
          for (const step of moneySteps) money.play(step);
          const history = interleave([...claims.map(claimHistory), money.envelopes], picks);
          await Promise.all([reset(oneByOne), reset(batched)]);

          for (const event of history)
            for (const projection of PROJECTIONS) await applyEvents(oneByOne, projection, [event]);

          const applied: number[] = [];
          for (let start = 0, i = 0; start < history.length; i++) {
            const end = Math.min(history.length, start + sizes[i % sizes.length]!);
            for (const projection of PROJECTIONS) await applyEvents(batched, projection, history.slice(start, end));
            applied.push(end);
            // At-least-once delivery: a slice of what was delivered already, starting anywhere, comes again.
            const [after, at, size] = redeliveries[i % Math.max(1, redeliveries.length)] ?? [0, 0, 0];
            if (redeliveries.length > 0 && after % 2 === 0) {
              const from = at % end;
              for (const projection of PROJECTIONS)
                await applyEvents(batched, projection, history.slice(from, Math.min(end, from + size)));
            }
            start = end;
          }

          expect(await snapshot(batched)).toEqual(await snapshot(oneByOne));
        },
      ),
      { numRuns: 15 },
    );
  }, 600_000);
});
