/**
 * What the projectors cost per filing and how long a filing takes to reach the claim list, with the projectors
 * in a process of their own (`WORKERS=projectors`, services/api/src/ops/workerMain.ts) beside the API (every other
 * worker), so their CPU time is counted apart from the command path's. Filings go at a steady rate (open loop).
 *
 *   EXP_API_ROOT=/work/main EXP_RATE=100 EXP_SECONDS=30 npx tsx bench/experiments/projectorLag.ts
 *
 * EXP_API_ROOT picks the checkout whose API and worker run (an A/B against another branch uses the same harness).
 * Needs DATABASE_URL's server and KAFKA_BROKERS; drops and recreates the database claims_exp_projector_lag.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { orderBody } from '../../test/support/orderBody.js';
import { call, fileAtRate, freePort, setUp, startWatch } from '../commandsBench.js';
import { recreateDatabase, withDatabase } from '../postgres.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const rate = env('EXP_RATE', 100);
const seconds = env('EXP_SECONDS', 30);
const apiRoot = path.resolve(process.env.EXP_API_ROOT ?? path.resolve(import.meta.dirname, '../..'));
const databaseUrl = withDatabase(
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  'claims_exp_projector_lag',
);
const ticksPerMs = 100 / 1000;

/** User + system CPU time of a process so far, in ms (Linux clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerMs;
}

function start(script: string, childEnv: NodeJS.ProcessEnv): { child: ChildProcess; exited: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: apiRoot,
    env: childEnv,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { child, exited: new Promise((resolve) => child.once('exit', () => resolve())) };
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main(): Promise<void> {
  await recreateDatabase(databaseUrl);
  const runId = Date.now().toString(36);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'projector-lag-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const shared: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    KAFKA_TOPIC: `exp.projector.${runId}`,
    KAFKA_GROUP_PREFIX: `exp-${runId}`,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ENABLED: 'false',
    SENTRY_DSN: '',
    SMTP_URL: '',
    METRICS_TOKEN: '',
    DEMO_FIXTURE: path.join(apiRoot, 'fixtures/demo.json'),
  };
  const api = start('services/api/src/main.ts', {
    ...shared,
    SEED_DEMO: 'true',
    WORKERS: 'relay,reactions,delivery,timers',
  });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  let worker: ReturnType<typeof start> | null = null;
  try {
    for (
      const deadline = Date.now() + 120_000;
      !(await fetch(`${base}/api/health`).then(
        (r) => r.status === 200,
        () => false,
      ));
    ) {
      if (Date.now() > deadline || api.child.exitCode !== null) throw new Error('the API did not start');
      await sleep(250);
    }
    worker = start('services/api/src/ops/workerMain.ts', { ...shared, WORKERS: 'projectors' });
    const { token } = await setUp(base);
    const count = Math.round(rate * seconds);
    const numbers = Array.from({ length: count }, (_, i) => `${runId}${String(i).padStart(6, '0')}`);
    for (let i = 0; i < numbers.length; i += 16) {
      await Promise.all(
        numbers
          .slice(i, i + 16)
          .map((n) => call(base, 'PUT', `/api/v1/orders/bench-${n}`, { body: orderBody(n), token })),
      );
    }
    // Everything so far (the seed, the orders) projected before the clock starts.
    const seedClaims = (
      await pool.query<{ n: number }>(`select count(*)::int as n from events where type = 'ClaimFiled'`)
    ).rows[0]!.n;
    while ((await pool.query<{ n: number }>('select count(*)::int as n from claim_list')).rows[0]!.n < seedClaims)
      await sleep(100);
    await sleep(3_000);

    const answered = new Map<string, number>();
    // Only the claim list is watched: no webhook is delivered here.
    const watch = await startWatch(databaseUrl, new Map());
    const cpuBefore = { api: cpuMs(api.child.pid!), worker: cpuMs(worker.child.pid!) };
    // As the commands bench: an API slower than the rate is not sent more than 512 filings at once.
    const { errors, seconds: sentSeconds } = await fileAtRate(base, rate, numbers, (claimId, at) => {
      answered.set(claimId, at);
      watch.expect(claimId);
    });
    while ([...answered.keys()].some((id) => !watch.listed.has(id))) await sleep(20);
    // What follows each filing (mail records, their projection) settles a little after the last row shows.
    await sleep(2_000);
    const cpuAfter = { api: cpuMs(api.child.pid!), worker: cpuMs(worker.child.pid!) };
    await watch.stop();
    const lags = [...answered.entries()]
      .map(([id, at]) => Math.max(0, watch.listed.get(id)! - at))
      .sort((a, b) => a - b);
    const filed = answered.size;
    console.log(
      JSON.stringify({
        apiRoot,
        rate,
        seconds,
        filed,
        errors,
        achieved: +(filed / sentSeconds).toFixed(1),
        listP50: Math.round(percentile(lags, 50)),
        listP99: Math.round(percentile(lags, 99)),
        projectorCpuMsPerFiling: +((cpuAfter.worker - cpuBefore.worker) / filed).toFixed(2),
        apiCpuMsPerFiling: +((cpuAfter.api - cpuBefore.api) / filed).toFixed(2),
        loadAverage: os.loadavg()[0]!.toFixed(1),
      }),
    );
  } finally {
    if (worker) {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
    api.child.kill('SIGTERM');
    await api.exited;
    await pool.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
