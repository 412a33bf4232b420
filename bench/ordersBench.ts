/**
 * Order ingestion (`BENCH_SECTIONS=orders make bench`), issue 30: a merchant's platform sends every protected checkout
 * as `PUT /api/v1/orders/{sourceOrderId}` (three items, a premium). Closed-loop clients at 8 and 32 send
 * BENCH_ORDERS_PER_LEVEL (4,000) fresh orders each against the API as `npm start` runs it (every worker, through Kafka);
 * after each level, the time until every projection (the payout ledger holding each premium among them) has applied
 * every event. pgbench runs the store's own append of the run's PremiumRecorded event at the same client counts, for
 * the ratio. Database `claims_bench_orders` (and `claims_bench_orders_append` for pgbench), recreated every run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventStoreMigrations, migrate, openDatabase } from '@claims/event-store';
import { PROJECTIONS, streamsBehind } from '@claims/projections';
import { orderBody } from '../test/support/orderBody.js';
import { call, closedLoop, pgbenchScript, realisticEvent, runPgbench, setUp, startApi } from './commandsBench.js';
import { loadedServerEnv } from './loadedServerEnv.js';
import { recreateDatabase, withDatabase } from './postgres.js';
import { fmtInt, fmtMs, percentile } from './stats.js';

const LEVELS = [8, 32] as const;
const GOAL_PER_SECOND = 1_000;
const envNumber = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const log = (line: string) => process.stderr.write(`orders: ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Level {
  clients: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  currentAfterMs: number;
  pgbench: number;
}

export async function benchOrders({ databaseUrl }: { databaseUrl: string }): Promise<string> {
  const url = withDatabase(databaseUrl, 'claims_bench_orders');
  const pgbenchUrl = withDatabase(databaseUrl, 'claims_bench_orders_append');
  const perLevel = envNumber('BENCH_ORDERS_PER_LEVEL', 4_000);
  const pgbenchSeconds = envNumber('BENCH_PGBENCH_SECONDS', 10);
  await recreateDatabase(url);
  await recreateDatabase(pgbenchUrl);
  const runId = Date.now().toString(36);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orders-bench-'));
  const api = await startApi(
    {
      ...process.env,
      DATABASE_URL: url,
      KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '',
      KAFKA_TOPIC: `bench.orders.${runId}`,
      KAFKA_GROUP_PREFIX: `bench-orders-${runId}`,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...loadedServerEnv,
    },
    { seed: true },
  );
  const watcher = await openDatabase({ databaseUrl: url, dataDir: os.tmpdir(), poolSize: 1 });
  const behind = async () => {
    let streams = 0;
    for (const projection of PROJECTIONS) streams += (await streamsBehind(watcher.db, projection, 1)).length;
    return streams;
  };
  const levels: Level[] = [];
  try {
    const { token } = await setUp(api.base);
    for (const clients of LEVELS) {
      const numbers = Array.from({ length: perLevel }, (_, i) => `${runId}${clients}${String(i).padStart(6, '0')}`);
      log(`${fmtInt(perLevel)} orders at ${clients} clients`);
      const result = await closedLoop(
        numbers,
        clients,
        (n) => call(api.base, 'PUT', `/api/v1/orders/bench-${n}`, { body: orderBody(n, 3), token }),
        (status) => status === 201,
      );
      const sent = performance.now();
      while ((await behind()) > 0) await sleep(20);
      levels.push({
        clients,
        perSecond: result.ok / result.seconds,
        p50: percentile(result.latencies, 50),
        p99: percentile(result.latencies, 99),
        errors: result.errors,
        currentAfterMs: performance.now() - sent,
        pgbench: 0,
      });
    }
    log('pgbench, the append of the run’s PremiumRecorded');
    const event = await realisticEvent(url, 'PremiumRecorded');
    const migrated = await openDatabase({ databaseUrl: pgbenchUrl, dataDir: os.tmpdir(), poolSize: 2 });
    await migrate(migrated, eventStoreMigrations);
    await migrated.close();
    const script = pgbenchScript(event);
    for (const level of levels) level.pgbench = runPgbench(pgbenchUrl, script, level.clients, pgbenchSeconds);
  } finally {
    await watcher.close();
    await api.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return [
    '## Order ingestion',
    '',
    `\`PUT /api/v1/orders/{sourceOrderId}\` of fresh orders (three items, a premium: a row in \`orders\` and a ` +
      '`PremiumRecorded` event each) from closed-loop clients in the bench process, against the API as `npm start` runs it ' +
      `(every worker, through Kafka), ${fmtInt(perLevel)} orders per level. "Current after" is ` +
      'the time from the last answer until every projection (the payout ledger among them) had applied every event. ' +
      `pgbench runs the store's append statement with the run's own \`PremiumRecorded\` payload for ${pgbenchSeconds} s ` +
      'at the same client count.',
    '',
    '| clients | orders/s | p50 ms | p99 ms | errors | current after (ms) | pgbench appends/s | ratio | goal (≥ 1,000/s) |',
    '| ------: | -------: | -----: | -----: | -----: | -----------------: | ----------------: | ----: | :--------------- |',
    ...levels.map(
      (l) =>
        `| ${l.clients} | ${fmtInt(l.perSecond)} | ${fmtMs(l.p50)} | ${fmtMs(l.p99)} | ${l.errors} | ${fmtInt(l.currentAfterMs)} | ` +
        `${fmtInt(l.pgbench)} | ${(l.perSecond / l.pgbench).toFixed(3)} | ${l.perSecond >= GOAL_PER_SECOND ? 'met' : 'not met'} |`,
    ),
  ].join('\n');
}
