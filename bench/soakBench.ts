/**
 * `BENCH_SECTIONS=soak make bench`: claims filed at a steady rate for minutes, as the product runs in production: an
 * API process (HTTP only) and a worker process (relay, projectors through Kafka, reactions, webhook delivery, timers)
 * on PostgreSQL and Kafka, mail to a real SMTP server and webhooks to a receiver, both in this process. For the claim
 * list, the `claim.filed` webhook and the shopper's "We received your claim" mail it reports the lag from each
 * filing's 201 over the whole run (p50, p99, max), the time to catch up after the last filing, and each process's
 * resident memory (at the start, at the end, at most).
 *
 * Env: BENCH_SOAK_RATE (300 filings/s), BENCH_SOAK_SECONDS (300), KAFKA_BROKERS (127.0.0.1:9092),
 * BENCH_SOAK_SMTP_CONNECTIONS (SMTP_MAX_CONNECTIONS of the worker, its default when unset), BENCH_SOAK_WORKERS (1: worker
 * processes of every role, sharing the work as `npm run worker` run several times does).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import {
  call,
  caughtUp,
  createOrders,
  fileAtRate,
  setUp,
  startApi,
  startReceiver,
  startWatch,
} from './commandsBench.js';
import { recreateDatabase, withDatabase } from './postgres.js';
import { fmtInt, fmtMs, percentile, sortedCopy } from './stats.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const envNumber = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const log = (line: string) => process.stderr.write(`soak: ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The goal: mail, list and webhooks keep pace at 300 filings a second for five minutes. */
const GOAL = { mailP99Ms: 5_000, listP99Ms: 250, webhookP99Ms: 250, catchUpMs: 5_000 };

/**
 * An SMTP server noting when each shopper's "We received your claim" mail arrived (by recipient), from the mail's
 * headers alone: parsing tens of thousands of whole mails would take the CPU the product is measured with.
 */
export async function startMailReceiver(): Promise<{
  url: string;
  received: Map<string, number>;
  mails: () => number;
  connections: () => number;
  close(): Promise<void>;
}> {
  const received = new Map<string, number>();
  let mails = 0;
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 1_000_000,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const at = performance.now();
        mails++;
        const head = Buffer.concat(chunks)
          .toString('latin1')
          .split('\r\n\r\n', 1)[0]!
          .replace(/\r\n[ \t]+/g, ' ');
        const subject = /^Subject: (.*)$/m.exec(head)?.[1] ?? '';
        const to = /^To: .*?<?([^\s<>]+@[^\s<>]+)>?\s*$/m.exec(head)?.[1];
        if (to && subject.startsWith('We received your claim') && !received.has(to)) received.set(to, at);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    mails: () => mails,
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Resident memory of a process in MiB (/proc), null once it is gone. */
function rssMiB(pid: number): number | null {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

interface MemoryTrace {
  start: number;
  end: number;
  max: number;
}

/** Samples each process's memory every second until stopped. */
function traceMemory(pids: Record<string, number>): () => Record<string, MemoryTrace> {
  const traces: Record<string, MemoryTrace> = {};
  const sample = () => {
    for (const [name, pid] of Object.entries(pids)) {
      const rss = rssMiB(pid);
      if (rss === null) continue;
      const trace = (traces[name] ??= { start: rss, end: rss, max: rss });
      trace.end = rss;
      trace.max = Math.max(trace.max, rss);
    }
  };
  sample();
  const timer = setInterval(sample, 1_000);
  return () => {
    clearInterval(timer);
    sample();
    return traces;
  };
}

/** The worker process (`npm run worker`): every background worker, no HTTP. */
export async function startWorker(env: NodeJS.ProcessEnv): Promise<{ pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/api/src/ops/workerMain.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await sleep(2_000);
  if (child.exitCode !== null) throw new Error(`the worker exited with ${child.exitCode} while starting`);
  return {
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** How long the bench waits for the last shopper's mail after the last filing. */
const MAIL_WAIT_MS = 600_000;

const lagRow = (name: string, lags: Float64Array, catchUpMs: number, goalMs: number) =>
  `| ${name} | ${fmtInt(lags.length)} | ${fmtMs(percentile(lags, 50))} | ${fmtMs(percentile(lags, 99))} | ${fmtMs(lags.at(-1) ?? Number.NaN)} | ${fmtMs(catchUpMs)} | ${fmtMs(goalMs)} |`;

export async function benchSoak({ databaseUrl }: { databaseUrl: string }): Promise<string> {
  const url = withDatabase(databaseUrl, 'claims_bench_soak');
  const rate = envNumber('BENCH_SOAK_RATE', 300);
  const seconds = envNumber('BENCH_SOAK_SECONDS', 300);
  const count = Math.round(rate * seconds);
  const runId = Date.now().toString(36);
  await recreateDatabase(url);
  const mail = await startMailReceiver();
  const hooks = await startReceiver();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'soak-bench-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: url,
    KAFKA_BROKERS: process.env.KAFKA_BROKERS || '127.0.0.1:9092',
    KAFKA_TOPIC: `bench.soak.${runId}`,
    KAFKA_GROUP_PREFIX: `bench-soak-${runId}`,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ENABLED: 'false',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    DEMO_FIXTURE: path.join(root, 'fixtures/demo.json'),
    SENTRY_DSN: '',
    SMTP_URL: mail.url,
    METRICS_TOKEN: '',
    ...(process.env.BENCH_SOAK_SMTP_CONNECTIONS
      ? { SMTP_MAX_CONNECTIONS: process.env.BENCH_SOAK_SMTP_CONNECTIONS }
      : {}),
  };
  const loadBefore = os.loadavg();
  const api = await startApi({ ...env, WORKERS: 'none' }, { seed: true });
  const workerCount = envNumber('BENCH_SOAK_WORKERS', 1);
  const workers = await Promise.all(Array.from({ length: workerCount }, () => startWorker({ ...env, WORKERS: 'all' })));
  const watch = await startWatch(url, hooks.deliveries);
  try {
    const { token } = await setUp(api.base);
    const endpoint = await call(api.base, 'POST', '/api/v1/webhook-endpoints', {
      token,
      body: { url: hooks.url, eventTypes: ['claim.filed'] },
    });
    if (endpoint.status !== 201)
      throw new Error(`creating the webhook endpoint answered ${endpoint.status}: ${endpoint.body}`);
    const numbers = Array.from({ length: count }, (_, i) => `${runId}${String(i).padStart(7, '0')}`);
    log(`creating ${fmtInt(count)} orders (untimed)`);
    await createOrders(api.base, token, numbers);
    // What the demo data and the orders left to do is done before the clock starts.
    await sleep(5_000);
    log(`filing ${fmtInt(rate)} claims/s for ${seconds} s`);
    const memory = traceMemory({
      api: api.pid,
      ...Object.fromEntries(workers.map((w, i) => [workerCount === 1 ? 'worker' : `worker ${i + 1}`, w.pid])),
      bench: process.pid,
    });
    const answered = new Map<string, { at: number; email: string }>();
    const sent = await fileAtRate(api.base, rate, numbers, (claimId, at) => {
      answered.set(claimId, { at, email: '' });
      watch.expect(claimId);
    });
    const end = performance.now();
    const ids = [...answered.keys()];
    // Each filing's shopper is `buyer-{order number}@example.com` (filingBody): the claim ids come back in the answers.
    const { rows } = await import('pg').then(async ({ default: pg }) => {
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      try {
        return await pool.query<{ claim_id: string; email: string }>(
          `select stream_id as claim_id, data->'customer'->>'email' as email from events
           where type = 'ClaimFiled' and stream_id = any($1)`,
          [ids],
        );
      } finally {
        await pool.end();
      }
    });
    for (const row of rows) answered.get(row.claim_id)!.email = row.email;
    log('waiting for the claim list, the webhooks and the mail to catch up');
    const readModels = await caughtUp(watch, ids, end);
    // An overloaded run still reports: mail not there 10 minutes after the last filing counts as arriving then (a floor).
    const deadline = Date.now() + MAIL_WAIT_MS;
    while (ids.some((id) => !mail.received.has(answered.get(id)!.email)) && Date.now() < deadline) await sleep(50);
    const waitedUntil = performance.now();
    const mailArrival = (id: string) => mail.received.get(answered.get(id)!.email) ?? waitedUntil;
    const mailMissing = ids.filter((id) => !mail.received.has(answered.get(id)!.email)).length;
    const lastMail = Math.max(...ids.map(mailArrival));
    const traces = memory();
    const loadAfter = os.loadavg();
    const lags = (arrived: (id: string) => number) =>
      sortedCopy(ids.map((id) => Math.max(0, arrived(id) - answered.get(id)!.at)));
    const list = lags((id) => watch.listed.get(id)!);
    const webhook = lags((id) => watch.delivered.get(id)!);
    const shopperMail = lags(mailArrival);
    const mailCatchUp = Math.max(0, lastMail - end);
    const within =
      mailMissing === 0 &&
      percentile(shopperMail, 99) <= GOAL.mailP99Ms &&
      percentile(list, 99) <= GOAL.listP99Ms &&
      percentile(webhook, 99) <= GOAL.webhookP99Ms &&
      Math.max(readModels.listMs, readModels.deliveryMs, mailCatchUp) <= GOAL.catchUpMs;
    const memoryRows = Object.entries(traces).map(
      ([name, t]) =>
        `| ${name} | ${t.start.toFixed(0)} | ${t.end.toFixed(0)} | ${t.max.toFixed(0)} | ${(t.end - t.start).toFixed(0)} |`,
    );
    return [
      '## Soak',
      '',
      `Claims filed at a steady ${fmtInt(rate)} a second for ${seconds} s (open loop, \`BENCH_SOAK_RATE\`, ` +
        `\`BENCH_SOAK_SECONDS\`) against an API process (\`WORKERS=none\`) and ${workerCount === 1 ? 'a worker process' : `${workerCount} worker processes (\`BENCH_SOAK_WORKERS\`), each`} (every worker: relay, ` +
        'projectors through Kafka, reactions, webhook delivery, timers) on PostgreSQL and Kafka; mail to a real SMTP ' +
        "server and webhooks to a receiver, both in the bench's process. Lag is from each filing's 201 to its row in " +
        'the claim list, its `claim.filed` webhook and its shopper\'s "We received your claim" mail; catching up is ' +
        'from the last filing to the last arrival.',
      '',
      `Filed ${fmtInt(ids.length)} claims in ${sent.seconds.toFixed(1)} s (${fmtInt(ids.length / sent.seconds)}/s achieved, ` +
        `${fmtInt(sent.errors)} errors); ${fmtInt(mail.mails())} mails over ${fmtInt(mail.connections())} SMTP connections. ` +
        `Load average (1/5/15 min) before ${loadBefore.map((l) => l.toFixed(2)).join(' / ')}, after ` +
        `${loadAfter.map((l) => l.toFixed(2)).join(' / ')} on ${os.cpus().length} cores.`,
      '',
      '| reader | claims | lag p50 (ms) | lag p99 (ms) | lag max (ms) | caught up after the last filing (ms) | goal p99 (ms) |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      lagRow('claim list', list, readModels.listMs, GOAL.listP99Ms),
      lagRow('`claim.filed` webhook', webhook, readModels.deliveryMs, GOAL.webhookP99Ms),
      lagRow('shopper\'s "We received your claim" mail', shopperMail, mailCatchUp, GOAL.mailP99Ms),
      '',
      ...(mailMissing > 0
        ? [
            `${fmtInt(mailMissing)} of ${fmtInt(ids.length)} shoppers had no mail ${MAIL_WAIT_MS / 60_000} minutes after the last ` +
              'filing, when the bench stopped waiting: their lag counts to then, so the mail row is a floor.',
            '',
          ]
        : []),
      '| process | RSS at start (MiB) | RSS at end (MiB) | RSS max (MiB) | end − start (MiB) |',
      '| --- | ---: | ---: | ---: | ---: |',
      ...memoryRows,
      '',
      within
        ? `Within the goal (p99 mail ≤ 5 s, claim list and webhook ≤ 250 ms, caught up within 5 s).`
        : `Not within the goal (p99 mail ≤ 5 s, claim list and webhook ≤ 250 ms, caught up within 5 s) on this run.`,
    ].join('\n');
  } finally {
    await watch.stop();
    await Promise.all(workers.map((w) => w.stop()));
    await api.stop();
    await hooks.close();
    await mail.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
