/**
 * `BENCH_SECTIONS=commands make bench`: commands over HTTP against the API as `npm start` runs it (its own
 * process: HTTP, relay, projections and delivery together, through Kafka when KAFKA_BROKERS is set), and in the
 * same run the event store's own append statement under pgbench and the store's single-event append from Node,
 * so every command figure is also a ratio of what the database does without the service around it.
 *
 * Phases: FileClaim, SendMessage and ResolveClaim at 8 and 32 clients (closed loop, fresh orders, rate limits
 * off); pgbench and Node appends at 8 and 32; lag from each filing's 201 to its claim-list row and to its webhook
 * delivery at steady rates; how long the read models take to catch up after each burst; the CPU split between
 * the API process, PostgreSQL, Kafka and the rest; the ten functions with the most self time in a CPU profile of
 * the API filing claims at 32 clients.
 *
 * Env: BENCH_COMMANDS_PER_LEVEL (2000 commands per kind and level), BENCH_LAG_RATES ("100,200,500,1000" claims/s: the goals name 100, 500 and 1,000, analytics 200 and 1,000),
 * BENCH_LAG_SECONDS (10), BENCH_PGBENCH_SECONDS (10).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { CreateApiTokenResponse, FileClaimResponse, type EventMetadata, type Permission } from '@claims/contracts';
import {
  appendStatementText,
  appendToStream,
  eventStoreMigrations,
  migrate,
  NO_STREAM,
  openDatabase,
} from '@claims/event-store';
import { filingBody, orderBody } from '../test/support/orderBody.js';
import { machineInfo } from './machine.js';
import { readProcTicks } from './cpuSampler.js';
import { databaseName, recreateDatabase, withDatabase } from './postgres.js';
import { fmtInt, fmtMs, percentile, sortedCopy } from './stats.js';
import { writeRawResult } from './rawResults.js';
import { loadedServerEnv } from './loadedServerEnv.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LEVELS = [8, 32] as const;
const envNumber = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const log = (line: string) => process.stderr.write(`commands: ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------------------------
// CPU accounting per process (Linux /proc): the API child, PostgreSQL's processes, Kafka's JVM, this process.

type CpuGroup = 'api' | 'postgres' | 'kafka' | 'bench';

export const commandLineOf = (pid: string): string => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
};

function processTicks(apiPid: number | undefined): {
  total: number;
  idle: number;
  groups: Map<string, { group: CpuGroup; ticks: number }>;
} {
  const { total, idle, processes } = readProcTicks();
  const groups = new Map<string, { group: CpuGroup; ticks: number }>();
  for (const { pid, parent, comm, ticks } of processes) {
    // Only a JVM is asked for its command line: whether it is Kafka's.
    const group: CpuGroup | null =
      Number(pid) === apiPid || parent === apiPid
        ? 'api'
        : comm === 'postgres'
          ? 'postgres'
          : comm === 'java' && commandLineOf(pid).includes('kafka')
            ? 'kafka'
            : Number(pid) === process.pid || comm === 'pgbench'
              ? 'bench'
              : null;
    if (group) groups.set(pid, { group, ticks });
  }
  return { total, idle, groups };
}

type CpuSplit = Record<CpuGroup | 'other', number>;

/** Shares of the whole machine (1 = every core busy) per group between the call and the returned function's; the API counts its cluster's processes. */
function startCpuSplit(apiPid: number | undefined): () => CpuSplit {
  const start = processTicks(apiPid);
  return () => {
    const end = processTicks(apiPid);
    const total = end.total - start.total;
    const split: CpuSplit = { api: 0, postgres: 0, kafka: 0, bench: 0, other: 0 };
    for (const [pid, { group, ticks }] of end.groups) {
      const before = start.groups.get(pid);
      if (before) split[group] += (ticks - before.ticks) / total;
    }
    const busy = (total - (end.idle - start.idle)) / total;
    split.other = Math.max(0, busy - split.api - split.postgres - split.kafka - split.bench);
    return split;
  };
}

const pct = (share: number) => `${Math.round(share * 100)}%`;
const cpuCells = (split: CpuSplit) =>
  `${pct(split.api)} | ${pct(split.postgres)} | ${pct(split.kafka)} | ${pct(split.bench)} | ${pct(split.other)}`;

// ---------------------------------------------------------------------------------------------------------------
// The API under test, as `npm start` runs it.

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Api {
  base: string;
  pid: number;
  stop(): Promise<void>;
}

/** `checkout`: the working tree whose API runs (default this one), so an experiment can run another branch's code. */
export async function startApi(
  env: NodeJS.ProcessEnv,
  options: { seed: boolean; cpuProfileDir?: string; checkout?: string },
): Promise<Api> {
  const port = await freePort();
  const args = [
    ...(options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : []),
    '--import',
    'tsx',
    'services/api/src/main.ts',
  ];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: options.checkout ?? root,
    env: { ...env, PORT: String(port), SEED_DEMO: String(options.seed) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (const deadline = Date.now() + 120_000; ;) {
    if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode} while starting`);
    const ready = await fetch(`${base}/api/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error('the API did not become ready within 2 minutes');
    await sleep(250);
  }
  return {
    base,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function call(
  base: string,
  method: string,
  url: string,
  options: { body?: unknown; token?: string; cookie?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie) Object.assign(headers, { cookie: options.cookie, origin: base });
  const response = await fetch(`${base}${url}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: response.status, body: await response.text(), headers: response.headers };
}

/** Signs in as Acme's owner and makes an API token of the bench's permissions and `extra`. */
export async function setUp(
  base: string,
  extra: readonly Permission[] = [],
): Promise<{ token: string; storeId: string }> {
  const login = await call(base, 'POST', '/api/auth/login', {
    body: { email: 'owner@acme.test', password: 'demo-pass-1234' },
  });
  if (login.status !== 200) throw new Error(`sign-in answered ${login.status}`);
  const cookie = String(login.headers.get('set-cookie')).split(';')[0]!;
  const storeId = (
    JSON.parse((await call(base, 'GET', '/api/whitelabel/settings?store=acme')).body) as { storeId: string }
  ).storeId;
  const created = await call(base, 'POST', `/api/stores/${storeId}/api-tokens`, {
    cookie,
    body: {
      name: 'commands bench',
      permissions: ['order:create', 'claim:read', 'claim:resolve', 'webhook:create', ...extra],
    },
  });
  if (created.status !== 201) throw new Error(`creating the token answered ${created.status}: ${created.body}`);
  return { token: CreateApiTokenResponse.parse(JSON.parse(created.body)).token, storeId };
}

/** Registers a webhook endpoint at `receiverUrl` for every claim.filed: what the webhook lag is measured on. */
export async function webhookOnFiling(base: string, token: string, receiverUrl: string): Promise<void> {
  const endpoint = await call(base, 'POST', '/api/v1/webhook-endpoints', {
    token,
    body: { url: receiverUrl, eventTypes: ['claim.filed'] },
  });
  if (endpoint.status !== 201)
    throw new Error(`creating the webhook endpoint answered ${endpoint.status}: ${endpoint.body}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Closed-loop clients: each takes the next job as soon as its last answer came.

export interface LoopResult {
  latencies: Float64Array;
  seconds: number;
  ok: number;
  errors: number;
  firstError: string | null;
}

export async function closedLoop<J>(
  jobs: readonly J[],
  clients: number,
  send: (job: J) => Promise<{ status: number; body: string }>,
  ok: (status: number) => boolean,
): Promise<LoopResult & { answers: string[] }> {
  const latencies: number[] = [];
  const answers: string[] = new Array<string>(jobs.length);
  let next = 0;
  let errors = 0;
  let firstError: string | null = null;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = next++; i < jobs.length; i = next++) {
        const t0 = performance.now();
        const answer = await send(jobs[i]!).catch((error: unknown) => ({ status: 0, body: String(error) }));
        latencies.push(performance.now() - t0);
        if (ok(answer.status)) answers[i] = answer.body;
        else {
          errors++;
          firstError ??= `${answer.status} ${answer.body.slice(0, 200)}`;
        }
      }
    }),
  );
  return {
    latencies: sortedCopy(latencies),
    seconds: (performance.now() - started) / 1000,
    ok: jobs.length - errors,
    errors,
    firstError,
    answers,
  };
}

/** Orders the merchant's platform sends before the run (untimed): each filing needs a fresh one. */
export async function createOrders(base: string, token: string, numbers: readonly string[]): Promise<void> {
  const result = await closedLoop(
    numbers,
    16,
    (n) => call(base, 'PUT', `/api/v1/orders/bench-${n}`, { body: orderBody(n), token }),
    (status) => status === 200 || status === 201,
  );
  if (result.errors > 0) throw new Error(`creating orders failed ${result.errors} times: ${result.firstError}`);
}

// ---------------------------------------------------------------------------------------------------------------
// The read models' side: when each claim shows in the claim list, and when its webhook arrives.

export interface Watch {
  /** When each claim id was first seen in the claim list (ms, performance.now()). */
  listed: Map<string, number>;
  delivered: Map<string, number>;
  expect(claimId: string): void;
  stop(): Promise<void>;
}

export async function startWatch(databaseUrl: string, receiverDeliveries: Map<string, number>): Promise<Watch> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const listed = new Map<string, number>();
  const pending = new Set<string>();
  let running = true;
  // Polls only the claims not seen yet, every 5 ms: the lag's resolution is the poll's plus its query.
  const loop = (async () => {
    while (running) {
      if (pending.size > 0) {
        const { rows } = await pool.query<{ claim_id: string }>(
          'select claim_id from claim_list where claim_id = any($1::uuid[])',
          [[...pending]],
        );
        const at = performance.now();
        for (const { claim_id } of rows) {
          listed.set(claim_id, at);
          pending.delete(claim_id);
        }
      }
      await sleep(5);
    }
  })();
  return {
    listed,
    delivered: receiverDeliveries,
    expect: (claimId) => {
      if (!listed.has(claimId)) pending.add(claimId);
    },
    async stop() {
      running = false;
      await loop;
      await pool.end();
    },
  };
}

export async function startReceiver(): Promise<{
  url: string;
  deliveries: Map<string, number>;
  close(): Promise<void>;
}> {
  const deliveries = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          type?: string;
          data?: { claimId?: string };
        };
        if (body.type === 'claim.filed' && body.data?.claimId && !deliveries.has(body.data.claimId))
          deliveries.set(body.data.claimId, at);
      } catch {
        // not a delivery of ours
      }
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    deliveries,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Waits until every claim is listed and delivered; answers how long that took after `since` (ms). */
export async function caughtUp(
  watch: Watch,
  claimIds: readonly string[],
  since: number,
): Promise<{ listMs: number; deliveryMs: number }> {
  const deadline = Date.now() + 300_000;
  while (!claimIds.every((id) => watch.listed.has(id) && watch.delivered.has(id))) {
    if (Date.now() > deadline) throw new Error('the read models did not catch up within 5 minutes');
    await sleep(20);
  }
  const last = (map: Map<string, number>) => Math.max(...claimIds.map((id) => map.get(id)!));
  return { listMs: Math.max(0, last(watch.listed) - since), deliveryMs: Math.max(0, last(watch.delivered) - since) };
}

export interface LagResult {
  rate: number;
  achieved: number;
  filed: number;
  list: Float64Array;
  delivery: Float64Array;
  catchUp: { listMs: number; deliveryMs: number };
  cpu: CpuSplit;
  errors: number;
}

/** Filings sent at a steady rate (open loop, at most 512 in flight), each one's lag measured from its 201. */
/**
 * Files a claim on each of the orders at a steady rate (open loop: an API slower than the rate is not sent more than 512
 * filings at once); `filed` hears each 201's claim id, when it came and how long it took. Answers the errors and the
 * seconds the sending took.
 */
export async function fileAtRate(
  base: string,
  rate: number,
  numbers: readonly string[],
  filed: (claimId: string, at: number, latencyMs: number) => void,
): Promise<{ errors: number; seconds: number }> {
  const started = performance.now();
  let inFlight = 0;
  let errors = 0;
  const sends: Promise<void>[] = [];
  for (const [i, n] of numbers.entries()) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 1) await sleep(wait);
    while (inFlight >= 512) await sleep(1);
    inFlight++;
    const sent = performance.now();
    sends.push(
      call(base, 'POST', `/api/claims/bench-${n}`, { body: filingBody(n) })
        .then(
          (answer) => {
            const at = performance.now();
            if (answer.status === 201) filed(FileClaimResponse.parse(JSON.parse(answer.body)).claimId, at, at - sent);
            else errors++;
          },
          () => {
            errors++;
          },
        )
        .finally(() => {
          inFlight--;
        }),
    );
  }
  await Promise.all(sends);
  return { errors, seconds: (performance.now() - started) / 1000 };
}

export async function lagAt(
  base: string,
  rate: number,
  seconds: number,
  numbers: readonly string[],
  watch: Watch,
  apiPid: number,
): Promise<LagResult> {
  const answered = new Map<string, number>();
  const cpu = startCpuSplit(apiPid);
  const sent = await fileAtRate(base, rate, numbers.slice(0, Math.round(rate * seconds)), (claimId, at) => {
    answered.set(claimId, at);
    watch.expect(claimId);
  });
  const ids = [...answered.keys()];
  const catchUp = await caughtUp(watch, ids, performance.now());
  const lags = (map: Map<string, number>) => sortedCopy(ids.map((id) => Math.max(0, map.get(id)! - answered.get(id)!)));
  return {
    rate,
    achieved: ids.length / sent.seconds,
    filed: ids.length,
    list: lags(watch.listed),
    delivery: lags(watch.delivered),
    catchUp,
    cpu: cpu(),
    errors: sent.errors,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The database without the service: pgbench running the append statement, and the store's append from Node.

export interface RealisticEvent {
  type: string;
  streamType: string;
  storeId: string;
  data: unknown;
  metadata: EventMetadata;
}

/** The last event of `type` the run's own commands appended: what pgbench appends in the same run. */
export async function realisticEvent(databaseUrl: string, type: string): Promise<RealisticEvent> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const { rows } = await pool.query<{
      stream_type: string;
      store_id: string;
      data: unknown;
      metadata: EventMetadata;
    }>(
      `select stream_type, store_id, data, metadata from events where type = $1 order by global_position desc limit 1`,
      [type],
    );
    const row = rows[0];
    if (!row) throw new Error(`no ${type} event to copy`);
    return { type, streamType: row.stream_type, storeId: row.store_id, data: row.data, metadata: row.metadata };
  } finally {
    await pool.end();
  }
}

const base64Json = (value: unknown) =>
  `convert_from(decode('${Buffer.from(JSON.stringify(value)).toString('base64')}', 'base64'), 'UTF8')`;

/**
 * The store's one-event append to a new stream (what a filing's claim stream gets), as pgbench runs it: the same
 * text, the parameters written in (the JSON through base64, since pgbench reads `:word` as a variable).
 */
export function pgbenchScript(event: RealisticEvent): string {
  const values: Record<number, string> = {
    1: `('pgbench-' || :client_id || '-' || :n)`,
    2: `'${event.streamType}'`,
    3: '1',
    4: `'${event.storeId}'`,
    5: 'gen_random_uuid()',
    6: `'${event.type}'`,
    7: '1',
    8: base64Json(event.data),
    9: base64Json(event.metadata),
  };
  const text = appendStatementText('new', false).replace(/\$(\d+)/g, (_, k: string) => values[Number(k)]!);
  return `\\set n random(1, 9000000000000000)\n${text.replace(/\s+/g, ' ')};\n`;
}

export function runPgbench(url: string, script: string, clients: number, seconds: number): number {
  const file = path.join(os.tmpdir(), `append-${process.pid}.sql`);
  fs.writeFileSync(file, script);
  const result = spawnSync(
    'pgbench',
    [
      '-n',
      '-M',
      'prepared',
      '-c',
      String(clients),
      '-j',
      String(Math.min(clients, 2)),
      '-T',
      String(seconds),
      '-f',
      file,
      url,
    ],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`pgbench failed: ${result.stderr}`);
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(result.stdout)?.[1];
  if (!tps) throw new Error(`pgbench printed no tps: ${result.stdout}`);
  return Number(tps);
}

async function nodeAppendRate(url: string, event: RealisticEvent, clients: number, seconds: number): Promise<number> {
  const database = await openDatabase({ databaseUrl: url, dataDir: os.tmpdir(), poolSize: clients });
  try {
    let appended = 0;
    const until = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (performance.now() < until) {
          await appendToStream(database.db, {
            streamId: `node-${randomUUID()}`,
            streamType: event.streamType,
            storeId: event.storeId,
            expectedVersion: NO_STREAM,
            events: [{ eventId: randomUUID(), type: event.type, data: event.data, metadata: event.metadata }],
          });
          appended++;
        }
      }),
    );
    return appended / seconds;
  } finally {
    await database.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The CPU profile: self time per function, from a V8 .cpuprofile.

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

export function topFunctions(profile: CpuProfile, count: number): { name: string; where: string; share: number }[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map<string, { name: string; where: string; us: number }>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!;
    const us = profile.timeDeltas[i] ?? 0;
    if (frame.functionName === '(idle)' || frame.functionName === '(program)') return;
    busy += us;
    const where = frame.url
      ? `${frame.url.replace(`file://${root}/`, '').replace(/^.*node_modules\//, '')}:${frame.lineNumber + 1}`
      : '(native)';
    const key = `${frame.functionName}@${where}`;
    const entry = self.get(key) ?? { name: frame.functionName || '(anonymous)', where, us: 0 };
    entry.us += us;
    self.set(key, entry);
  });
  return [...self.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, count)
    .map((e) => ({ name: e.name, where: e.where, share: e.us / busy }));
}

// ---------------------------------------------------------------------------------------------------------------

interface LevelRow {
  kind: 'FileClaim' | 'FileClaim, API_PROCESSES=2' | 'FileClaim, WORKERS=none' | 'SendMessage' | 'ResolveClaim';
  clients: number;
  result: LoopResult;
  catchUp: { listMs: number; deliveryMs: number } | null;
  cpu: CpuSplit;
}

export async function benchCommands({ databaseUrl }: { databaseUrl: string }): Promise<string> {
  const url = withDatabase(databaseUrl, 'claims_bench_commands');
  const pgbenchUrl = withDatabase(databaseUrl, 'claims_bench_append');
  const perLevel = envNumber('BENCH_COMMANDS_PER_LEVEL', 2000);
  const rates = (process.env.BENCH_LAG_RATES ?? '100,200,500,1000').split(',').map(Number);
  const lagSeconds = envNumber('BENCH_LAG_SECONDS', 10);
  const pgbenchSeconds = envNumber('BENCH_PGBENCH_SECONDS', 10);
  const machine = await machineInfo(url);
  const kafka = process.env.KAFKA_BROKERS ?? '';
  await recreateDatabase(url);
  await recreateDatabase(pgbenchUrl);
  const runId = Date.now().toString(36);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'commands-bench-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: url,
    KAFKA_BROKERS: kafka,
    KAFKA_TOPIC: `bench.commands.${runId}`,
    KAFKA_GROUP_PREFIX: `bench-${runId}`,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...loadedServerEnv,
  };
  const receiver = await startReceiver();
  const levels: LevelRow[] = [];
  const lags: LagResult[] = [];
  let api = await startApi(env, { seed: true });
  const watch = await startWatch(url, receiver.deliveries);
  try {
    const { token } = await setUp(api.base);
    await webhookOnFiling(api.base, token, receiver.url);
    const lagCounts = rates.map((r) => Math.round(r * lagSeconds));
    // FileClaim per level, API_PROCESSES=2, the profile and WORKERS=none.
    const total = perLevel * (LEVELS.length + 3) + lagCounts.reduce((a, b) => a + b, 0);
    const numbers = Array.from({ length: total }, (_, i) => `${runId}${String(i).padStart(7, '0')}`);
    log(`creating ${fmtInt(total)} orders (untimed)`);
    await createOrders(api.base, token, numbers);
    let used = 0;
    const take = (n: number) => numbers.slice(used, (used += n));

    /** A burst of filings, then the wait until every one is listed and delivered. */
    const fileClaims = async (kind: LevelRow['kind'], clients: number, readModels = true) => {
      log(`${kind} at ${clients} clients`);
      const cpu = startCpuSplit(api.pid);
      const result = await closedLoop(
        take(perLevel),
        clients,
        (n) => call(api.base, 'POST', `/api/claims/bench-${n}`, { body: filingBody(n) }),
        (status) => status === 201,
      );
      const split = cpu();
      const claims = result.answers.filter(Boolean).map((body) => FileClaimResponse.parse(JSON.parse(body)));
      if (readModels) for (const c of claims) watch.expect(c.claimId);
      const catchUp = readModels
        ? await caughtUp(
            watch,
            claims.map((c) => c.claimId),
            performance.now(),
          )
        : null;
      levels.push({ kind, clients, result, catchUp, cpu: split });
      return claims;
    };
    const filed: { claimId: string; token: string }[][] = [];
    for (const clients of LEVELS) filed.push(await fileClaims('FileClaim', clients));
    for (const [i, clients] of LEVELS.entries()) {
      log(`SendMessage at ${clients} clients`);
      const cpu = startCpuSplit(api.pid);
      const result = await closedLoop(
        filed[i]!,
        clients,
        (c) =>
          call(api.base, 'POST', `/api/claims/${c.token}/messages`, { body: { messageContent: 'Any news on this?' } }),
        (status) => status === 201,
      );
      levels.push({ kind: 'SendMessage', clients, result, catchUp: null, cpu: cpu() });
    }
    for (const [i, clients] of LEVELS.entries()) {
      log(`ResolveClaim at ${clients} clients`);
      const cpu = startCpuSplit(api.pid);
      const result = await closedLoop(
        filed[i]!,
        clients,
        (c) =>
          call(api.base, 'POST', `/api/v1/claims/${c.claimId}/resolve`, {
            body: { resolutionType: 'REFUND', reason: 'REFUND' },
            token,
          }),
        (status) => status === 200,
      );
      levels.push({ kind: 'ResolveClaim', clients, result, catchUp: null, cpu: cpu() });
    }
    for (const [i, rate] of rates.entries()) {
      log(`lag at ${rate} claims/s for ${lagSeconds} s`);
      lags.push(await lagAt(api.base, rate, lagSeconds, take(lagCounts[i]!), watch, api.pid));
    }

    log('pgbench and Node appends');
    const event = await realisticEvent(url, 'ClaimFiled');
    const migrated = await openDatabase({ databaseUrl: pgbenchUrl, dataDir: os.tmpdir(), poolSize: 2 });
    await migrate(migrated, eventStoreMigrations);
    await migrated.close();
    const script = pgbenchScript(event);
    const database: Record<number, { pgbench: number; node: number }> = {};
    for (const clients of LEVELS) {
      database[clients] = {
        pgbench: runPgbench(pgbenchUrl, script, clients, pgbenchSeconds),
        node: await nodeAppendRate(pgbenchUrl, event, clients, pgbenchSeconds),
      };
    }

    await api.stop();
    api = await startApi({ ...env, API_PROCESSES: '2' }, { seed: false });
    await fileClaims('FileClaim, API_PROCESSES=2', 32);

    log('CPU profile of FileClaim at 32 clients');
    await api.stop();
    const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'commands-profile-'));
    api = await startApi(env, { seed: false, cpuProfileDir: profileDir });
    const profiled = await closedLoop(
      take(perLevel),
      32,
      (n) => call(api.base, 'POST', `/api/claims/bench-${n}`, { body: filingBody(n) }),
      (status) => status === 201,
    );
    await api.stop();
    const profileFile = fs.readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
    const profileText = profileFile ? fs.readFileSync(path.join(profileDir, profileFile), 'utf8') : null;
    const top = profileText ? topFunctions(JSON.parse(profileText) as CpuProfile, 10) : [];
    // The whole profile, for a flame graph (Chrome's DevTools, speedscope): the summary keeps only its top ten.
    const profileSaved = profileText ? writeRawResult('commands', 'filing-api.cpuprofile', profileText) : null;

    // The command path alone (no relay, projections, reactions or delivery anywhere): what filing costs without the
    // work that follows each commit on the same two cores. Last, since nothing catches these claims up.
    api = await startApi({ ...env, WORKERS: 'none' }, { seed: false });
    await fileClaims('FileClaim, WORKERS=none', 32, false);

    return report({
      loadAverage: machine.loadAverage,
      cpus: machine.nproc,
      kafka,
      perLevel,
      levels,
      lags,
      database,
      top,
      profiled,
      profileSaved,
      lagSeconds,
      pgbenchSeconds,
    });
  } finally {
    await watch.stop();
    await api.stop().catch(() => undefined);
    await receiver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    log(`databases ${databaseName(url)} and ${databaseName(pgbenchUrl)} left for inspection`);
  }
}

function report(r: {
  loadAverage: number;
  cpus: number;
  kafka: string;
  perLevel: number;
  levels: LevelRow[];
  lags: LagResult[];
  database: Record<number, { pgbench: number; node: number }>;
  top: ReturnType<typeof topFunctions>;
  profiled: LoopResult;
  profileSaved: string | null;
  lagSeconds: number;
  pgbenchSeconds: number;
}): string {
  const rate = (row: LoopResult) => row.ok / row.seconds;
  const lines = [
    '## Commands over HTTP',
    '',
    ...(r.loadAverage > r.cpus
      ? [
          `**The machine was busy** (load average ${r.loadAverage.toFixed(1)} on ${r.cpus} CPUs when the run started): other work shared the CPUs and this PostgreSQL server (its CPU share below includes other databases), so these figures understate the service alone; the ratios compare figures of the same run.`,
          '',
        ]
      : []),
    `The API runs as \`npm start\` runs it: one process serving HTTP with the relay, the projections and webhook delivery in it, ${r.kafka ? `through Kafka at ${r.kafka}` : 'following the event store (no Kafka)'}, rate limits off. Each command kind runs ${fmtInt(r.perLevel)} times per level from closed-loop clients in the bench process (each sends its next request when its last answer came), on fresh orders created beforehand. The same run measures pgbench running the event store's own one-event append statement (\`appendStatementText('new', false)\`, a new stream per append, the payload of a real ClaimFiled event) for ${r.pgbenchSeconds} s, and the store's \`appendToStream\` from Node: the ratios are of the same clients' count. The \`WORKERS=none\` row runs the API with no background worker at all (nothing relays, projects, mails or delivers those claims): the command path's own cost, against the row with everything that follows a commit sharing the same cores.`,
    '',
    '| command | clients | per second | p50 ms | p99 ms | errors | ratio to pgbench | ratio to Node append | read models caught up after (list / webhook) | CPU: API | PostgreSQL | Kafka | bench | other |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...r.levels.map((l) => {
      const db = r.database[l.clients]!;
      return `| ${l.kind} | ${l.clients} | ${fmtInt(rate(l.result))} | ${fmtMs(percentile(l.result.latencies, 50))} | ${fmtMs(percentile(l.result.latencies, 99))} | ${l.result.errors}${l.result.firstError ? ` (${l.result.firstError.replace(/\|/g, '/')})` : ''} | ${(rate(l.result) / db.pgbench).toFixed(3)} | ${(rate(l.result) / db.node).toFixed(3)} | ${l.catchUp ? `${fmtInt(l.catchUp.listMs)} / ${fmtInt(l.catchUp.deliveryMs)} ms` : '—'} | ${cpuCells(l.cpu)} |`;
    }),
    '',
    '| the database alone | 8 clients | 32 clients |',
    '|---|---|---|',
    `| pgbench, append statement (appends/s) | ${fmtInt(r.database[8]!.pgbench)} | ${fmtInt(r.database[32]!.pgbench)} |`,
    `| Node \`appendToStream\`, one event (appends/s) | ${fmtInt(r.database[8]!.node)} | ${fmtInt(r.database[32]!.node)} |`,
    '',
    `Lag from a filing's 201 to its row in the claim list and to its \`claim.filed\` webhook arriving at a receiver in the bench process, filings sent at a steady rate for ${r.lagSeconds} s (open loop, at most 512 in flight; the claim list is polled every 5 ms, so list figures carry up to that much more). "Caught up" is the time from the last filing's answer until every row and every delivery was there.`,
    '',
    '| asked rate | achieved | filed | list p50 ms | list p99 ms | webhook p50 ms | webhook p99 ms | caught up (list / webhook) | errors | CPU: API | PostgreSQL | Kafka | bench | other |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...r.lags.map(
      (l) =>
        `| ${l.rate}/s | ${fmtInt(l.achieved)}/s | ${fmtInt(l.filed)} | ${fmtMs(percentile(l.list, 50))} | ${fmtMs(percentile(l.list, 99))} | ${fmtMs(percentile(l.delivery, 50))} | ${fmtMs(percentile(l.delivery, 99))} | ${fmtInt(l.catchUp.listMs)} / ${fmtInt(l.catchUp.deliveryMs)} ms | ${l.errors} | ${cpuCells(l.cpu)} |`,
    ),
    '',
    `The ten functions with the most self time in a V8 CPU profile (\`node --cpu-prof\`) of the API process while ${fmtInt(r.profiled.ok)} filings ran at 32 clients (${fmtInt(rate(r.profiled))}/s; the process's start-up is in the profile too), as shares of its busy (non-idle) time:`,
    '',
    '| function | where | share of busy time |',
    '|---|---|---|',
    ...r.top.map((t) => `| \`${t.name}\` | ${t.where} | ${(t.share * 100).toFixed(1)}% |`),
    '',
    r.profileSaved
      ? `The whole profile: \`${r.profileSaved}\` (written by the run, not committed; open it in Chrome's DevTools or speedscope).`
      : 'No profile was written.',
  ];
  return lines.join('\n');
}
