/**
 * Counts the PostgreSQL round trips of each command over HTTP, and the API process's CPU per command.
 *
 * The API runs in this process without its background workers (an API-only process, as `WORKERS` splits them
 * off), on a fresh database with the demo seeded and rate limits off. Requests go through Fastify's `inject`
 * one at a time, and `pg.Client#query` is wrapped to count every statement sent (a named statement counts once
 * per call like any other): with no workers, each is the request's own. CPU is this process's user+system time.
 *
 * Usage: npx tsx bench/experiments/commandRoundTrips.ts   (BENCH_COMMANDS=200 per kind; BENCH_DATABASE_URL or
 * DATABASE_URL's server with the database `claims_round_trips`, dropped and recreated).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { statementLabel } from './statementLabel.js';
import { FileClaimResponse } from '@claims/contracts';
import { loadConfig, startRuntime } from '../../services/api/src/index.js';
import { filingBody, orderBody } from '../../test/support/orderBody.js';
import { benchDatabaseUrl, recreateDatabase, withDatabase } from '../postgres.js';
import { loadedServerEnv } from '../loadedServerEnv.js';

const perKind = Number(process.env.BENCH_COMMANDS ?? 200);
const url = withDatabase(benchDatabaseUrl(), 'claims_round_trips');

interface Tally {
  calls: number;
  byStatement: Map<string, number>;
}
const newTally = (): Tally => ({ calls: 0, byStatement: new Map() });
let counting = newTally();

const labelOf = (config: unknown) => statementLabel(config, 60);

const originalQuery = pg.Client.prototype.query;
// Wrapped once for the process: every pool's clients (the app's and the workers') go through it.
pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]) {
  const tally = counting;
  tally.calls++;
  const label = labelOf(args[0]);
  tally.byStatement.set(label, (tally.byStatement.get(label) ?? 0) + 1);
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

await recreateDatabase(url);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'round-trips-'));
const runtime = await startRuntime(
  loadConfig({
    ...process.env,
    DATABASE_URL: url,
    KAFKA_BROKERS: '',
    DATA_DIR: dataDir,
    SEED_DEMO: 'true',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    ...loadedServerEnv,
  }),
  { listen: false, workers: false },
);

async function call(
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  options: { body?: unknown; token?: string; cookie?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie) Object.assign(headers, { cookie: options.cookie, origin: 'http://localhost' });
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await runtime.app.inject({
    method,
    url,
    headers,
    ...(options.body === undefined ? {} : { payload: JSON.stringify(options.body) }),
  });
  return { status: response.statusCode, body: response.body, headers: response.headers };
}

const login = await call('POST', '/api/auth/login', { body: { email: 'owner@acme.test', password: 'demo-pass-1234' } });
const cookie = String(login.headers['set-cookie']).split(';')[0]!;
const storeId = (JSON.parse((await call('GET', '/api/whitelabel/settings?store=acme')).body) as { storeId: string })
  .storeId;
const token = (
  JSON.parse(
    (
      await call('POST', `/api/stores/${storeId}/api-tokens`, {
        cookie,
        body: { name: 'round trips', permissions: ['order:create', 'claim:read', 'claim:resolve'] },
      })
    ).body,
  ) as { token: string }
).token;
const runId = Date.now().toString(36);
const numbers = Array.from({ length: perKind }, (_, i) => `${runId}${String(i).padStart(5, '0')}`);
for (const n of numbers) {
  const put = await call('PUT', `/api/v1/orders/rt-${n}`, { body: orderBody(n), token });
  if (put.status !== 201) throw new Error(`creating order ${n} answered ${put.status}: ${put.body}`);
}

interface Phase {
  kind: string;
  request: Tally;
  cpuUs: number;
  wallMs: number;
}

/** Runs one request per job, one at a time, counting what they send. */
async function phase<J>(
  kind: string,
  jobs: readonly J[],
  send: (job: J) => Promise<{ status: number; body: string }>,
  ok: number,
): Promise<{ phase: Phase; bodies: string[] }> {
  const request = newTally();
  counting = request;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const bodies: string[] = [];
  for (const job of jobs) {
    const answer = await send(job);
    if (answer.status !== ok) throw new Error(`${kind} answered ${answer.status}: ${answer.body}`);
    bodies.push(answer.body);
  }
  const used = process.cpuUsage(cpu);
  counting = newTally();
  return { phase: { kind, request, cpuUs: used.user + used.system, wallMs: performance.now() - started }, bodies };
}

const phases: Phase[] = [];
const filed = await phase(
  'FileClaim',
  numbers,
  (n) => call('POST', `/api/claims/rt-${n}`, { body: filingBody(n) }),
  201,
);
phases.push(filed.phase);
const claims = filed.bodies.map((b) => FileClaimResponse.parse(JSON.parse(b)));
phases.push(
  (
    await phase(
      'SendMessage',
      claims,
      (c) => call('POST', `/api/claims/${c.token}/messages`, { body: { messageContent: 'Any news on this?' } }),
      201,
    )
  ).phase,
);
phases.push(
  (
    await phase(
      'ResolveClaim',
      claims,
      (c) =>
        call('POST', `/api/v1/claims/${c.claimId}/resolve`, {
          body: { resolutionType: 'REFUND', reason: 'REFUND' },
          token,
        }),
      200,
    )
  ).phase,
);

await runtime.stop();
fs.rmSync(dataDir, { recursive: true, force: true });

const per = (n: number) => (n / perKind).toFixed(2);
const lines = [
  `${perKind} commands per kind, one at a time, in-process without background workers. Load average at the end: ${os.loadavg()[0]!.toFixed(2)}.`,
  '',
  '| command | round trips per request | CPU per command (µs) | wall per command (ms) |',
  '|---|---:|---:|---:|',
  ...phases.map(
    (p) =>
      `| ${p.kind} | ${per(p.request.calls)} | ${Math.round(p.cpuUs / perKind)} | ${(p.wallMs / perKind).toFixed(2)} |`,
  ),
  '',
];
for (const p of phases) {
  lines.push(`${p.kind}, statements in the request (per command):`, '');
  for (const [label, count] of [...p.request.byStatement].sort((a, b) => b[1] - a[1]))
    lines.push(`- ${per(count)} × \`${label}\``);
  lines.push('');
}
console.log(lines.join('\n'));
