/**
 * The claim desk at scale (`BENCH_SECTIONS=claim-desk npx tsx bench/run.ts`, or `npx tsx bench/claimDeskBench.ts`):
 *
 * 1. Generates BENCH_DESK_CLAIMS (1,000,000) claims by appending events through the event store (ClaimFiled in the
 *    contract's shape, one stream per claim, spread over the two demo stores and ~90 days; ~40% also get a
 *    ClaimStatusChanged), then builds the queue's read models (claim-list, claim-search, claim-assignment) with the
 *    projections' `rebuild()`.
 * 2. Starts the API in-process (workers off) and times `GET /api/admin/claims` over real HTTP as agent@acme.test:
 *    the first page, the first page with the status tabs' counts, a deep page (~200 pages in, following nextCursor),
 *    a filtered deep page (status=OPEN&type=DAMAGED&from=<60 days ago>), a rare filter, sorted by value and by the
 *    customer's last word (goal p99 < 50 ms), and searches by surname, by part of an email and with a typo (goal
 *    p99 < 100 ms). The same pages are replayed through queueClaims without HTTP, and each query's plan is
 *    EXPLAIN ANALYZEd.
 * 3. Times `POST /api/v1/claims/{id}/resolve` (REFUND) with an acme API token under 32 concurrent clients,
 *    each resolving claims nobody else touches.
 *
 * Runs on its own database `claims_bench_desk` on the benchmark server (see bench/postgres.ts), dropped and
 * recreated every run. Takes ~15 minutes on 2 vCPUs, most of it the projection rebuild.
 *
 * Env: BENCH_DESK_CLAIMS (1000000), BENCH_DESK_CLIENTS (32), BENCH_DESK_SECONDS (10), BENCH_DESK_WARMUP_SECONDS (2),
 * BENCH_DESK_SAMPLES (timed requests per list query, 300), BENCH_DESK_SKIP_PAGES (200), BENCH_DESK_TOKENS (API tokens
 * the resolving clients share, 1), BENCH_DESK_APPEND_MODE (stream | streams), BENCH_DESK_CLAIMS_PER_APPEND (250),
 * BENCH_DESK_APPEND_CONCURRENCY (4),
 * BENCH_DESK_INDEX (a `create index bench_... on claim_list ...` statement to try before measuring; indexes named
 * bench_* are dropped first), BENCH_DESK_REUSE=1 (measure the database the last run left, when it holds enough
 * claims: ~40 s instead of ~15 min; for trying indexes), BENCH_DESK_DATABASE (claims_bench_desk: another name keeps
 * two runs on one server apart).
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import {
  EVENT_SCHEMA_VERSIONS,
  type ClaimStatus,
  type ClaimType,
  type DomainEvent,
  type EventMetadata,
  type EventOf,
} from '@claims/contracts';
import { decideFileClaim, defaultCreditStore, initialOrderClaimsState, RESOLVABLE_STATUSES } from '@claims/domain';
import {
  appendToStream,
  appendToStreams,
  NO_STREAM,
  openDatabase,
  type EventStoreTables,
  type NewEvent,
  type StreamAppend,
} from '@claims/event-store';
import {
  claimAssignmentProjection,
  claimListProjection,
  claimSearchProjection,
  queueClaims,
  queueCounts,
  rebuild,
  type Projection,
  type QueueFilter,
  type RebuildProgress,
} from '@claims/projections';
import type { loadConfig } from '../services/api/src/index.js';
import { startRuntime, type Runtime } from '../services/api/src/index.js';
import { findOrderBySourceIdAndEmail } from '../services/api/src/catalog/orderRepository.js';
import { findStoreBySlugOrDomain } from '../services/api/src/catalog/storeRepository.js';
import { benchConfig } from './benchConfig.js';
import type { ClientJob, PagesResult, ResolveResult } from './claimDeskClient.js';
import { startCpuSample, type CpuShare } from './cpuSampler.js';
import { machineInfo, machineMarkdown } from './machine.js';
import { benchDatabaseUrl, checkpoint, databaseName, recreateDatabase, withDatabase } from './postgres.js';
import { fmtInt, fmtMs, percentile } from './stats.js';
import { pick, rng } from './seededRandom.js';
import { writeRawResult } from './rawResults.js';

const DAY_MS = 86_400_000;
const GOAL_MS = 50;
/** Searches read more than a page of the list: their goal is looser. */
const SEARCH_GOAL_MS = 100;
/** The queue's read models, rebuilt in this order. */
const QUEUE_PROJECTIONS: readonly Projection[] = [
  claimListProjection,
  claimSearchProjection,
  claimAssignmentProjection,
];

export interface ClaimDeskOptions {
  /** Any URL of the benchmark server: the section uses database `claims_bench_desk` on it. */
  url?: string;
  claims?: number;
  clients?: number;
  seconds?: number;
  warmupSeconds?: number;
  samples?: number;
  skipPages?: number;
  /** Claims per appendToStreams call (one transaction), and how many such calls run at once. */
  claimsPerAppend?: number;
  appendConcurrency?: number;
  appendMode?: AppendMode;
  /** API tokens the resolving clients share (client i uses token i mod n); 1 = every client sends the same token. */
  tokens?: number;
  /** An extra index to create before measuring (an experiment), e.g. from BENCH_DESK_INDEX. */
  extraIndex?: string | null;
}

const envNumber = (name: string): number | undefined => (process.env[name] ? Number(process.env[name]) : undefined);

/** The mix of the generated claims (weights). */
const CLAIM_TYPES: ReadonlyArray<readonly [ClaimType, number]> = [
  ['DAMAGED', 25],
  ['ORDER_DELIVERED_NOT_RECEIVED', 15],
  ['LOST', 12],
  ['DEFECTIVE_ITEM', 10],
  ['WRONG_ITEM', 10],
  ['MISSING_ITEM', 10],
  ['STOLEN', 6],
  ['LATE_SHIPPING', 5],
  ['TRACKING_NOT_MOVING', 4],
  ['PRODUCT_NOT_AS_DESCRIBED', 3],
];
/** ~40% of the claims moved on from NEW. */
const STATUS_CHANGE_SHARE = 0.4;
const MOVED_TO: ReadonlyArray<readonly [ClaimStatus, number]> = [
  ['OPEN', 40],
  ['WAITING_FOR_CUSTOMER', 15],
  ['COMMUNICATING', 10],
  ['WAITING_FOR_OP', 5],
  ['WAITING_FOR_BRAND', 5],
  ['CLOSED', 15],
  ['DISMISSED', 5],
  ['TEMPORARILY_DISMISSED', 5],
];
const STORE_SHARES = { acme: 0.6, kumo: 0.4 } as const;

type ClaimFiledData = EventOf<'ClaimFiled'>['data'];

interface StoreTemplate {
  slug: 'acme' | 'kumo';
  storeId: string;
  share: number;
  filed: ClaimFiledData;
}

/** A real ClaimFiled per demo store, decided by the domain on a demo order, that generated claims are varied from. */
async function storeTemplates(runtime: Runtime): Promise<StoreTemplate[]> {
  const db = runtime.ctx.database.db;
  const templates: StoreTemplate[] = [];
  for (const [slug, sourceOrderId, email, desiredMethod] of [
    ['acme', 'acme-5001', 'ava@example.com', 'REFUND'],
    ['kumo', 'kumo-9001', 'ivy@example.com', 'RESHIP'],
  ] as const) {
    const store = await findStoreBySlugOrDomain(db, { slug });
    const order = await findOrderBySourceIdAndEmail(db, sourceOrderId, email);
    if (!store || !order) throw new Error(`demo store ${slug} or order ${sourceOrderId} is missing`);
    const fulfillment = order.fulfillments[0]!;
    const line = fulfillment.items[0]!;
    const decision = decideFileClaim(
      {
        type: 'FileClaim',
        claimId: randomUUID(),
        claimNumber: '0',
        tokenHash: '0',
        itemIds: [randomUUID()],
        now: new Date().toISOString(),
        request: {
          email,
          fulfillmentIssues: [
            {
              sourceFulfillmentId: fulfillment.sourceFulfillmentId,
              issues: [
                {
                  sourceItemId: line.sourceItemId,
                  claimType: 'DAMAGED',
                  quantity: 1,
                  details: 'Arrived broken.',
                  images: [],
                },
              ],
            },
          ],
          resolution: { desiredMethod, customerSignature: 'A Shopper', updatedShippingAddress: null },
        },
      },
      {
        order: { ...order, protected: true },
        settings: { ...store.settings, claimWaitDays: 0, claimWindowDays: 3650 },
        orderClaims: initialOrderClaimsState(),
      },
    );
    if (!decision.ok) throw new Error(`template claim on ${sourceOrderId} refused: ${decision.error.message}`);
    const filed = decision.value.find((e): e is EventOf<'ClaimFiled'> => e.type === 'ClaimFiled')!;
    templates.push({ slug, storeId: store.id, share: STORE_SHARES[slug], filed: filed.data });
  }
  return templates;
}

const FIRST_NAMES = [
  'Ava',
  'Ben',
  'Chloe',
  'Dev',
  'Emi',
  'Finn',
  'Gia',
  'Hugo',
  'Ines',
  'Jon',
  'Kai',
  'Lena',
  'Mo',
  'Nia',
  'Omar',
  'Pia',
];
/** 400 surnames (20 × 20 syllables), each on ~0.25% of the claims: a surname search finds a few thousand, as in a real shop. */
const LAST_NAMES = [
  'Ok',
  'Ta',
  'Sil',
  'No',
  'Ber',
  'Ros',
  'Ha',
  'Wal',
  'Or',
  'Men',
  'Fer',
  'Gar',
  'Lin',
  'Mar',
  'Kow',
  'Dub',
  'Ivan',
  'Pet',
  'Sch',
  'Yam',
].flatMap((head) =>
  [
    'afor',
    'naka',
    'va',
    'vak',
    'gstrom',
    'si',
    'ddad',
    'sh',
    'tiz',
    'doza',
    'reira',
    'cia',
    'dqvist',
    'tinez',
    'alski',
    'ois',
    'ova',
    'rov',
    'midt',
    'ada',
  ].map((tail) => `${head}${tail}`),
);
/** The surname the search rows look for (Ortiz), and the same with two letters swapped. */
const SEARCHED_SURNAME = 'Ortiz';
const SURNAME_TYPO = 'Ortzi';

function metadata(actor: EventMetadata['actor'], correlationId: string, type: DomainEvent['type']): EventMetadata {
  return { actor, correlationId, causationId: null, schemaVersion: EVENT_SCHEMA_VERSIONS[type] };
}

/** Claim `i` of `total`: filed in time order over the 90 days before `now` (as a live system appends them). */
function claimAppend(
  i: number,
  total: number,
  now: number,
  templates: readonly StoreTemplate[],
  random: () => number,
): StreamAppend {
  const template = random() < templates[0]!.share ? templates[0]! : templates[1]!;
  const claimId = randomUUID();
  const filedAt = new Date(now - 90 * DAY_MS + ((i + random()) / total) * 90 * DAY_MS).toISOString();
  const claimType = pick(random, CLAIM_TYPES);
  const first = FIRST_NAMES[Math.floor(random() * FIRST_NAMES.length)]!;
  const last = LAST_NAMES[Math.floor(random() * LAST_NAMES.length)]!;
  const email = `${first}.${last}.${i}@example.com`.toLowerCase();
  const t = template.filed;
  const filed: ClaimFiledData = {
    ...t,
    claimId,
    claimNumber: String(10_000_000 + i),
    tokenHash: createHash('sha256').update(claimId).digest('hex'),
    claimType,
    customer: { email, name: `${first} ${last}` },
    items: t.items.map((item) => ({
      ...item,
      id: randomUUID(),
      claimType,
      creditStore: defaultCreditStore(t.isOta, claimType),
    })),
    signature: { ...t.signature, value: `${first} ${last}`, signedAt: filedAt },
    filedAt,
  };
  const shopper = { type: 'customer' as const, id: email };
  const events: NewEvent[] = [
    { eventId: randomUUID(), type: 'ClaimFiled', data: filed, metadata: metadata(shopper, `bench-${i}`, 'ClaimFiled') },
  ];
  if (random() < STATUS_CHANGE_SHARE) {
    const to = pick(random, MOVED_TO);
    events.push({
      eventId: randomUUID(),
      type: 'ClaimStatusChanged',
      data: { claimId, from: 'NEW', to, note: null } satisfies EventOf<'ClaimStatusChanged'>['data'],
      metadata: metadata(
        { type: 'user', id: 'bench-agent', name: 'Bench Agent' },
        `bench-${i}-status`,
        'ClaimStatusChanged',
      ),
    });
  }
  return { streamId: claimId, streamType: 'claim', storeId: template.storeId, expectedVersion: NO_STREAM, events };
}

function progress(label: string, done: number, total: number, startedMs: number, unit: string): void {
  const seconds = (Date.now() - startedMs) / 1000;
  process.stderr.write(
    `claim-desk: ${label} ${fmtInt(done)} / ${fmtInt(total)} ${unit} (${fmtInt(done / Math.max(seconds, 0.001))}/s, ${seconds.toFixed(0)} s)\n`,
  );
}

type AppendMode = 'stream' | 'streams';

/**
 * Appends the claims, `concurrency` chunks of `perAppend` claims at a time: with mode `stream` each claim is its own
 * `appendToStream` (the chunk's appends run concurrently over the pool), with `streams` a chunk is one
 * `appendToStreams` transaction.
 */
async function generateClaims(
  db: Kysely<EventStoreTables>,
  total: number,
  templates: readonly StoreTemplate[],
  perAppend: number,
  concurrency: number,
  mode: AppendMode,
): Promise<{ seconds: number; events: number }> {
  const random = rng(20261122);
  const now = Date.now();
  const started = Date.now();
  let next = 0;
  let done = 0;
  let events = 0;
  let lastReport = started;
  const writer = async () => {
    for (;;) {
      const from = next;
      if (from >= total) return;
      next = Math.min(total, from + perAppend);
      const appends: StreamAppend[] = [];
      for (let i = from; i < next; i++) appends.push(claimAppend(i, total, now, templates, random));
      const results =
        mode === 'stream'
          ? await Promise.all(appends.map((a) => appendToStream(db, a)))
          : await appendToStreams(db, appends);
      const failed = results.find((r) => !r.ok);
      if (failed) throw new Error(`appending claims ${from}..${next} failed: ${JSON.stringify(failed)}`);
      done += appends.length;
      events += appends.reduce((sum, a) => sum + a.events.length, 0);
      if (Date.now() - lastReport >= 5000) {
        lastReport = Date.now();
        progress('appended', done, total, started, 'claims');
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, writer));
  progress('appended', done, total, started, 'claims');
  return { seconds: (Date.now() - started) / 1000, events };
}

/** The SQL a function sends through Kysely, captured from Kysely's log (every query, in order). */
async function capturedSql(
  url: string,
  run: (db: Kysely<EventStoreTables>) => Promise<unknown>,
): Promise<Array<{ sql: string; parameters: unknown[] }>> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const captured: Array<{ sql: string; parameters: unknown[] }> = [];
  const db = new Kysely<EventStoreTables>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') captured.push({ sql: event.query.sql, parameters: [...event.query.parameters] });
    },
  });
  try {
    await run(db);
  } finally {
    await db.destroy();
  }
  if (captured.length === 0) throw new Error('no query was sent');
  return captured;
}

interface ListCase {
  name: string;
  /** The query string after `?`, without a cursor. */
  query: string;
  filter: Omit<QueueFilter, 'storeIds' | 'cursor'>;
  /** The first page also brings the status tabs' counts (`counts=true`). */
  counts?: boolean;
  skip: number;
  follow: boolean;
  goalMs: number;
}

/** What the route runs for a page of a case: the page, and the tab counts with the first one when asked. */
async function runCase(
  db: Kysely<EventStoreTables>,
  c: Pick<ListCase, 'filter' | 'counts'>,
  storeIds: string[],
  cursor: string | undefined,
) {
  const { sort: _sort, order: _order, limit: _limit, status: _status, ...rest } = c.filter;
  const page = await queueClaims(db, { ...c.filter, storeIds, cursor });
  if (c.counts && !cursor) await queueCounts(db, { ...rest, storeIds }, page.searched);
  return page;
}

export interface ListResult {
  name: string;
  query: string;
  pages: string;
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  goalMs: number;
  /** The same pages through queueClaims (and queueCounts) in-process (the queries and their round trips, no HTTP or auth). */
  queryP50Ms: number;
  queryP99Ms: number;
  /** The SQL's own time for one such page, from EXPLAIN ANALYZE (ms), and the plan. */
  sqlMs: number;
  plan: string;
  cpu: CpuShare | null;
}

export interface ResolveSummary {
  clients: number;
  perSecond: number;
  ok: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
  firstError: string | null;
  seconds: number;
  ranOut: boolean;
  cpu: CpuShare | null;
}

export interface ClaimDeskResult {
  claims: number;
  /** How the database was built this run; null with BENCH_DESK_REUSE (an earlier run's database, measured again). */
  built: Built | null;
  autovacuum: string;
  claimListRows: number;
  tableMiB: number;
  indexMiB: number;
  eventsMiB: number;
  lists: ListResult[];
  resolve: ResolveSummary;
  /** The list queries' plans, from the repository's root (bench/results/, not committed). */
  plansFile: string;
  markdown: string;
}

/** Runs jobs on the client worker thread, one at a time. */
class Client {
  private readonly worker = new Worker(new URL('./claimDeskClient.ts', import.meta.url));

  run<T extends PagesResult | ResolveResult>(job: ClientJob): Promise<T> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: { ok: true; result: T } | { ok: false; error: string }) => {
        this.worker.off('error', onError);
        if (message.ok) resolve(message.result);
        else reject(new Error(message.error));
      };
      const onError = (error: Error) => {
        this.worker.off('message', onMessage);
        reject(error);
      };
      this.worker.once('message', onMessage);
      this.worker.once('error', onError);
      this.worker.postMessage(job);
    });
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}

/** Each statement a page of the case sends, run under EXPLAIN ANALYZE (after one warming run); their times add up. */
async function explainList(
  url: string,
  c: Pick<ListCase, 'filter' | 'counts'>,
  storeIds: string[],
  cursor: string | undefined,
): Promise<{ plan: string; sqlMs: number }> {
  const queries = await capturedSql(url, (db) => runCase(db, c, storeIds, cursor));
  return withPool(url, async (pool) => {
    const plans: string[] = [];
    let sqlMs = 0;
    for (const query of queries) {
      await pool.query(query.sql, query.parameters);
      const { rows } = await pool.query<{ 'QUERY PLAN': string }>(
        `explain (analyze, buffers) ${query.sql}`,
        query.parameters,
      );
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      const execution = /Execution Time: ([\d.]+) ms/.exec(plan);
      const planning = /Planning Time: ([\d.]+) ms/.exec(plan);
      sqlMs += Number(execution?.[1] ?? Number.NaN) + Number(planning?.[1] ?? 0);
      plans.push(plan);
    }
    return { plan: plans.join('\n\n'), sqlMs };
  });
}

async function login(base: string, email: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'demo-pass-1234' }),
  });
  if (response.status !== 200)
    throw new Error(`login of ${email} answered ${response.status}: ${await response.text()}`);
  return response.headers.getSetCookie()[0]!.split(';')[0]!;
}

function summarizeLatencies(latencies: number[]): { p50Ms: number; p99Ms: number; maxMs: number } {
  const sorted = Float64Array.from(latencies).sort();
  return { p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), maxMs: sorted.at(-1) ?? Number.NaN };
}

/** Phase 1: migrations and demo data (a runtime neither listening nor running workers), the claims' events, the read model. */
async function buildDatabase(
  options: { url: string; claims: number; claimsPerAppend: number; appendConcurrency: number; appendMode: AppendMode },
  config: ReturnType<typeof loadConfig>,
  dataDir: string,
): Promise<Built> {
  const setup = await startRuntime(config, { listen: false, workers: false });
  try {
    const db = setup.ctx.database.db;
    const templates = await storeTemplates(setup);
    // Generation is setup, not a measurement: its own pool, commits not waiting for the WAL flush.
    const fast = await openDatabase({
      databaseUrl: `${options.url}?options=${encodeURIComponent('-c synchronous_commit=off')}`,
      dataDir,
    });
    const genCpu = startCpuSample();
    let generated: { seconds: number; events: number };
    try {
      generated = await generateClaims(
        fast.db,
        options.claims,
        templates,
        options.claimsPerAppend,
        options.appendConcurrency,
        options.appendMode,
      );
    } finally {
      await fast.close();
    }
    logCpu('append', genCpu());
    // What autovacuum's analyze would have done by now (this server runs with it off): without statistics the planner
    // takes a type-filtered read of a million events for a rare type, and sorts every later event for each page.
    await sql`analyze events`.execute(db);
    // The three read models are rebuilt side by side (each under its own lock), as `make replay` could.
    const rebuildCpu = startCpuSample();
    const rebuilds = await Promise.all(
      QUEUE_PROJECTIONS.map(async (projection) => {
        const rebuildStart = Date.now();
        let lastReport = rebuildStart;
        const onProgress = ({ done, total }: RebuildProgress) => {
          if (Date.now() - lastReport < 15_000) return;
          lastReport = Date.now();
          progress(`projected (${projection.name})`, done, total, rebuildStart, 'events');
        };
        const done = await rebuild(db, projection, onProgress);
        progress(`projected (${projection.name})`, done.done, done.total, rebuildStart, 'events');
        return { projection: projection.name, seconds: (Date.now() - rebuildStart) / 1000, events: done.done };
      }),
    );
    logCpu('rebuild', rebuildCpu());
    return { generateSeconds: generated.seconds, events: generated.events, rebuilds };
  } finally {
    await setup.stop();
  }
}

interface Built {
  generateSeconds: number;
  events: number;
  /** Each read model's rebuild from the store. */
  rebuilds: Array<{ projection: string; seconds: number; events: number }>;
}

/** Claims in an existing bench database (0 when there is none), for BENCH_DESK_REUSE. */
async function existingClaims(url: string): Promise<number> {
  try {
    return await withPool(
      url,
      async (pool) =>
        (
          await pool.query<{ n: number }>(
            `select count(*)::int as n from claim_list where claim_number::bigint >= 10000000`,
          )
        ).rows[0]!.n,
    );
  } catch {
    return 0;
  }
}

/**
 * What autovacuum would have done to tables written this fast (and what it never does on a server running with
 * autovacuum=off, like this repository's CI PostgreSQL): statistics for the planner, and a vacuum of the read model
 * whose rows were updated. Then the experiment index, if any: indexes named bench_* are dropped first, so a reused
 * database measures exactly the one asked for.
 */
async function settleTables(url: string, extraIndex: string | null): Promise<void> {
  await withPool(url, async (pool) => {
    const t0 = Date.now();
    for (const table of QUEUE_PROJECTIONS.flatMap((p) => p.tables)) await pool.query(`vacuum (analyze) ${table}`);
    await pool.query('analyze events, streams, projection_offsets');
    const { rows } = await pool.query<{ name: string }>(
      `select indexname as name from pg_indexes where tablename = 'claim_list' and indexname like 'bench\\_%'`,
    );
    for (const { name } of rows) await pool.query(`drop index "${name}"`);
    if (extraIndex) {
      process.stderr.write(`claim-desk: experiment: ${extraIndex}\n`);
      await pool.query(extraIndex);
      await pool.query('analyze claim_list');
    }
    process.stderr.write(
      `claim-desk: vacuum/analyze${extraIndex ? ' and experiment index' : ''} in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`,
    );
  });
  await checkpoint(url);
}

export async function benchClaimDesk(opts: ClaimDeskOptions = {}): Promise<ClaimDeskResult> {
  const options = {
    url: withDatabase(opts.url ?? benchDatabaseUrl(), process.env.BENCH_DESK_DATABASE ?? 'claims_bench_desk'),
    claims: opts.claims ?? envNumber('BENCH_DESK_CLAIMS') ?? 1_000_000,
    clients: opts.clients ?? envNumber('BENCH_DESK_CLIENTS') ?? 32,
    seconds: opts.seconds ?? envNumber('BENCH_DESK_SECONDS') ?? 10,
    warmupSeconds: opts.warmupSeconds ?? envNumber('BENCH_DESK_WARMUP_SECONDS') ?? 2,
    samples: opts.samples ?? envNumber('BENCH_DESK_SAMPLES') ?? 300,
    skipPages: opts.skipPages ?? envNumber('BENCH_DESK_SKIP_PAGES') ?? 200,
    claimsPerAppend: opts.claimsPerAppend ?? envNumber('BENCH_DESK_CLAIMS_PER_APPEND') ?? 250,
    appendConcurrency: opts.appendConcurrency ?? envNumber('BENCH_DESK_APPEND_CONCURRENCY') ?? 4,
    tokens: opts.tokens ?? envNumber('BENCH_DESK_TOKENS') ?? 1,
    appendMode: (opts.appendMode ?? process.env.BENCH_DESK_APPEND_MODE ?? 'stream') as AppendMode,
    extraIndex: opts.extraIndex ?? process.env.BENCH_DESK_INDEX ?? null,
  };
  const loadAtStart = os.loadavg()[0]!;
  const reuse =
    ['1', 'true'].includes(process.env.BENCH_DESK_REUSE ?? '') && (await existingClaims(options.url)) >= options.claims;
  if (!reuse) await recreateDatabase(options.url);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claim-desk-bench-'));
  const config = benchConfig(options.url, dataDir);
  try {
    // 1. The events, then the read model (unless reusing the last run's database).
    const built = reuse ? null : await buildDatabase(options, config, dataDir);
    if (reuse)
      process.stderr.write(
        `claim-desk: BENCH_DESK_REUSE: measuring the existing ${databaseName(options.url)} as it is\n`,
      );
    await settleTables(options.url, options.extraIndex);
    const autovacuum = await withPool(
      options.url,
      async (pool) => (await pool.query<{ autovacuum: string }>('show autovacuum')).rows[0]!.autovacuum,
    );
    const stats = await withPool(options.url, async (pool) => {
      const { rows } = await pool.query<{
        rows: number;
        table_bytes: string;
        index_bytes: string;
        events_bytes: string;
      }>(
        `select (select count(*)::int from claim_list) as rows, pg_table_size('claim_list') as table_bytes,
                pg_indexes_size('claim_list') as index_bytes, pg_total_relation_size('events') as events_bytes`,
      );
      return rows[0]!;
    });

    // 2. The API, in-process, listening on a free port, nothing else running.
    const runtime = await startRuntime(config, { listen: true, workers: false });
    const client = new Client();
    try {
      const { port } = runtime.app.server.address() as AddressInfo;
      const base = `http://127.0.0.1:${port}`;
      const db = runtime.ctx.database.db;
      const acme = (await findStoreBySlugOrDomain(db, { slug: 'acme' }))!.id;
      const agentCookie = await login(base, 'agent@acme.test');
      const from = new Date(Date.now() - 60 * DAY_MS).toISOString();
      // Part of one claim's email, as an agent pastes it: its local part (`lena.ortiz.123456`).
      const {
        rows: [sample],
      } = await sql<{ customer_email: string }>`
        select customer_email from claim_list where store_id = ${acme}::uuid and customer_name like ${`% ${SEARCHED_SURNAME}`}
        order by claim_number limit 1`.execute(db);
      const emailPart = sample!.customer_email.split('@')[0]!;
      const newest = { sort: 'filed', order: 'desc' } as const;
      const cases: ListCase[] = [
        {
          name: 'First page',
          query: 'limit=50',
          filter: { ...newest, limit: 50 },
          skip: 0,
          follow: false,
          goalMs: GOAL_MS,
        },
        {
          name: 'First page with tab counts',
          query: 'limit=50&counts=true',
          filter: { ...newest, limit: 50 },
          counts: true,
          skip: 0,
          follow: false,
          goalMs: GOAL_MS,
        },
        {
          name: `Deep page (${options.skipPages} pages in)`,
          query: 'limit=50',
          filter: { ...newest, limit: 50 },
          skip: options.skipPages,
          follow: true,
          goalMs: GOAL_MS,
        },
        {
          name: `Filtered deep page (${Math.round(options.skipPages / 4)} pages in)`,
          query: `status=OPEN&type=DAMAGED&from=${encodeURIComponent(from)}&limit=50`,
          filter: { ...newest, limit: 50, status: ['OPEN'], claimType: 'DAMAGED', createdFrom: from },
          skip: Math.round(options.skipPages / 4),
          follow: true,
          goalMs: GOAL_MS,
        },
        {
          // A rare combination (~0.1% of the claims): the pages' rows are far apart in created_at order.
          name: 'Rare filter, every page',
          query: `status=WAITING_FOR_BRAND&type=LATE_SHIPPING&from=${encodeURIComponent(from)}&limit=50`,
          filter: {
            ...newest,
            limit: 50,
            status: ['WAITING_FOR_BRAND'],
            claimType: 'LATE_SHIPPING',
            createdFrom: from,
          },
          skip: 0,
          follow: true,
          goalMs: GOAL_MS,
        },
        {
          name: 'Highest value first, first page',
          query: 'sort=value&order=desc&limit=50',
          filter: { sort: 'value', order: 'desc', limit: 50 },
          skip: 0,
          follow: false,
          goalMs: GOAL_MS,
        },
        {
          name: 'Longest waiting customer first, first page',
          query: 'sort=reply&order=asc&limit=50',
          filter: { sort: 'reply', order: 'asc', limit: 50 },
          skip: 0,
          follow: false,
          goalMs: GOAL_MS,
        },
        {
          name: `Search by surname ("${SEARCHED_SURNAME}"), first page with tab counts`,
          query: `search=${SEARCHED_SURNAME}&limit=50&counts=true`,
          filter: { ...newest, limit: 50, search: SEARCHED_SURNAME },
          counts: true,
          skip: 0,
          follow: false,
          goalMs: SEARCH_GOAL_MS,
        },
        {
          name: `Search by part of an email ("${emailPart}"), first page with tab counts`,
          query: `search=${encodeURIComponent(emailPart)}&limit=50&counts=true`,
          filter: { ...newest, limit: 50, search: emailPart },
          counts: true,
          skip: 0,
          follow: false,
          goalMs: SEARCH_GOAL_MS,
        },
        {
          name: `Search with a typo ("${SURNAME_TYPO}"), first page with tab counts`,
          query: `search=${SURNAME_TYPO}&limit=50&counts=true`,
          filter: { ...newest, limit: 50, search: SURNAME_TYPO },
          counts: true,
          skip: 0,
          follow: false,
          goalMs: SEARCH_GOAL_MS,
        },
      ];
      const lists: ListResult[] = [];
      for (const c of cases) {
        const result = await client.run<PagesResult>({
          kind: 'pages',
          url: `${base}/api/admin/claims?${c.query}`,
          headers: { cookie: agentCookie },
          skip: c.skip,
          warmup: 30,
          samples: options.samples,
          follow: c.follow,
        });
        // The plan of a page as deep as the middle of the timed ones.
        const cursorAt = await cursorAtPage(
          db,
          acme,
          c.filter,
          Math.round((result.firstTimedPage + result.lastTimedPage) / 2),
        );
        const explained = await explainList(options.url, c, [acme], cursorAt ?? undefined);
        // The same pages again, straight through queueClaims (the API's pool, no HTTP): what the queries cost.
        const direct: number[] = [];
        for (const cursor of result.cursors) {
          const t0 = performance.now();
          await runCase(db, c, [acme], cursor ?? undefined);
          direct.push(performance.now() - t0);
        }
        const query = summarizeLatencies(direct);
        const latencies = summarizeLatencies(result.latenciesMs);
        const pages = c.follow
          ? `${result.latenciesMs.length} pages, ${result.firstTimedPage}–${result.lastTimedPage}${result.wraps ? ` (${result.wraps}× round)` : ''}`
          : `${result.latenciesMs.length}× page 1`;
        lists.push({
          name: c.name,
          query: c.query,
          pages,
          samples: result.latenciesMs.length,
          goalMs: c.goalMs,
          ...latencies,
          queryP50Ms: query.p50Ms,
          queryP99Ms: query.p99Ms,
          ...explained,
          cpu: result.cpu,
        });
        process.stderr.write(
          `claim-desk: ${c.name}: p50 ${fmtMs(latencies.p50Ms)} ms, p99 ${fmtMs(latencies.p99Ms)} ms ` +
            `(queueClaims p50 ${fmtMs(query.p50Ms)} ms, p99 ${fmtMs(query.p99Ms)} ms)\n`,
        );
      }

      // 3. Resolving through the public API with a bearer token of the acme store.
      const ownerCookie = await login(base, 'owner@acme.test');
      const tokens: string[] = [];
      for (let i = 0; i < options.tokens; i++) {
        const created = await fetch(`${base}/api/stores/${acme}/api-tokens`, {
          method: 'POST',
          headers: { cookie: ownerCookie, origin: base, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `claim-desk bench ${i + 1}`, permissions: ['claim:read', 'claim:resolve'] }),
        });
        if (created.status !== 201)
          throw new Error(`creating an API token answered ${created.status}: ${await created.text()}`);
        tokens.push(((await created.json()) as { token: string }).token);
      }
      const wanted = Math.max(20_000, options.clients * (options.seconds + options.warmupSeconds) * 400);
      const { rows: open } = await sql<{ claim_id: string }>`
        select c.claim_id from claim_list c
        where c.store_id = ${acme}::uuid and c.status = any(${[...RESOLVABLE_STATUSES]}::text[]) and c.resolution_type is null
          and not exists (select 1 from events e where e.stream_id = c.claim_id::text and e.type = 'ClaimResolved')
        order by c.claim_id limit ${wanted}`.execute(db);
      await checkpoint(options.url);
      const resolved = await client.run<ResolveResult>({
        kind: 'resolve',
        base,
        tokens,
        claimIds: open.map((r) => r.claim_id),
        clients: options.clients,
        warmupSeconds: options.warmupSeconds,
        seconds: options.seconds,
      });
      const resolve: ResolveSummary = {
        clients: options.clients,
        perSecond: resolved.ok / resolved.seconds,
        ok: resolved.ok,
        ...summarizeLatencies(resolved.latenciesMs),
        errors: resolved.errors,
        firstError: resolved.firstError,
        seconds: resolved.seconds,
        ranOut: resolved.ranOut,
        cpu: resolved.cpu,
      };
      process.stderr.write(
        `claim-desk: resolve ×${options.clients}: ${fmtInt(resolve.perSecond)}/s, p50 ${fmtMs(resolve.p50Ms)} ms, p99 ${fmtMs(resolve.p99Ms)} ms, errors ${resolve.errors}\n`,
      );

      const result = {
        claims: options.claims,
        built,
        autovacuum,
        claimListRows: stats.rows,
        tableMiB: Number(stats.table_bytes) / 2 ** 20,
        indexMiB: Number(stats.index_bytes) / 2 ** 20,
        eventsMiB: Number(stats.events_bytes) / 2 ** 20,
        lists,
        resolve,
        plansFile: writeRawResult('claim-desk', 'plans.md', plansMarkdown(lists)),
      };
      return { ...result, markdown: claimDeskMarkdown(options, result, loadAtStart) };
    } finally {
      await client.close();
      await runtime.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function logCpu(label: string, cpu: CpuShare | null): void {
  if (!cpu) return;
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  process.stderr.write(
    `claim-desk: ${label} cpu: busy ${pct(cpu.busy)}, postgres ${pct(cpu.postgres)}, bench ${pct(cpu.self)}, other ${pct(cpu.other)}\n`,
  );
}

async function withPool<T>(url: string, run: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    return await run(pool);
  } finally {
    await pool.end();
  }
}

/** The cursor the API hands out for page `page` (1-based) of a listing: the keyset of the last row before it. */
async function cursorAtPage(
  db: Kysely<EventStoreTables>,
  storeId: string,
  filter: ListCase['filter'],
  page: number,
): Promise<string | null> {
  let cursor: string | undefined;
  for (let p = 1; p < page; p++) {
    const got = await queueClaims(db, { ...filter, storeIds: [storeId], cursor });
    if (!got.nextCursor) break;
    cursor = got.nextCursor;
  }
  return cursor ?? null;
}

function claimDeskMarkdown(
  options: {
    claims: number;
    clients: number;
    seconds: number;
    warmupSeconds: number;
    samples: number;
    claimsPerAppend: number;
    appendConcurrency: number;
    appendMode: AppendMode;
    extraIndex: string | null;
    tokens: number;
  },
  r: Omit<ClaimDeskResult, 'markdown'>,
  loadAtStart: number,
): string {
  const lines: string[] = [];
  const pct = (share: number) => `${Math.round(share * 100)}%`;
  lines.push(`## Claim desk at ${fmtInt(r.claims)} claims`);
  lines.push('');
  const appendHow =
    options.appendMode === 'stream'
      ? `one \`appendToStream\` per claim (expected version "no stream"), ${options.claimsPerAppend * options.appendConcurrency} in flight over the pool`
      : `\`appendToStreams\`, ${options.claimsPerAppend} new claim streams per transaction, ${options.appendConcurrency} transactions at a time`;
  const b = r.built;
  lines.push(
    `${fmtInt(r.claims)} claims generated by appending events through the event store (${appendHow}; the generator's own pool ` +
      'commits with synchronous_commit=off, since generation is setup, not a measurement): one `ClaimFiled` per claim stream in the ' +
      `contract's shape (varied from a claim the domain decides on a demo order), ${pct(STORE_SHARES.acme)} Acme / ${pct(STORE_SHARES.kumo)} Kumo, ` +
      `filed in time order over the last 90 days, ${pct(STATUS_CHANGE_SHARE)} followed in the same append by a \`ClaimStatusChanged\` ` +
      '(to OPEN, waiting, closed, dismissed …). Customers are 16 first names × 400 surnames (each surname on ~0.25% of the claims), ' +
      "emails `first.last.N@example.com`. The queue's read models (claim-list; claim-search: the search document, its words and " +
      "the lexicon typos are corrected against; claim-assignment: assignees, the customer's last word, the tab counts) were then " +
      "built by replaying the store with the projections' `rebuild()`, the three side by side" +
      '. Then `vacuum (analyze)` of them and `analyze events, streams, projection_offsets`: what autovacuum does to tables written ' +
      `this fast${r.autovacuum === 'off' ? ', and which nothing does on this server, whose configuration turns autovacuum off' : ''}. ` +
      'Database `claims_bench_desk`, dropped and recreated every run.',
  );
  lines.push('');
  lines.push('| Step | Amount | Time | Rate |');
  lines.push('|:---|---:|---:|---:|');
  if (b) {
    lines.push(
      `| Append (generation) | ${fmtInt(r.claims)} claims, ${fmtInt(b.events)} events | ${b.generateSeconds.toFixed(0)} s | ${fmtInt(r.claims / b.generateSeconds)} claims/s |`,
    );
    for (const rebuilt of b.rebuilds) {
      lines.push(
        `| Projection rebuild (${rebuilt.projection}) | ${fmtInt(rebuilt.events)} events | ` +
          `${rebuilt.seconds.toFixed(0)} s | ${fmtInt(rebuilt.events / rebuilt.seconds)} events/s |`,
      );
    }
  } else {
    lines.push('| (BENCH_DESK_REUSE: the database of an earlier run, not generated this run) | | | |');
  }
  lines.push('');
  lines.push(
    `Read model: ${fmtInt(r.claimListRows)} rows, table ${r.tableMiB.toFixed(0)} MiB, indexes ${r.indexMiB.toFixed(0)} MiB; ` +
      `events table with its indexes ${fmtInt(r.eventsMiB)} MiB.` +
      (options.extraIndex ? ` **Experiment: extra index** \`${options.extraIndex}\`.` : ''),
  );
  lines.push('');
  lines.push(
    '`GET /api/admin/claims` over HTTP (Node fetch, keep-alive, from a worker thread; the API in the same process with its projection ' +
      `workers off), as agent@acme.test (store support on Acme: sees the Acme claims, ${pct(STORE_SHARES.acme)} of them), one request at a ` +
      `time, ${options.samples} timed requests per row. Deep rows follow \`nextCursor\` the given number of pages untimed, then time each next ` +
      `page (the rare filter has only a few pages: they are timed round and round). "queueClaims" replays the same pages straight ` +
      "through `queueClaims` (and `queueCounts` where the tab counts are asked) on the API's pool, one at a time, right after: the " +
      'queries with their round trips, without HTTP, sign-in check and JSON. A search tries exact numbers and emails, then words ' +
      'contained anywhere, then near words (typos), and stops at the first that finds anything: each of those is a statement. ' +
      'The plans are EXPLAIN ANALYZE of a page from the middle of the timed ones (every statement of it). ' +
      `Goals: HTTP p99 < ${GOAL_MS} ms for pages, < ${SEARCH_GOAL_MS} ms for searches.`,
  );
  lines.push('');
  lines.push(
    '| Query | Timed pages | HTTP p50 ms | HTTP p99 ms | max ms | Goal | queueClaims p50 / p99 ms | Machine busy / other work |',
  );
  lines.push('|:---|:---|---:|---:|---:|:---|---:|---:|');
  for (const l of r.lists) {
    lines.push(
      `| ${l.name}: \`?${l.query.replace(/from=[^&]+/, 'from=<60 days ago>')}\` | ${l.pages} | ${fmtMs(l.p50Ms)} | ${fmtMs(l.p99Ms)} | ${fmtMs(l.maxMs)} | ` +
        `p99 < ${l.goalMs} ms: ${l.p99Ms < l.goalMs ? 'met' : 'not met'} | ${fmtMs(l.queryP50Ms)} / ${fmtMs(l.queryP99Ms)} | ${l.cpu ? `${pct(l.cpu.busy)} / ${pct(l.cpu.other)}` : '–'} |`,
    );
  }
  lines.push('');
  const s = r.resolve;
  lines.push(
    `\`POST /api/v1/claims/{claimId}/resolve\` (\`{"resolutionType":"REFUND"}\`) with ${options.tokens === 1 ? 'a bearer API token' : `${options.tokens} bearer API tokens`} of the Acme store (claim:resolve), ` +
      `${s.clients} concurrent clients in a closed loop, each claim resolved once (distinct open Acme claims), ${options.warmupSeconds} s warm-up, ` +
      `then ${s.seconds.toFixed(1)} s measured. Each request authenticates the token, rebuilds the claim from its stream, decides, appends and ` +
      'answers with the resolved claim.',
  );
  lines.push('');
  lines.push(
    '| Clients | Resolved/s | p50 ms | p99 ms | max ms | Errors | Machine busy | PostgreSQL | Bench process | Other |',
  );
  lines.push('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const c = s.cpu;
  lines.push(
    `| ${s.clients} | ${fmtInt(s.perSecond)} | ${fmtMs(s.p50Ms)} | ${fmtMs(s.p99Ms)} | ${fmtMs(s.maxMs)} | ${s.errors} | ` +
      `${c ? pct(c.busy) : '–'} | ${c ? pct(c.postgres) : '–'} | ${c ? pct(c.self) : '–'} | ${c ? pct(c.other) : '–'} |`,
  );
  lines.push('');
  if (s.errors > 0) lines.push(`First error: \`${s.firstError}\``, '');
  if (s.ranOut) lines.push('> The clients ran out of open claims before the end of the window.', '');
  lines.push(
    `Load average (1 min) when this section started: ${loadAtStart.toFixed(2)}; "Other" above is CPU used by neither PostgreSQL nor ` +
      'the benchmark process during the resolve window (other work on the machine).',
  );
  lines.push('');
  lines.push(
    'What the plans of a page from the middle of the timed ones show (EXPLAIN ANALYZE, BUFFERS, every statement of the ' +
      "page): the indexes each query used and the statements' summed execution time on the server.",
  );
  lines.push('');
  lines.push('| Query | Statements | Indexes used | Execution ms |');
  lines.push('| :--- | ---: | :--- | ---: |');
  for (const l of r.lists) {
    const shape = planShape(l.plan);
    lines.push(
      `| ${l.name} | ${shape.statements} | ${shape.indexes.map((i) => `\`${i}\``).join(', ')} | ${shape.executionMs.toFixed(2)} |`,
    );
  }
  lines.push('');
  lines.push(`The plans themselves are in \`${r.plansFile}\`, written by the run and not committed.`);
  lines.push('');
  return lines.join('\n');
}

/** What a reader looks for in a page's plans: how many statements, which indexes (or sequential scans), how long. */
function planShape(plan: string): { statements: number; indexes: string[]; executionMs: number } {
  const scans = [
    ...[...plan.matchAll(/(?:Index Scan(?: Backward)?|Bitmap Index Scan|Index Only Scan) (?:using|on) (\w+)/g)].map(
      (m) => m[1]!,
    ),
    ...[...plan.matchAll(/Seq Scan on (\w+)/g)].map((m) => `${m[1]!} (seq)`),
  ];
  const times = [...plan.matchAll(/Execution Time: ([\d.]+) ms/g)].map((m) => Number(m[1]));
  return {
    statements: times.length,
    indexes: [...new Set(scans)],
    executionMs: times.reduce((sum, t) => sum + t, 0),
  };
}

/** Every list query's plan, as one markdown file for `bench/results/`. */
function plansMarkdown(lists: ClaimDeskResult['lists']): string {
  return [
    '# Claim desk: query plans (EXPLAIN ANALYZE, BUFFERS) of the list queries',
    '',
    ...lists.flatMap((l) => [`## ${l.name}`, '', '```', l.plan, '```', '']),
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const url = benchDatabaseUrl();
  Promise.all([machineInfo(url), benchClaimDesk({ url })]).then(
    ([machine, { markdown }]) => {
      console.log([markdown, 'Machine:', '', machineMarkdown(machine, new URL(url).host), ''].join('\n'));
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
