/**
 * Where the CPU of one filed claim goes, per role, and what ceiling that puts on filings per second on this machine.
 *
 * The API runs as an HTTP-only process (`WORKERS=none`) and every background worker in a process of its own
 * (`npm run worker` with `WORKERS=relay`, `projectors`, `reactions` — mail and the other after-commit reactions —
 * and `delivery,timers`), each connecting to PostgreSQL under an application_name of its own, so that
 * pg_stat_activity tells which backend serves which role. Claims are filed at a steady, moderate rate (open loop,
 * EXP_RATE per second for EXP_SECONDS) until every one is in the claim list and its `claim.filed` webhook arrived;
 * the user + system CPU time (/proc/<pid>/stat) each process used meanwhile, less what it uses idle (measured over a
 * quiet window first), divided by the claims filed, is its CPU per claim. PostgreSQL's shared processes (WAL writer,
 * checkpointer, postmaster) and Kafka's broker serve other sessions too: their idle subtraction is what keeps them
 * near this run's share.
 *
 * Then, for what is achieved: FileClaim at 32 closed-loop clients with the workers running, and with none.
 * Last, the floor: a bare Fastify route (this file with EXP_ROLE=floor, in a process of its own) sending the same
 * statements as FileClaim — filing target, claim number, ledger read, and the two appends in one transaction,
 * with the payloads of a real filing — and nothing else (no schema, no decider, no workers): what HTTP, pg and
 * PostgreSQL alone cost per command, at the same steady rate and at 32 clients.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/claims KAFKA_BROKERS=127.0.0.1:9092 \
 *     EXP_RATE=40 EXP_SECONDS=30 npx tsx bench/experiments/commandCeiling.ts
 *
 * EXP_CHECKOUT runs another working tree's API and workers (an A/B against another branch in the same harness; the
 * floor is this file's). EXP_BURST (1000 filings per closed-loop run), EXP_DATABASE (claims_exp_command_ceiling: dropped and recreated),
 * EXP_COUNT=1 (each worker's statements per claim, by statementCounter.ts), EXP_PROFILE=1 (each process under `--cpu-prof`, the steady phase only, then the top functions of each: the
 * profiler's own cost inflates the CPU figures of that run, so profile in a run of its own).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify from 'fastify';
import pg from 'pg';
import type { EventMetadata } from '@claims/contracts';
import { appendToStreams, NO_STREAM, openDatabase, queryNamed, readStream } from '@claims/event-store';
import { FILING_TARGET, nextClaimNumber } from '../../services/api/src/catalog/orderRepository.js';
import { readProcTicks } from '../cpuSampler.js';
import {
  call,
  caughtUp,
  closedLoop,
  commandLineOf,
  createOrders,
  freePort,
  lagAt,
  setUp,
  startApi,
  startReceiver,
  startWatch,
  webhookOnFiling,
  topFunctions,
  type CpuProfile,
  type LoopResult,
  fileAtRate,
} from '../commandsBench.js';
import { filingBody } from '../../test/support/orderBody.js';
import { recreateDatabase, withDatabase } from '../postgres.js';
import { percentile } from '../stats.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const root = path.resolve(import.meta.dirname, '../..');
/** Linux clock ticks per second (`getconf CLK_TCK`): /proc/<pid>/stat counts CPU time in them. */
const TICK_US = 1_000_000 / 100;
const WORKER_ROLES = {
  relay: 'relay',
  projectors: 'projectors',
  reactions: 'reactions',
  delivery: 'delivery,timers',
} as const;

interface EventTemplate {
  streamType: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

interface FloorTemplate {
  ledger: EventTemplate;
  claim: EventTemplate;
}

// ---------------------------------------------------------------------------------------------------------------
// The floor: FileClaim's statements behind a bare route.

async function serveFloor(): Promise<void> {
  const template = JSON.parse(process.env.EXP_TEMPLATE!) as FloorTemplate;
  const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: os.tmpdir() });
  const app = Fastify();
  const newEvent = (t: EventTemplate) => ({ eventId: randomUUID(), type: t.type, data: t.data, metadata: t.metadata });
  app.get('/api/health', async () => ({ ok: true }));
  app.post<{ Params: { id: string }; Body: { email: string } }>('/api/claims/:id', async (request, reply) => {
    const [target] = await queryNamed<{ id: string; doc: { id: string } }>(
      database.db,
      'filing_target',
      FILING_TARGET,
      [request.params.id, request.body.email.trim().toLowerCase()],
    );
    if (!target) return reply.code(404).send({ error: 'order_not_found' });
    const claimNumber = await nextClaimNumber(database.db);
    const ledger = await readStream(database.db, target.doc.id);
    const claimId = randomUUID();
    const [result] = await appendToStreams(database.db, [
      {
        streamId: target.doc.id,
        streamType: template.ledger.streamType,
        storeId: target.id,
        expectedVersion: ledger.version,
        events: [newEvent(template.ledger)],
      },
      {
        streamId: claimId,
        streamType: template.claim.streamType,
        storeId: target.id,
        expectedVersion: NO_STREAM,
        events: [newEvent(template.claim)],
      },
    ]);
    if (!result?.ok) return reply.code(409).send({ error: 'version_conflict' });
    return reply.code(201).send({ claimId, token: claimId, claimNumber });
  });
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  const stop = () =>
    void app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0));
  process.once('SIGTERM', stop);
}

// ---------------------------------------------------------------------------------------------------------------
// CPU per role: every process of the run, PostgreSQL's backends by their application_name.

interface Child {
  role: string;
  pid: number;
  /** Where its statement counts go (EXP_COUNT=1). */
  countFile?: string;
  stop(): Promise<void>;
}

function startChild(
  role: string,
  args: readonly string[],
  childEnv: NodeJS.ProcessEnv,
  profileDir: string | null,
  cwd = root,
  countFile?: string,
): Child {
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profileDir, role)}`] : [];
  const counter = countFile ? ['--import', path.join(import.meta.dirname, 'statementCounter.ts')] : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, '--import', 'tsx', ...counter, ...args], {
    cwd,
    env: { ...childEnv, EXP_COUNT_FILE: countFile },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    role,
    pid: child.pid!,
    ...(countFile ? { countFile } : {}),
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

type Ticks = Map<string, { role: string; ticks: number }>;

const POSTGRES_SHARED = 'PostgreSQL: shared (postmaster, WAL writer, checkpointer…)';
const APP_PREFIX = 'ceiling_';

/**
 * Every process of interest with its role and CPU ticks so far; other databases' backends (autovacuum workers
 * included) and other programs are left out.
 */
async function snapshot(meter: pg.Client, database: string, children: readonly Child[]): Promise<Ticks> {
  const { rows } = await meter.query<{
    pid: number;
    datname: string | null;
    application_name: string;
    backend_type: string;
  }>('select pid, datname, application_name, backend_type from pg_stat_activity');
  const backends = new Map<number, string | null>();
  for (const row of rows) {
    if (row.datname === database) {
      backends.set(
        row.pid,
        row.application_name.startsWith(APP_PREFIX)
          ? `PostgreSQL: ${row.application_name.slice(APP_PREFIX.length)}`
          : 'PostgreSQL: other (this database)',
      );
    } else
      backends.set(row.pid, row.datname === null && row.backend_type !== 'client backend' ? POSTGRES_SHARED : null);
  }
  const byPid = new Map(children.map((c) => [c.pid, c.role]));
  const ticks: Ticks = new Map();
  for (const { pid, comm, ticks: t } of readProcTicks().processes) {
    const n = Number(pid);
    const role =
      byPid.get(n) ??
      (n === process.pid
        ? 'load generator (this process)'
        : comm === 'postgres'
          ? backends.has(n)
            ? backends.get(n)!
            : POSTGRES_SHARED
          : comm === 'java' && commandLineOf(pid).includes('kafka')
            ? 'Kafka broker'
            : null);
    if (role) ticks.set(pid, { role, ticks: t });
  }
  return ticks;
}

/** Ticks per role between two snapshots; a process born in between counts from zero. */
function between(start: Ticks, end: Ticks): Map<string, number> {
  const roles = new Map<string, number>();
  for (const [pid, { role, ticks }] of end)
    roles.set(role, (roles.get(role) ?? 0) + ticks - (start.get(pid)?.ticks ?? 0));
  return roles;
}

interface Window {
  seconds: number;
  ticks: Map<string, number>;
}

/**
 * CPU ticks per role while `run` runs. Snapshots every half second keep each process's last figure, so a pooled
 * connection closed during the window (idle for 10 s) still counts up to its last half second.
 */
async function measure<T>(
  meter: pg.Client,
  database: string,
  children: () => readonly Child[],
  run: () => Promise<T>,
): Promise<{ result: T; window: Window }> {
  const start = await snapshot(meter, database, children());
  const last: Ticks = new Map(start);
  const keep = (ticks: Ticks) => {
    for (const [pid, entry] of ticks) last.set(pid, entry);
  };
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      await sleep(500);
      keep(await snapshot(meter, database, children()));
    }
  })();
  const t0 = performance.now();
  const result = await run();
  const seconds = (performance.now() - t0) / 1000;
  sampling = false;
  await sampler;
  keep(await snapshot(meter, database, children()));
  return { result, window: { seconds, ticks: between(start, last) } };
}

/** µs of CPU per claim per role: the window's ticks less what the role uses idle over as long. */
function perClaim(load: Window, idle: Window, claims: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const [role, ticks] of load.ticks) {
    const idlePerSecond = (idle.ticks.get(role) ?? 0) / idle.seconds;
    out.set(role, Math.max(0, ((ticks - idlePerSecond * load.seconds) * TICK_US) / claims));
  }
  return out;
}

/**
 * Waits until each process of the run is quiet (under 5% of a core over 2 s: their polls alone stay below that),
 * so whatever came before is handled; at most 30 s (a profiled process may never get that quiet).
 */
async function quiet(children: readonly Child[]): Promise<void> {
  const ticksOf = () => {
    const pids = new Set(children.map((c) => String(c.pid)));
    return new Map(
      readProcTicks()
        .processes.filter((p) => pids.has(p.pid))
        .map((p) => [p.pid, p.ticks]),
    );
  };
  for (let before = ticksOf(), deadline = Date.now() + 30_000; Date.now() < deadline;) {
    await sleep(2_000);
    const now = ticksOf();
    if ([...now].every(([pid, ticks]) => ticks - (before.get(pid) ?? 0) < 10)) return;
    before = now;
  }
}

/** Each counted process's statement counts so far, by role (statementCounter.ts writes them on SIGUSR2). */
async function statementCounts(children: readonly Child[]): Promise<Map<string, Map<string, number>>> {
  const counted = children.filter((c) => c.countFile);
  for (const c of counted) process.kill(c.pid, 'SIGUSR2');
  await sleep(500);
  return new Map(
    counted.map((c) => [
      c.role,
      new Map(Object.entries(JSON.parse(fs.readFileSync(c.countFile!, 'utf8')) as Record<string, number>)),
    ]),
  );
}

/** Filings sent at a steady rate (open loop, at most 512 in flight) to a route answering FileClaim's 201. */
async function openLoop(
  base: string,
  rate: number,
  numbers: readonly string[],
): Promise<{ ok: number; errors: number; seconds: number; latencies: number[] }> {
  const latencies: number[] = [];
  const { errors, seconds } = await fileAtRate(base, rate, numbers, (_claimId, _at, latencyMs) =>
    latencies.push(latencyMs),
  );
  return { ok: latencies.length, errors, seconds, latencies: latencies.sort((a, b) => a - b) };
}

// ---------------------------------------------------------------------------------------------------------------

/** The load generator's own: this process, and the backend its claim-list watch polls through. */
const isService = (role: string) =>
  role !== 'load generator (this process)' && role !== 'PostgreSQL: watch' && role !== 'PostgreSQL: meter';

function table(title: string, costs: Map<string, number>): { lines: string[]; service: number; all: number } {
  const service = [...costs].filter(([role]) => isService(role)).reduce((sum, [, us]) => sum + us, 0);
  const all = [...costs].filter(([role]) => role !== 'PostgreSQL: meter').reduce((sum, [, us]) => sum + us, 0);
  const lines = [
    `| ${title} | µs CPU per claim | share of the service's |`,
    '|---|---:|---:|',
    ...[...costs]
      .filter(([role]) => role !== 'PostgreSQL: meter')
      .sort((a, b) => b[1] - a[1])
      .map(
        ([role, us]) =>
          `| ${role} | ${Math.round(us).toLocaleString('en-US')} | ${isService(role) ? `${((us / service) * 100).toFixed(1)}%` : '—'} |`,
      ),
    `| **service total** (all but the load generator) | **${Math.round(service).toLocaleString('en-US')}** | 100% |`,
  ];
  return { lines, service, all };
}

const rateOf = (r: LoopResult) => r.ok / r.seconds;
const loopLine = (what: string, r: LoopResult) =>
  `${what}: ${rateOf(r).toFixed(0)}/s, p50 ${percentile(r.latencies, 50).toFixed(0)} ms, p99 ${percentile(r.latencies, 99).toFixed(0)} ms, ${r.errors} errors${r.firstError ? ` (${r.firstError})` : ''}`;

/** The whole machine's busy share per role during a window (1 = both cores). */
function shares(window: Window): string {
  const total = os.cpus().length * window.seconds * 100;
  return [...window.ticks]
    .filter(([, t]) => t / total >= 0.01)
    .sort((a, b) => b[1] - a[1])
    .map(([role, t]) => `${role} ${((t / total) * 100).toFixed(0)}%`)
    .join(', ');
}

async function main(): Promise<void> {
  const rate = env('EXP_RATE', 40);
  const seconds = env('EXP_SECONDS', 30);
  const burst = env('EXP_BURST', 1000);
  const profiling = process.env.EXP_PROFILE === '1';
  const checkout = path.resolve(process.env.EXP_CHECKOUT ?? root);
  const counting = process.env.EXP_COUNT === '1';
  const databaseName = process.env.EXP_DATABASE ?? 'claims_exp_command_ceiling';
  const databaseUrl = withDatabase(
    process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    databaseName,
  );
  const as = (name: string) => {
    const url = new URL(databaseUrl);
    url.searchParams.set('application_name', `${APP_PREFIX}${name}`);
    return url.toString();
  };
  await recreateDatabase(databaseUrl);
  const runId = Date.now().toString(36);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'command-ceiling-'));
  const profileDir = profiling ? fs.mkdtempSync(path.join(os.tmpdir(), 'command-ceiling-profile-')) : null;
  const shared: NodeJS.ProcessEnv = {
    ...process.env,
    KAFKA_TOPIC: `exp.ceiling.${runId}`,
    KAFKA_GROUP_PREFIX: `exp-ceiling-${runId}`,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ENABLED: 'false',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    SENTRY_DSN: '',
    SMTP_URL: '',
    METRICS_TOKEN: '',
    DEMO_FIXTURE: path.join(checkout, 'fixtures/demo.json'),
  };
  const meter = new pg.Client({ connectionString: as('meter') });
  await meter.connect();
  const receiver = await startReceiver();
  const watch = await startWatch(as('watch'), receiver.deliveries);
  const children: Child[] = [];
  /** Ten seconds of the system at rest once it has quietened: the baseline a load's cost is counted above. */
  const idleWindow = async () => {
    await quiet(children);
    return (
      await measure(
        meter,
        databaseName,
        () => children,
        () => sleep(10_000),
      )
    ).window;
  };
  const stopAll = async () => {
    await Promise.all(children.map((c) => c.stop()));
    children.length = 0;
  };
  const report: string[] = [
    `${checkout}, load average at the start ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}`,
  ];
  try {
    const api = await startApi(
      { ...shared, DATABASE_URL: as('api'), WORKERS: 'none' },
      { seed: true, checkout, ...(profileDir ? { cpuProfileDir: path.join(profileDir, 'api') } : {}) },
    );
    children.push({ role: 'API (WORKERS=none)', pid: api.pid, stop: () => api.stop() });
    // The workers run as in production (React's production build renders the mail): they neither seed nor serve
    // HTTP, the two things the bench's settings need development for.
    const workerEnv = {
      ...shared,
      NODE_ENV: 'production',
      RATE_LIMIT_ENABLED: 'true',
      SEED_DEMO: 'false',
      PUBLIC_URL: 'https://claims.bench.test',
      METRICS_TOKEN: 'metrics-token-of-the-bench',
    };
    for (const [role, workers] of Object.entries(WORKER_ROLES)) {
      const countFile = counting ? path.join(dataDir, `${role}.counts.json`) : undefined;
      children.push(
        startChild(
          `worker: ${role}`,
          ['services/api/src/ops/workerMain.ts'],
          { ...workerEnv, DATABASE_URL: as(role), WORKERS: workers },
          profileDir,
          checkout,
          countFile,
        ),
      );
    }
    const { token } = await setUp(api.base);
    await webhookOnFiling(api.base, token, receiver.url);
    const warm = 100;
    const steady = Math.round(rate * seconds);
    const numbers = Array.from(
      { length: profiling ? warm + steady : 2 * (warm + steady) + 3 * burst },
      (_, i) => `${runId}${String(i).padStart(7, '0')}`,
    );
    let used = 0;
    const take = (n: number) => numbers.slice(used, (used += n));
    process.stderr.write(`ceiling: creating ${numbers.length} orders\n`);
    await createOrders(api.base, token, numbers);

    // Warm-up (JIT, prepared statements, pools, consumers), then the quiet baseline, then the steady rate.
    await lagAt(api.base, rate, warm / rate, take(warm), watch, api.pid);
    const idle = await idleWindow();
    process.stderr.write(`ceiling: ${steady} filings at ${rate}/s\n`);
    const countsBefore = await statementCounts(children);
    const { result: lag, window: load } = await measure(
      meter,
      databaseName,
      () => children,
      async () => {
        const result = await lagAt(api.base, rate, seconds, take(steady), watch, api.pid);
        // The mails and what they append settle a little after the last webhook.
        await quiet(children);
        return result;
      },
    );
    const costs = table(
      `role (${lag.filed} claims at ${rate}/s, achieved ${lag.achieved.toFixed(0)}/s)`,
      perClaim(load, idle, lag.filed),
    );
    report.push(
      '',
      ...costs.lines,
      '',
      `ceiling on ${os.cpus().length} cores: ${((os.cpus().length * 1_000_000) / costs.service).toFixed(0)} claims/s for the service alone, ${((os.cpus().length * 1_000_000) / costs.all).toFixed(0)}/s with the load generator beside it`,
      `lag at ${rate}/s: list p50 ${percentile(lag.list, 50).toFixed(0)} / p99 ${percentile(lag.list, 99).toFixed(0)} ms, webhook p50 ${percentile(lag.delivery, 50).toFixed(0)} / p99 ${percentile(lag.delivery, 99).toFixed(0)} ms; load average ${os.loadavg()[0]!.toFixed(1)}`,
    );

    for (const [role, after] of await statementCounts(children)) {
      const before = countsBefore.get(role) ?? new Map<string, number>();
      const per = [...after]
        .map(([label, n]) => [label, (n - (before.get(label) ?? 0)) / lag.filed] as const)
        .filter(([, n]) => n >= 0.05)
        .sort((a, b) => b[1] - a[1]);
      report.push(
        '',
        `${role}: ${per.reduce((sum, [, n]) => sum + n, 0).toFixed(1)} statements per claim: ${per
          .slice(0, 14)
          .map(([label, n]) => `${n.toFixed(2)} × ${label}`)
          .join('; ')}`,
      );
    }

    if (profileDir) {
      await stopAll();
      for (const role of fs.readdirSync(profileDir)) {
        const file = fs.readdirSync(path.join(profileDir, role)).find((f) => f.endsWith('.cpuprofile'));
        if (!file) continue;
        const top = topFunctions(
          JSON.parse(fs.readFileSync(path.join(profileDir, role, file), 'utf8')) as CpuProfile,
          12,
        );
        report.push(
          '',
          `${role}: ${top.map((t) => `${t.name} (${t.where}) ${(t.share * 100).toFixed(1)}%`).join('; ')}`,
        );
      }
      return;
    }

    if (burst > 0) {
      process.stderr.write('ceiling: bursts at 32 clients\n');
      const send = (n: string) => call(api.base, 'POST', `/api/claims/bench-${n}`, { body: filingBody(n) });
      const full = await measure(
        meter,
        databaseName,
        () => children,
        () => closedLoop(take(burst), 32, send, (s) => s === 201),
      );
      report.push(
        '',
        `${loopLine('FileClaim at 32 clients, API and the four workers', full.result)}; machine: ${shares(full.window)}`,
      );
      const filed = full.result.answers
        .filter(Boolean)
        .map((body) => (JSON.parse(body) as { claimId: string }).claimId);
      for (const id of filed) watch.expect(id);
      await caughtUp(watch, filed, performance.now());
      await Promise.all(children.filter((c) => c.role.startsWith('worker')).map((c) => c.stop()));
      children.splice(0, children.length, ...children.filter((c) => !c.role.startsWith('worker')));
      const alone = await measure(
        meter,
        databaseName,
        () => children,
        () => closedLoop(take(burst), 32, send, (s) => s === 201),
      );
      report.push(
        `${loopLine('FileClaim at 32 clients, WORKERS=none alone', alone.result)}; machine: ${shares(alone.window)}`,
      );
    }

    // The floor, with the payloads of the last real filing; nothing follows its appends (the workers are stopped).
    const { rows } = await meter.query<{ stream_type: string; type: string; data: unknown; metadata: EventMetadata }>(`
      select stream_type, type, data, metadata from events
      where transaction_id = (select transaction_id from events where type = 'ClaimFiled' order by global_position desc limit 1)`);
    const eventOf = (type: string): EventTemplate => {
      const row = rows.find((r) => r.type === type)!;
      return { streamType: row.stream_type, type: row.type, data: row.data, metadata: row.metadata };
    };
    await stopAll();
    const port = await freePort();
    const floorBase = `http://127.0.0.1:${port}`;
    children.push(
      startChild(
        'floor: bare route (same statements)',
        ['bench/experiments/commandCeiling.ts'],
        {
          ...shared,
          EXP_ROLE: 'floor',
          PORT: String(port),
          DATABASE_URL: as('floor'),
          EXP_TEMPLATE: JSON.stringify({ ledger: eventOf('OrderItemsClaimed'), claim: eventOf('ClaimFiled') }),
        },
        null,
      ),
    );
    while (
      !(await fetch(`${floorBase}/api/health`).then(
        (r) => r.ok,
        () => false,
      ))
    )
      await sleep(200);
    await openLoop(floorBase, rate, take(warm));
    const floorIdle = await idleWindow();
    const { result: floorSteady, window: floorLoad } = await measure(
      meter,
      databaseName,
      () => children,
      () => openLoop(floorBase, rate, take(steady)),
    );
    const floorCosts = table(
      `floor role (${floorSteady.ok} at ${rate}/s, ${floorSteady.errors} errors)`,
      perClaim(floorLoad, floorIdle, floorSteady.ok),
    );
    report.push(
      '',
      ...floorCosts.lines,
      '',
      `floor ceiling: ${((os.cpus().length * 1_000_000) / floorCosts.service).toFixed(0)} claims/s for the service alone, ${((os.cpus().length * 1_000_000) / floorCosts.all).toFixed(0)}/s with the load generator`,
    );
    if (burst > 0) {
      const floorBurst = await measure(
        meter,
        databaseName,
        () => children,
        () =>
          closedLoop(
            take(burst),
            32,
            (n) => call(floorBase, 'POST', `/api/claims/bench-${n}`, { body: filingBody(n) }),
            (s) => s === 201,
          ),
      );
      report.push(`${loopLine('floor at 32 clients', floorBurst.result)}; machine: ${shares(floorBurst.window)}`);
    }
    report.push(
      `load average at the end ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' / ')}`,
    );
  } finally {
    await stopAll();
    await watch.stop();
    await receiver.close();
    await meter.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
    console.log(report.join('\n'));
  }
}

if (process.env.EXP_ROLE === 'floor') await serveFloor();
else await main();
