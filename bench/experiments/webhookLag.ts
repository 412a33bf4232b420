/**
 * Lag from a filing's 201 to its `claim.filed` webhook arriving, end to end: the API as `npm start` runs it
 * (through Kafka when KAFKA_BROKERS is set), filings at a steady rate, the commands bench's own lag measurement.
 * Usage: WL_RATE=100 WL_SECONDS=10 npx tsx bench/experiments/webhookLag.ts
 * Env: WL_CHECKOUT (the working tree whose API runs, default this one: run another branch's code back to back),
 * WL_SPLIT=delivery (webhook delivery in a worker process of its own, `npm run worker` with WORKERS=delivery),
 * WL_WARMUP_SECONDS (3, filings at the same rate before the measured ones), WL_ROUNDS (1).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createOrders, lagAt, setUp, startApi, startReceiver, startWatch, webhookOnFiling } from '../commandsBench.js';
import { benchDatabaseUrl, recreateDatabase, withDatabase } from '../postgres.js';
import { fmtMs, percentile } from '../stats.js';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const checkout = path.resolve(process.env.WL_CHECKOUT ?? here);
const rate = Number(process.env.WL_RATE ?? 100);
const seconds = Number(process.env.WL_SECONDS ?? 10);
const warmupSeconds = Number(process.env.WL_WARMUP_SECONDS ?? 3);
const rounds = Number(process.env.WL_ROUNDS ?? 1);
const split = process.env.WL_SPLIT === 'delivery';
const url = withDatabase(benchDatabaseUrl(), 'claims_webhook_lag');
const runId = Date.now().toString(36);

await recreateDatabase(url);

/** The delivery side alone: from the outbox row's transaction (its `created_at`) to the first attempt, same host clock. */
async function outboxToAttempt(since: Date): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ p50: number; p99: number }>(
      `
      select percentile_cont(0.5) within group (order by ms) as p50, percentile_cont(0.99) within group (order by ms) as p99
      from (select extract(epoch from a.attempted_at - d.created_at) * 1000 as ms
            from webhook_deliveries d join webhook_delivery_attempts a on a.delivery_id = d.id and a.attempt = 1
            where d.created_at >= $1) lags`,
      [since],
    );
    return `${fmtMs(Number(rows[0]!.p50))} / ${fmtMs(Number(rows[0]!.p99))}`;
  } finally {
    await client.end();
  }
}
const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'webhook-lag-'));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATABASE_URL: url,
  KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '',
  KAFKA_TOPIC: `bench.webhooklag.${runId}`,
  KAFKA_GROUP_PREFIX: `whl-${runId}`,
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_ENABLED: 'false',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WORKERS: split ? 'relay,projectors,reactions,timers' : 'all',
  DEMO_FIXTURE: path.join(checkout, 'fixtures/demo.json'),
  SENTRY_DSN: '',
  SMTP_URL: '',
  METRICS_TOKEN: '',
};
const receiver = await startReceiver();
const api = await startApi(env, { seed: true, checkout });
const deliveryWorker = split
  ? spawn(process.execPath, ['--import', 'tsx', 'services/api/src/ops/workerMain.ts'], {
      cwd: checkout,
      env: { ...env, WORKERS: 'delivery' },
      stdio: ['ignore', 'ignore', 'inherit'],
    })
  : null;
const watch = await startWatch(url, receiver.deliveries);
try {
  const { token } = await setUp(api.base);
  await webhookOnFiling(api.base, token, receiver.url);
  const perRound = Math.round(rate * seconds);
  const warmup = Math.round(rate * warmupSeconds);
  const numbers = Array.from({ length: warmup + perRound * rounds }, (_, i) => `${runId}${String(i).padStart(7, '0')}`);
  await createOrders(api.base, token, numbers);
  if (warmup > 0) await lagAt(api.base, rate, warmupSeconds, numbers.slice(0, warmup), watch, api.pid);
  console.log(
    `checkout ${checkout}${split ? ', delivery in its own process' : ''}, Kafka ${env.KAFKA_BROKERS || 'off'}`,
  );
  console.log(
    '| round | achieved/s | filed | list p50 | list p99 | webhook p50 | webhook p99 | webhook max | outbox commit → first attempt p50 / p99 | caught up (list / webhook) ms | errors | load avg |',
  );
  for (let r = 0; r < rounds; r++) {
    const since = new Date();
    const result = await lagAt(
      api.base,
      rate,
      seconds,
      numbers.slice(warmup + r * perRound, warmup + (r + 1) * perRound),
      watch,
      api.pid,
    );
    console.log(
      `| ${r + 1} | ${result.achieved.toFixed(0)} | ${result.filed} | ${fmtMs(percentile(result.list, 50))} | ${fmtMs(percentile(result.list, 99))} | ` +
        `${fmtMs(percentile(result.delivery, 50))} | ${fmtMs(percentile(result.delivery, 99))} | ${fmtMs(result.delivery.at(-1) ?? 0)} | ${await outboxToAttempt(since)} | ` +
        `${result.catchUp.listMs.toFixed(0)} / ${result.catchUp.deliveryMs.toFixed(0)} | ${result.errors} | ${loadavg()[0]!.toFixed(1)} |`,
    );
  }
} finally {
  await watch.stop();
  deliveryWorker?.kill('SIGTERM');
  await api.stop();
  await receiver.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
