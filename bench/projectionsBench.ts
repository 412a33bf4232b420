/**
 * Projection rebuilds at a million events (`BENCH_SECTIONS=projections npx tsx bench/run.ts`):
 *
 * 1. Appends BENCH_PROJECTIONS_EVENTS (1,000,000) realistic events through the event store with the finance
 *    replay's generator (bench/financeWorkload.ts: orders, premiums, claims with their sessions, mail, messages,
 *    decisions of every type, store credit, payout batches), and one webhook endpoint of Acme subscribed to everything.
 * 2. Rebuilds each projection of the product in turn with its own `rebuild()`: built beside the live tables from
 *    the first event (reading only the types it handles), then switched in. Timed from start to switch.
 *
 * Own database `claims_bench_projections` on the benchmark server, dropped and recreated every run.
 * Env: BENCH_PROJECTIONS_EVENTS (1000000), BENCH_PROJECTIONS_CONCURRENCY (transactions in flight while generating, 8),
 * BENCH_PROJECTIONS_REUSE=1 (measure the history an earlier run left in that database, whatever its size).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECTIONS, rebuild } from '@claims/projections';
import { startRuntime } from '../services/api/src/index.js';
import { findStoreBySlugOrDomain } from '../services/api/src/catalog/storeRepository.js';
import { benchConfig } from './benchConfig.js';
import type { CpuShare } from './cpuSampler.js';
import { generate, templatesOf, timed, withPool, type Generated, type Timed } from './financeReplayBench.js';
import { benchDatabaseUrl, checkpoint, recreateDatabase, withDatabase } from './postgres.js';
import { fmtInt } from './stats.js';

const GOAL_EVENTS_PER_SECOND = 20_000;

/**
 * The last figures of the event-by-event path (one statement or more per event, offsets per event), from
 * docs/benchmarks.md before this section existed: what the batched path is compared with.
 */
const BEFORE: Record<string, { eventsPerSecond: number; source: string }> = {
  'claim-list': { eventsPerSecond: 2_200, source: 'event by event, before batching' },
  'payout-ledger': { eventsPerSecond: 1_750, source: 'Finance replay section, live projection catching up' },
  'store-credit': { eventsPerSecond: 23_107, source: 'Finance replay section, live projection catching up' },
};

const envNumber = (name: string): number | undefined => (process.env[name] ? Number(process.env[name]) : undefined);
const log = (line: string) => process.stderr.write(`projections: ${line}\n`);

interface RebuildRun extends Timed {
  projection: string;
  handled: number;
  rows: number;
}

export async function benchProjections(opts: { url?: string } = {}): Promise<{ markdown: string }> {
  const url = withDatabase(opts.url ?? benchDatabaseUrl(), 'claims_bench_projections');
  const target = envNumber('BENCH_PROJECTIONS_EVENTS') ?? 1_000_000;
  const concurrency = envNumber('BENCH_PROJECTIONS_CONCURRENCY') ?? 8;
  const loadAtStart = os.loadavg()[0]!;
  const reuse = ['1', 'true'].includes(process.env.BENCH_PROJECTIONS_REUSE ?? '');
  if (!reuse) await recreateDatabase(url);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'projections-bench-'));
  const config = benchConfig(url, dataDir);
  const runtime = await startRuntime(config, { listen: false, workers: false });
  try {
    const db = runtime.ctx.database.db;
    let generated: Generated | null = null;
    if (!reuse) {
      const acme = await findStoreBySlugOrDomain(db, { slug: 'acme' });
      if (!acme) throw new Error('demo store acme is missing');
      await withPool(url, (pool) =>
        pool.query(
          `insert into webhook_endpoints (id, store_id, url, secret, event_types, created_at) values ($1, $2, 'https://bench.invalid/hook', 'whsec_bench', null, '2000-01-01')`,
          [randomUUID(), acme.id],
        ),
      );
      generated = await generate(url, dataDir, await templatesOf(runtime), target, concurrency);
      log(`appended ${fmtInt(generated.events)} events in ${generated.seconds.toFixed(0)} s`);
    }
    await withPool(url, (pool) => pool.query('analyze events, streams'));
    const total = await withPool(url, async (pool) =>
      Number((await pool.query<{ n: string }>('select count(*) as n from events')).rows[0]!.n),
    );
    const runs: RebuildRun[] = [];
    for (const projection of PROJECTIONS) {
      await checkpoint(url);
      const run = await timed(() => rebuild(db, projection));
      const rows = await withPool(url, async (pool) => {
        let count = 0;
        for (const table of projection.tables.length > 0 ? projection.tables : ['webhook_deliveries']) {
          count += Number((await pool.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0]!.n);
        }
        return count;
      });
      runs.push({ projection: projection.name, handled: run.value.done, rows, seconds: run.seconds, cpu: run.cpu });
      log(
        `${projection.name}: ${fmtInt(run.value.done)} of its events in ${run.seconds.toFixed(1)} s (${fmtInt(total / run.seconds)} history events/s)`,
      );
    }
    return { markdown: projectionsMarkdown({ target, concurrency, loadAtStart, generated, total, runs }) };
  } finally {
    await runtime.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function projectionsMarkdown(r: {
  target: number;
  concurrency: number;
  loadAtStart: number;
  generated: Generated | null;
  total: number;
  runs: RebuildRun[];
}): string {
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const cpu = (c: CpuShare | null) => (c ? `${pct(c.busy)} / ${pct(c.other)}` : 'n/a');
  const lines: string[] = [];
  lines.push(`## Projections: rebuilds at ${fmtInt(r.total)} events`);
  lines.push('');
  lines.push(
    (r.generated
      ? `${fmtInt(r.generated.events)} events appended through the event store in ${r.generated.seconds.toFixed(0)} s by the finance replay's generator `
      : r.total >= r.target
        ? `The ${fmtInt(r.total)} events an earlier run of this section appended (BENCH_PROJECTIONS_REUSE: measured again without generating), by the finance replay's generator `
        : `The history an earlier run's generator left (BENCH_PROJECTIONS_REUSE; it was stopped short of the ${fmtInt(r.target)} events asked), appended by the finance replay's generator `) +
      `(${r.concurrency} order transactions at a time, synchronous_commit=off for the generator only), beside the demo data's: orders with premiums, ` +
      'claims with their draft sessions, filing, mail, messages, decisions of every type, store credit, payout batches; and one webhook endpoint of Acme ' +
      'subscribed to every type (so the outbox writes a delivery per Acme claim event). Database `claims_bench_projections`, dropped and recreated every run.',
  );
  lines.push('');
  lines.push(
    'Each projection is rebuilt with its own `rebuild()`: its tables and offsets created beside the live ones (a schema of its own), every event of the ' +
      'types it handles read in batches of 5,000 (`readAll` with its types), folded in memory and written in a few `jsonb_to_recordset` statements per batch ' +
      'with one offset write, then switched in with one transaction (the webhook outbox, whose rows are history, is replayed in place). ' +
      '"History events/s" is the whole store over the rebuild\'s time (the goal: a million events in under a minute); "its events/s" counts the events it handles. ' +
      '"Machine busy / other" is the CPU share of both cores in use, and the part used by neither this process nor PostgreSQL (other work on the shared machine).',
  );
  lines.push('');
  lines.push(
    '| Projection | Its events | Rows after | Time | History events/s | Its events/s | Goal (≥ 20,000/s) | Before (event by event) | Machine busy / other |',
  );
  lines.push('|:---|---:|---:|---:|---:|---:|:---|---:|---:|');
  for (const run of r.runs) {
    const rate = r.total / run.seconds;
    const before = BEFORE[run.projection];
    lines.push(
      `| \`${run.projection}\` | ${fmtInt(run.handled)} | ${fmtInt(run.rows)} | ${run.seconds.toFixed(1)} s | ${fmtInt(rate)} | ${fmtInt(run.handled / run.seconds)} | ` +
        `${rate >= GOAL_EVENTS_PER_SECOND ? 'met' : 'missed'} | ${before ? `${fmtInt(before.eventsPerSecond)} (${before.source}); ${(rate / before.eventsPerSecond).toFixed(1)}×` : '—'} | ${cpu(run.cpu)} |`,
    );
  }
  lines.push('');
  lines.push(`Load average (1 min) when the section started: ${r.loadAtStart.toFixed(2)} on ${os.cpus().length} CPUs.`);
  return lines.join('\n');
}
