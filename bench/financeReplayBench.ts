/**
 * The finance replay at a million events (`BENCH_SECTIONS=finance-replay npx tsx bench/run.ts`):
 *
 * 1. Appends BENCH_FINANCE_EVENTS (1,000,000) realistic events through the event store (bench/financeWorkload.ts):
 *    orders with their premiums in USD, EUR and JPY (some reversed or changed), two in five with a claim — draft
 *    session, filing, mail, messages, a decision of every money type (mixed lines, denials, store credit issued,
 *    redeemed, adjusted) — and every 2,000 orders a payout batch per store, all decided by the real deciders.
 * 2. Catches the live ledgers up from the first event with the projections' own `rebuild()` (payout-ledger, then
 *    store-credit): the speed of the live path over the same history.
 * 3. Issues each store's invoice for the month, as `POST /api/finance/invoices` does.
 * 4. Replays the whole history as `POST /api/finance/replays` does (`runFinanceReplay`: read, fold, wait for the live
 *    ledgers, compare invoices too, store the result), with the recorded rules (must find no difference) and with
 *    candidate rules (replacement cost, store-credit bonus and revenue share).
 *
 * Own database `claims_bench_finance` on the benchmark server, dropped and recreated every run.
 * Env: BENCH_FINANCE_EVENTS (1000000), BENCH_FINANCE_CONCURRENCY (transactions in flight while generating, 8),
 * BENCH_FINANCE_REUSE=1 (measure the database the last run left when it holds enough events).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import {
  FINANCE_EVENT_TYPES,
  storeBillingStreamOf,
  type FinanceReplayRequest,
  type FinanceReplayView,
} from '@claims/contracts';
import { storeBillingDecider } from '@claims/domain';
import { appendToStream, appendToStreams, openDatabase, readStream } from '@claims/event-store';
import {
  applyEvents,
  invoicesProjection,
  payoutLedgerProjection,
  rebuild,
  storeCreditProjection,
  type Projection,
} from '@claims/projections';
import { startRuntime, type Runtime } from '../services/api/src/index.js';
import { findOrderBySourceIdAndEmail } from '../services/api/src/catalog/orderRepository.js';
import { findStoreBySlugOrDomain } from '../services/api/src/catalog/storeRepository.js';
import { findReplay, insertReplay } from '../services/api/src/finance/financeReplays.js';
import { replayHistory, runFinanceReplay } from '../services/api/src/finance/runFinanceReplay.js';
import { handleCommand } from '../services/api/src/eventsourcing/commandHandler.js';
import { invoiceInputsOf } from '../services/api/src/invoices/invoiceInputs.js';
import { benchConfig } from './benchConfig.js';
import { startCpuSample, type CpuShare } from './cpuSampler.js';
import { rng } from './seededRandom.js';
import {
  MIX,
  orderUnit,
  payoutBatch,
  type OrderTemplate,
  type PendingLine,
  type StorePayoutsLedger,
  type StoreTerms,
} from './financeWorkload.js';
import { benchDatabaseUrl, checkpoint, recreateDatabase, withDatabase } from './postgres.js';
import { fmtInt } from './stats.js';

const GOAL_EVENTS_PER_SECOND = 20_000;
const CANDIDATE: NonNullable<FinanceReplayRequest['rules']> = {
  replacementCostPercent: 80,
  credit: { bonus: 5 },
  revShare: { merchantSharePercent: 20 },
};

const envNumber = (name: string): number | undefined => (process.env[name] ? Number(process.env[name]) : undefined);
const log = (line: string) => process.stderr.write(`finance-replay: ${line}\n`);

export interface Timed {
  seconds: number;
  cpu: CpuShare | null;
}

export async function timed<T>(run: () => Promise<T>): Promise<Timed & { value: T }> {
  const cpu = startCpuSample();
  const t0 = performance.now();
  const value = await run();
  return { value, seconds: (performance.now() - t0) / 1000, cpu: cpu() };
}

export async function templatesOf(runtime: Runtime): Promise<OrderTemplate[]> {
  const db = runtime.ctx.database.db;
  const stores = new Map<string, StoreTerms>();
  for (const slug of ['acme', 'kumo']) {
    const store = await findStoreBySlugOrDomain(db, { slug });
    if (!store) throw new Error(`demo store ${slug} is missing`);
    stores.set(slug, { slug, storeId: store.id, currency: store.currency, settings: store.settings });
  }
  const templates: OrderTemplate[] = [];
  for (const [slug, sourceOrderId, email, share] of [
    ['acme', 'acme-5001', 'ava@example.com', 0.35],
    ['acme', 'acme-5010', 'jon@example.com', 0.2],
    ['acme', 'acme-5008', 'hugo@example.com', 0.15],
    ['kumo', 'kumo-9001', 'ivy@example.com', 0.3],
  ] as const) {
    const order = await findOrderBySourceIdAndEmail(db, sourceOrderId, email);
    if (!order) throw new Error(`demo order ${sourceOrderId} is missing`);
    templates.push({ store: stores.get(slug)!, order, share });
  }
  return templates;
}

export interface Generated extends Timed {
  orders: number;
  events: number;
  batches: number;
}

/** Appends orders until the store holds `target` events: `concurrency` order transactions at a time, a payout batch per store after each wave. */
export async function generate(
  url: string,
  dataDir: string,
  templates: readonly OrderTemplate[],
  target: number,
  concurrency: number,
): Promise<Generated> {
  // Generation is setup, not a measurement: its own pool, commits not waiting for the WAL flush.
  const fast = await openDatabase({
    databaseUrl: `${url}?options=${encodeURIComponent('-c synchronous_commit=off')}`,
    dataDir,
  });
  const random = rng(20261123);
  const now = new Date().toISOString();
  const ledgers = new Map<string, StorePayoutsLedger>(
    templates.map((t) => [
      t.store.storeId,
      {
        store: t.store,
        state: { batches: new Map(), batched: new Set() },
        version: 0,
      },
    ]),
  );
  let orders = 0;
  let events = 0;
  let batches = 0;
  let previousWave: PendingLine[] = [];
  let lastReport = Date.now();
  try {
    return {
      ...(await timed(async () => {
        while (events < target) {
          const wave: PendingLine[] = [];
          const waveEnd = orders + MIX.wave;
          const writer = async () => {
            while (orders < waveEnd && events < target) {
              const unit = orderUnit(orders++, templates, random, now);
              events += unit.events;
              wave.push(...unit.lines);
              const [result] = await appendToStreams(fast.db, unit.appends);
              if (!result?.ok) throw new Error(`appending an order failed: ${JSON.stringify(result)}`);
            }
          };
          await Promise.all(Array.from({ length: concurrency }, writer));
          // The previous wave's payouts are in the ledger by now: each store batches its own.
          for (const ledger of ledgers.values()) {
            const append = payoutBatch(
              ledger,
              previousWave.filter((l) => l.storeId === ledger.store.storeId),
              batches,
              now,
            );
            if (!append) continue;
            const result = await appendToStream(fast.db, append);
            if (!result.ok) throw new Error(`appending a payout batch failed: ${JSON.stringify(result)}`);
            batches++;
            events += append.events.length;
          }
          previousWave = wave;
          if (Date.now() - lastReport > 5_000) {
            lastReport = Date.now();
            log(`appended ${fmtInt(events)} events (${fmtInt(orders)} orders)`);
          }
        }
      })),
      orders,
      events,
      batches,
    };
  } finally {
    await fast.close();
  }
}

export async function withPool<T>(url: string, run: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    return await run(pool);
  } finally {
    await pool.end();
  }
}

interface HistoryStats {
  events: number;
  financeEvents: number;
  eventsMiB: number;
  byType: Array<{ type: string; count: number }>;
}

async function historyStats(url: string): Promise<HistoryStats> {
  return withPool(url, async (pool) => {
    const { rows } = await pool.query<{ type: string; count: number }>(
      'select type, count(*)::int as count from events group by type order by count(*) desc',
    );
    const size = (await pool.query<{ bytes: string }>(`select pg_total_relation_size('events') as bytes`)).rows[0]!
      .bytes;
    const finance = new Set<string>(FINANCE_EVENT_TYPES);
    return {
      events: rows.reduce((sum, r) => sum + r.count, 0),
      financeEvents: rows.filter((r) => finance.has(r.type)).reduce((sum, r) => sum + r.count, 0),
      eventsMiB: Number(size) / 2 ** 20,
      byType: rows,
    };
  });
}

/**
 * Each demo store's invoice for the month the history was appended in, issued as `POST /api/finance/invoices` issues
 * it (the live ledger's figures, the store's revenue share), with the clock an hour into the next month so the month
 * has ended; then applied to the invoices read model (the runtime runs no projection workers). A month invoiced
 * already (a reused database) is left as it is.
 */
async function issueInvoices(runtime: Runtime, month: string): Promise<string[]> {
  const db = runtime.ctx.database.db;
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const now = new Date(Date.UTC(year, monthNumber, 1, 1)).toISOString();
  const issued: string[] = [];
  for (const slug of ['acme', 'kumo']) {
    const store = (await findStoreBySlugOrDomain(db, { slug }))!;
    const handled = await invoiceInputsOf(runtime.ctx, store, month)
      .then((inputs) =>
        handleCommand(runtime.ctx, {
          decider: storeBillingDecider,
          streamId: storeBillingStreamOf(store.id),
          storeId: store.id,
          meta: { actor: { type: 'system', id: 'bench' }, correlationId: `invoice-${slug}`, causationId: null },
          command: {
            type: 'IssueInvoice' as const,
            storeId: store.id,
            invoiceId: randomUUID(),
            storeSlug: store.slug,
            month,
            inputs,
            actorId: 'bench',
            now,
          },
        }),
      )
      .catch((error: unknown) => {
        // Invoiced already (a reused database), or premiums of generated orders the catalog does not hold (Acme's EUR ones).
        log(`${slug}: ${error instanceof Error ? error.message : String(error)}`);
        return null;
      });
    if (handled) issued.push(store.name);
    await applyEvents(db, invoicesProjection, (await readStream(db, storeBillingStreamOf(store.id))).events);
  }
  return issued;
}

interface ReplayRun extends Timed {
  view: FinanceReplayView;
}

/** One replay exactly as the route runs it (after the 202), timed from start to its stored result. */
async function replayOnce(runtime: Runtime, request: FinanceReplayRequest): Promise<ReplayRun> {
  const id = randomUUID();
  await insertReplay(runtime.ctx.database.db, id, 'bench', request);
  const run = await timed(() => runFinanceReplay(runtime.ctx, id, request));
  const view = await findReplay(runtime.ctx.database.db, id);
  if (view?.status !== 'done') throw new Error(`the replay ended ${view?.status}: ${view?.error}`);
  return { ...run, view };
}

export interface FinanceReplayBenchResult {
  markdown: string;
}

export async function benchFinanceReplay(opts: { url?: string } = {}): Promise<FinanceReplayBenchResult> {
  const url = withDatabase(opts.url ?? benchDatabaseUrl(), 'claims_bench_finance');
  const target = envNumber('BENCH_FINANCE_EVENTS') ?? 1_000_000;
  const concurrency = envNumber('BENCH_FINANCE_CONCURRENCY') ?? 8;
  const loadAtStart = os.loadavg()[0]!;
  const reuse =
    ['1', 'true'].includes(process.env.BENCH_FINANCE_REUSE ?? '') &&
    (await historyStats(url).catch(() => ({ events: 0 }))).events >= target;
  if (!reuse) await recreateDatabase(url);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finance-replay-bench-'));
  const config = benchConfig(url, dataDir);
  const runtime = await startRuntime(config, { listen: false, workers: false });
  try {
    let generated: Generated | null = null;
    const catchUp: Array<{ projection: string; events: number } & Timed> = [];
    if (!reuse) {
      generated = await generate(url, dataDir, await templatesOf(runtime), target, concurrency);
      log(
        `appended ${fmtInt(generated.events)} events (${fmtInt(generated.orders)} orders, ${generated.batches} payout batches) in ${generated.seconds.toFixed(0)} s`,
      );
      await withPool(url, (pool) => pool.query('analyze events, streams'));
      await checkpoint(url);
      for (const projection of [payoutLedgerProjection, storeCreditProjection] as Projection[]) {
        const run = await timed(() => rebuild(runtime.ctx.database.db, projection));
        catchUp.push({ projection: projection.name, events: run.value.done, seconds: run.seconds, cpu: run.cpu });
        log(`${projection.name} caught up over ${fmtInt(run.value.done)} events in ${run.seconds.toFixed(0)} s`);
      }
      await withPool(url, (pool) => pool.query('analyze'));
    }
    const invoiced = await issueInvoices(runtime, new Date().toISOString().slice(0, 7));
    log(`issued invoices of ${invoiced.join(', ') || 'no store'}`);
    const stats = await historyStats(url);
    await checkpoint(url);

    const whole = { from: '2000-01-01T00:00:00.000Z', to: '2100-01-01T00:00:00.000Z' };
    const fold = await timed(() => replayHistory(runtime.ctx.database.db, whole));
    log(`fold alone: ${fmtInt(fold.value.events)} finance events in ${fold.seconds.toFixed(1)} s`);
    const recorded = await replayOnce(runtime, whole);
    log(`replay, recorded rules: ${recorded.seconds.toFixed(1)} s, ${recorded.view.differences.length} differences`);
    const candidate = await replayOnce(runtime, { ...whole, rules: CANDIDATE });
    log(
      `replay, candidate rules: ${candidate.seconds.toFixed(1)} s, ${candidate.view.differences.length} payout differences`,
    );
    return {
      markdown: financeReplayMarkdown({
        target,
        concurrency,
        loadAtStart,
        generated,
        catchUp,
        stats,
        fold: { seconds: fold.seconds, cpu: fold.cpu, events: fold.value.events },
        recorded,
        candidate,
        invoiced,
      }),
    };
  } finally {
    await runtime.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function financeReplayMarkdown(r: {
  target: number;
  concurrency: number;
  loadAtStart: number;
  generated: Generated | null;
  catchUp: Array<{ projection: string; events: number } & Timed>;
  stats: HistoryStats;
  fold: Timed & { events: number };
  recorded: ReplayRun;
  candidate: ReplayRun;
  invoiced: readonly string[];
}): string {
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const cpu = (c: CpuShare | null) => (c ? `${pct(c.busy)} / ${pct(c.other)}` : 'n/a');
  const rate = (events: number, seconds: number) => fmtInt(events / seconds);
  const lines: string[] = [];
  lines.push(`## Finance replay at ${fmtInt(r.stats.events)} events`);
  lines.push('');
  const g = r.generated;
  lines.push(
    (g
      ? `${fmtInt(g.events)} events appended through the event store in ${g.seconds.toFixed(0)} s (one transaction per order, ${r.concurrency} at a time; ` +
        "the generator's own pool commits with synchronous_commit=off, since generation is setup, not a measurement), "
      : 'The database an earlier run left (BENCH_FINANCE_REUSE), ') +
      `beside the demo data's own: ${g ? fmtInt(g.orders) : 'the'} orders copied from the demo orders 1001 and 1010 (USD), 1008 (EUR at 0.92 per USD) of Acme and ` +
      `K-2001 (JPY) of Kumo, each with its premium (${pct(MIX.protectionRemoved)} later reversed as the protection is removed, ${pct(MIX.premiumChanged)} changed); ` +
      `${pct(MIX.claimed)} get a claim with its draft session, filing, mail, up to four messages and a status change, ${pct(MIX.resolved)} of those a decision ` +
      "(refund, reshipment, store credit, flat rate, custom, denial; a fifth of multi-item claims with a denied line), valued under the store's rules of the day " +
      `(Acme's replacement cost alternating 100% and 90%), store credit issued (${pct(MIX.redeemed)} partly redeemed, ${pct(MIX.adjusted)} adjusted), a review for some; ` +
      `after every ${fmtInt(MIX.wave)} orders each store batches the previous wave's payouts (${g ? `${g.batches} batches, ` : ''}approved, 3 in 4 paid); ` +
      `then the month is invoiced from the live ledger for ${r.invoiced.join(', ') || 'no store'} (the generated orders are events only, not catalog orders, so a ` +
      "store with premiums in an order's own currency — Acme's EUR — cannot be invoiced: issuing needs the order's exchange rate), and the replay rebuilds that " +
      "invoice over the whole month's premiums and payouts. " +
      'Everything is decided by the real deciders. Database `claims_bench_finance`, dropped and recreated every run; `analyze` after generation.',
  );
  lines.push('');
  lines.push(
    `History: ${fmtInt(r.stats.events)} events (${fmtInt(r.stats.financeEvents)} of the finance types, ${pct(r.stats.financeEvents / r.stats.events)}), ` +
      `events table with its indexes ${fmtInt(r.stats.eventsMiB)} MiB. By type: ${r.stats.byType.map((t) => `${t.type} ${fmtInt(t.count)}`).join(', ')}.`,
  );
  lines.push('');
  lines.push(
    `Events/s below are events of the whole history over the run's time (the replay reads only the finance types; the server skips the rest). Goal: a ` +
      `million events in under a minute, ≥ ${fmtInt(GOAL_EVENTS_PER_SECOND)} events/s. "Machine busy / other" is the CPU share of both cores in use, and the part ` +
      'used by neither this process nor PostgreSQL (other work on the shared machine).',
  );
  lines.push('');
  lines.push('| Run | Time | History events/s | Finance events/s | Goal (≥ 20,000/s) | Machine busy / other |');
  lines.push('|:---|---:|---:|---:|:---|---:|');
  for (const c of r.catchUp) {
    lines.push(
      `| Live projection \`${c.projection}\` catching up from the first event (\`rebuild()\`) | ${c.seconds.toFixed(1)} s | ${rate(c.events, c.seconds)} | ` +
        `${rate(r.stats.financeEvents, c.seconds)} | — | ${cpu(c.cpu)} |`,
    );
  }
  const met = (seconds: number) => (r.stats.events / seconds >= GOAL_EVENTS_PER_SECOND ? 'met' : 'not met');
  lines.push(
    `| Replay fold alone (\`replayHistory\`: read, parse, fold) | ${r.fold.seconds.toFixed(1)} s | ${rate(r.stats.events, r.fold.seconds)} | ` +
      `${rate(r.fold.events, r.fold.seconds)} | ${met(r.fold.seconds)} | ${cpu(r.fold.cpu)} |`,
  );
  for (const [label, run] of [
    ['recorded rules', r.recorded],
    ['candidate rules', r.candidate],
  ] as const) {
    lines.push(
      `| Replay as the route runs it, ${label} (fold, live ledgers caught up, compared, result stored) | ${run.seconds.toFixed(1)} s | ` +
        `${rate(r.stats.events, run.seconds)} | ${rate(run.view.eventsReplayed, run.seconds)} | ${met(run.seconds)} | ${cpu(run.cpu)} |`,
    );
  }
  lines.push('');
  const diff = (v: FinanceReplayView) =>
    `${fmtInt(v.differences.length)} payout lines, ${fmtInt(v.premiums.differences.length)} premiums, ` +
    `${fmtInt(v.storeCredit.differences.length)} store-credit entries, ${fmtInt(v.invoices.differences.length)} invoice lines`;
  const totals = (stores: FinanceReplayView['stores']) =>
    stores
      .map(
        (s) => `${s.currency} ${s.live.toLocaleString('en-US')} live → ${s.replayed.toLocaleString('en-US')} replayed`,
      )
      .join('; ');
  lines.push(
    `With the recorded rules the replay found ${diff(r.recorded.view)} different (payouts: ${totals(r.recorded.view.stores)}; ` +
      `invoice nets: ${totals(r.recorded.view.invoices.stores)}). ` +
      `With candidate rules \`${JSON.stringify(CANDIDATE)}\`: ${diff(r.candidate.view)} different (payouts: ${totals(r.candidate.view.stores)}; ` +
      `invoice nets: ${totals(r.candidate.view.invoices.stores)}).`,
  );
  lines.push('');
  lines.push(
    `Load average (1 min) when the section started: ${r.loadAtStart.toFixed(2)} on ${os.availableParallelism()} CPUs.`,
  );
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  benchFinanceReplay().then(
    (r) => console.log(r.markdown),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
