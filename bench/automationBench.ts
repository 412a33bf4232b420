/**
 * Automation (`BENCH_SECTIONS=automation make bench`), issue 28's three figures:
 *
 * 1. **Decisions**: claims filed at BENCH_AUTOMATION_RATE (100) a second for BENCH_AUTOMATION_SECONDS (60) against an
 *    API process (`WORKERS=none`) and a worker process (every worker) on PostgreSQL and Kafka, with a live rule that
 *    approves every one of them; the time from each filing's event to the rule's decision event (both as the database
 *    stamped them), p50/p99/max.
 * 2. **Backtest**: BENCH_AUTOMATION_EVENTS (1,000,000) events of one store's realistic history (the finance replay's
 *    generator, bench/financeWorkload.ts), and a draft rule backtested over all of it as `POST …/rules/backtests`
 *    runs it (`startBacktest`): read from the events, nothing written.
 * 3. **Risk rebuild**: the `claim-risk` projection rebuilt over that history, in history events a second.
 *
 * Own databases `claims_bench_automation` and `claims_bench_automation_history`, dropped and recreated every run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RuleInput } from '@claims/contracts';
import { claimRiskProjection, rebuild } from '@claims/projections';
import { startRuntime } from '../services/api/src/index.js';
import { benchConfig } from './benchConfig.js';
import { startBacktest } from '../services/api/src/automation/backtests.js';
import { definitionOf } from '../services/api/src/automation/ruleEdge.js';
import { findStoreBySlugOrDomain } from '../services/api/src/catalog/storeRepository.js';
import { call, createOrders, fileAtRate, setUp, startApi } from './commandsBench.js';
import { generate, templatesOf, timed, withPool } from './financeReplayBench.js';
import { benchDatabaseUrl, checkpoint, recreateDatabase, withDatabase } from './postgres.js';
import { startMailReceiver, startWorker } from './soakBench.js';
import { fmtInt, fmtMs, percentile, sortedCopy } from './stats.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const envNumber = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const log = (line: string) => process.stderr.write(`automation: ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const GOAL = { decisionP99Ms: 1_000, backtestSeconds: 30, riskEventsPerSecond: 20_000 };

/** Every bench filing (filingBody: one damaged item) matches it: the rule decides each claim the run files. */
const APPROVE_DAMAGE: RuleInput = {
  name: 'Approve damaged claims',
  mode: 'live',
  conditions: [{ field: 'claimType', op: 'eq', value: 'DAMAGED' }],
  action: { type: 'approve' },
};

interface Decisions {
  rate: number;
  filed: number;
  decided: number;
  achieved: number;
  errors: number;
  lags: Float64Array;
  load: { before: number[]; after: number[] };
}

async function decisionsAtRate(databaseUrl: string): Promise<Decisions> {
  const url = withDatabase(databaseUrl, 'claims_bench_automation');
  const rate = envNumber('BENCH_AUTOMATION_RATE', 100);
  const seconds = envNumber('BENCH_AUTOMATION_SECONDS', 60);
  const runId = Date.now().toString(36);
  await recreateDatabase(url);
  const mail = await startMailReceiver();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'automation-bench-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: url,
    KAFKA_BROKERS: process.env.KAFKA_BROKERS || '127.0.0.1:9092',
    KAFKA_TOPIC: `bench.automation.${runId}`,
    KAFKA_GROUP_PREFIX: `bench-automation-${runId}`,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ENABLED: 'false',
    DEMO_FIXTURE: path.join(root, 'fixtures/demo.json'),
    SENTRY_DSN: '',
    SMTP_URL: mail.url,
    METRICS_TOKEN: '',
  };
  const api = await startApi({ ...env, WORKERS: 'none' }, { seed: true });
  const worker = await startWorker({ ...env, WORKERS: 'all' });
  try {
    const { token, storeId } = await setUp(api.base, ['automation:update']);
    const created = await call(api.base, 'POST', `/api/stores/${storeId}/rules`, { token, body: APPROVE_DAMAGE });
    if (created.status !== 201) throw new Error(`creating the rule answered ${created.status}: ${created.body}`);
    const numbers = Array.from(
      { length: Math.round(rate * seconds) },
      (_, i) => `${runId}${String(i).padStart(7, '0')}`,
    );
    log(`creating ${fmtInt(numbers.length)} orders (untimed)`);
    await createOrders(api.base, token, numbers);
    await sleep(5_000);
    const loadBefore = os.loadavg();
    log(`filing ${rate} claims/s for ${seconds} s, each decided by the rule`);
    const ids: string[] = [];
    const sent = await fileAtRate(api.base, rate, numbers, (claimId) => ids.push(claimId));
    const lags = await withPool(url, async (pool) => {
      for (const deadline = Date.now() + 300_000; ;) {
        const { rows } = await pool.query<{ ms: number }>(
          `select extract(epoch from (r.occurred_at - f.occurred_at)) * 1000 as ms
           from events f
           join lateral (select min(occurred_at) as occurred_at from events
                         where stream_id = f.stream_id and type = 'ClaimResolved') r on r.occurred_at is not null
           where f.type = 'ClaimFiled' and f.stream_id = any($1)`,
          [ids],
        );
        if (rows.length === ids.length || Date.now() > deadline) return sortedCopy(rows.map((r) => Number(r.ms)));
        await sleep(500);
      }
    });
    return {
      rate,
      filed: ids.length,
      decided: lags.length,
      achieved: ids.length / sent.seconds,
      errors: sent.errors,
      lags,
      load: { before: loadBefore, after: os.loadavg() },
    };
  } finally {
    await worker.stop();
    await api.stop();
    await mail.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

interface History {
  events: number;
  storeEvents: number;
  generatedSeconds: number;
  backtest: { seconds: number; matched: number; decided: number; disagreements: number };
  risk: { seconds: number; handled: number };
  load: number;
}

async function overHistory(databaseUrl: string): Promise<History> {
  const url = withDatabase(databaseUrl, 'claims_bench_automation_history');
  const target = envNumber('BENCH_AUTOMATION_EVENTS', 1_000_000);
  await recreateDatabase(url);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'automation-history-bench-'));
  const runtime = await startRuntime(benchConfig(url, dataDir), { listen: false, workers: false });
  try {
    const db = runtime.ctx.database.db;
    const acme = await findStoreBySlugOrDomain(db, { slug: 'acme' });
    if (!acme) throw new Error('demo store acme is missing');
    // One store's history: a backtest reads its own store's claims only.
    const templates = (await templatesOf(runtime)).filter((t) => t.store.storeId === acme.id);
    const generated = await generate(url, dataDir, templates, target, 8);
    log(`appended ${fmtInt(generated.events)} events in ${generated.seconds.toFixed(0)} s`);
    await withPool(url, (pool) => pool.query('analyze events, streams'));
    const counts = await withPool(url, async (pool) => {
      const { rows } = await pool.query<{ all: string; store: string }>(
        `select count(*) as all, count(*) filter (where store_id = $1) as store from events`,
        [acme.id],
      );
      return { all: Number(rows[0]!.all), store: Number(rows[0]!.store) };
    });
    const load = os.loadavg()[0]!;
    await checkpoint(url);
    const draft: RuleInput = {
      name: 'Approve damaged claims up to $50',
      mode: 'live',
      conditions: [
        { field: 'claimType', op: 'in', value: ['DAMAGED', 'DEFECTIVE_ITEM'] },
        { field: 'claimValue', op: 'lte', value: 50 },
      ],
      action: { type: 'approve' },
    };
    const rule = {
      id: 'draft',
      version: 0,
      rule: definitionOf(draft, acme.currency),
      updatedAt: new Date().toISOString(),
    };
    log('backtesting a draft rule over the whole history');
    const backtest = await timed(async () => {
      const job = await startBacktest(
        runtime.ctx,
        acme,
        rule,
        { start: '2000-01-01T00:00:00.000Z', end: new Date().toISOString() },
        'bench',
      );
      await job.done;
      return withPool(url, async (pool) => {
        const { rows } = await pool.query<{
          status: string;
          result: { matched: number; decided: { count: number }; disagreements: unknown[] } | null;
          error: string | null;
        }>('select status, result, error from rule_backtests where id = $1', [job.id]);
        const row = rows[0]!;
        if (row.status !== 'done' || !row.result) throw new Error(`the backtest ended ${row.status}: ${row.error}`);
        return row.result;
      });
    });
    log(`backtest: ${backtest.seconds.toFixed(1)} s, ${fmtInt(backtest.value.matched)} claims matched`);
    await checkpoint(url);
    const risk = await timed(() => rebuild(db, claimRiskProjection));
    log(`claim-risk rebuild: ${risk.seconds.toFixed(1)} s`);
    return {
      events: counts.all,
      storeEvents: counts.store,
      generatedSeconds: generated.seconds,
      backtest: {
        seconds: backtest.seconds,
        matched: backtest.value.matched,
        decided: backtest.value.decided.count,
        disagreements: backtest.value.disagreements.length,
      },
      risk: { seconds: risk.seconds, handled: risk.value.done },
      load,
    };
  } finally {
    await runtime.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const loads = (values: number[]) => values.map((l) => l.toFixed(2)).join(' / ');

export async function benchAutomation({ databaseUrl }: { databaseUrl: string }): Promise<string> {
  const url = databaseUrl || benchDatabaseUrl();
  const decisions = await decisionsAtRate(url);
  const history = await overHistory(url);
  const p99 = percentile(decisions.lags, 99);
  const riskRate = history.events / history.risk.seconds;
  const verdict = (ok: boolean) => (ok ? 'within' : 'not within');
  return [
    '## Automation',
    '',
    `**Decisions.** Claims filed at a steady ${fmtInt(decisions.rate)} a second (open loop, \`BENCH_AUTOMATION_RATE\`, ` +
      '`BENCH_AUTOMATION_SECONDS`) against an API process (`WORKERS=none`) and a worker process (every worker) on ' +
      'PostgreSQL and Kafka, mail to an SMTP server in the bench; one live rule approves each of them. The time is ' +
      "from the filing's event to the rule's `ClaimResolved`, as the database stamped both.",
    '',
    `Filed ${fmtInt(decisions.filed)} (${fmtInt(decisions.achieved)}/s achieved, ${fmtInt(decisions.errors)} errors), ` +
      `${fmtInt(decisions.decided)} decided by the rule. Load average (1/5/15 min) before ${loads(decisions.load.before)}, ` +
      `after ${loads(decisions.load.after)} on ${os.cpus().length} cores.`,
    '',
    '| figure | p50 | p99 | max | goal |',
    '| --- | ---: | ---: | ---: | ---: |',
    `| filing to the rule's decision (ms) | ${fmtMs(percentile(decisions.lags, 50))} | ${fmtMs(p99)} | ${fmtMs(decisions.lags.at(-1) ?? Number.NaN)} | p99 < ${fmtMs(GOAL.decisionP99Ms)} (${verdict(p99 < GOAL.decisionP99Ms)}) |`,
    '',
    `**Backtest and risk rebuild.** ${fmtInt(history.events)} events (${fmtInt(history.storeEvents)} of them Acme's), ` +
      `generated in ${history.generatedSeconds.toFixed(0)} s by the finance replay's generator (\`BENCH_AUTOMATION_EVENTS\`); ` +
      `load average ${history.load.toFixed(2)} when measuring began.`,
    '',
    '| figure | value | goal |',
    '| --- | ---: | ---: |',
    `| backtest of a draft rule over Acme's whole history | ${history.backtest.seconds.toFixed(1)} s (${fmtInt(history.backtest.matched)} claims matched, ${fmtInt(history.backtest.decided)} decided, ${fmtInt(history.backtest.disagreements)} disagreements) | < ${GOAL.backtestSeconds} s (${verdict(history.backtest.seconds < GOAL.backtestSeconds)}) |`,
    `| \`claim-risk\` rebuild | ${history.risk.seconds.toFixed(1)} s, ${fmtInt(riskRate)} history events/s (${fmtInt(history.risk.handled)} of its events) | ≥ ${fmtInt(GOAL.riskEventsPerSecond)} events/s (${verdict(riskRate >= GOAL.riskEventsPerSecond)}) |`,
  ].join('\n');
}
