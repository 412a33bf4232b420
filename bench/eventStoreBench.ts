import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { storeLabel, type StoreKind } from './eventStoreAdapters.js';
import type { WorkerReply, WorkerRequest } from './eventStoreWorker.js';
import { benchDatabaseUrl, checkpoint, databaseName, recreateDatabase, withDatabase } from './postgres.js';
import { fmtInt, fmtMs, percentile } from './stats.js';

export interface EventStoreBenchOptions {
  /** Database for our store; every other store gets `<that name>_<store>` on the same server. */
  url?: string;
  stores?: StoreKind[];
  writers?: number[];
  /** Events per append. */
  batches?: number[];
  updatesPerStream?: number;
  warmupSeconds?: number;
  seconds?: number;
  /** Repetitions of each case per store, in rotating order; their measurements are pooled. */
  rounds?: number;
  /** Connections per store's pool (the same for every store). */
  poolSize?: number;
  log?: (line: string) => void;
}

export interface CaseResult {
  store: StoreKind;
  writers: number;
  batch: number;
  appends: number;
  events: number;
  seconds: number;
  eventsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
  firstError: string | null;
  /** Benchmark-process CPU (driver + store client code), ms per 1,000 events. */
  clientCpuMsPerKEvents: number;
}

export interface EventStoreBenchResult {
  options: Required<Omit<EventStoreBenchOptions, 'log'>>;
  results: CaseResult[];
  markdown: string;
}

function envNumbers(name: string): number[] | undefined {
  const value = process.env[name];
  return value ? value.split(',').map((v) => Number(v.trim())) : undefined;
}

function envNumber(name: string): number | undefined {
  const value = process.env[name];
  return value ? Number(value) : undefined;
}

export function storeUrl(baseUrl: string, store: StoreKind): string {
  return store === 'ours' ? baseUrl : withDatabase(baseUrl, `${databaseName(baseUrl)}_${store.replaceAll('-', '_')}`);
}

const WORKER = fileURLToPath(new URL('./eventStoreWorker.ts', import.meta.url));

function runWorker(request: WorkerRequest): Promise<WorkerReply> {
  return new Promise((resolve, reject) => {
    // fork() reuses this process's execArgv, which carries tsx's loader.
    const child = fork(WORKER, [JSON.stringify(request)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let reply: WorkerReply | undefined;
    const timeout = setTimeout(() => child.kill('SIGKILL'), (request.warmupSeconds + request.seconds + 120) * 1000);
    child.on('message', (message) => {
      reply = message as WorkerReply;
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timeout);
      if (reply && code === 0) resolve(reply);
      else reject(new Error(`${request.store} worker (${request.writers} writers, batch ${request.batch}) exited with ${signal ?? code}`));
    });
  });
}

/**
 * Appends through each store on the same PostgreSQL server, one case at a time, each case in a fresh
 * child process with a warm-up, alternating which store goes first. Every store starts on a freshly
 * created database of its own.
 */
export async function benchEventStores(opts: EventStoreBenchOptions = {}): Promise<EventStoreBenchResult> {
  const options = {
    url: opts.url ?? benchDatabaseUrl(),
    stores: opts.stores ?? (['ours', 'emmett'] as StoreKind[]),
    writers: opts.writers ?? envNumbers('BENCH_WRITERS') ?? [1, 8, 32],
    batches: opts.batches ?? envNumbers('BENCH_BATCHES') ?? [1, 10],
    updatesPerStream: opts.updatesPerStream ?? 4,
    warmupSeconds: opts.warmupSeconds ?? envNumber('BENCH_WARMUP_SECONDS') ?? 1.5,
    seconds: opts.seconds ?? envNumber('BENCH_SECONDS') ?? 5,
    rounds: opts.rounds ?? envNumber('BENCH_ROUNDS') ?? 2,
    poolSize: opts.poolSize ?? Number(process.env.DB_POOL_SIZE ?? 20),
  };
  const log = opts.log ?? ((line: string) => console.log(line));

  for (const store of options.stores) await recreateDatabase(storeUrl(options.url, store));

  const results: CaseResult[] = [];
  for (const batch of options.batches) {
    for (const writers of options.writers) {
      const replies = new Map<StoreKind, WorkerReply[]>(options.stores.map((s) => [s, []]));
      for (let round = 0; round < options.rounds; round++) {
        // Rotate who goes first each round (two stores: A B, B A, ...), so drift hits every store alike.
        const shift = round % options.stores.length;
        const order = [...options.stores.slice(shift), ...options.stores.slice(0, shift)];
        for (const store of order) {
          const url = storeUrl(options.url, store);
          await checkpoint(url);
          replies.get(store)!.push(
            await runWorker({
              store,
              url,
              poolSize: options.poolSize,
              writers,
              batch,
              updatesPerStream: options.updatesPerStream,
              warmupSeconds: options.warmupSeconds,
              seconds: options.seconds,
            }),
          );
        }
      }
      for (const store of options.stores) {
        const result = summarize(store, writers, batch, replies.get(store)!);
        results.push(result);
        log(
          `event-store  ${store.padEnd(12)} batch ${String(batch).padStart(2)}  writers ${String(writers).padStart(2)}  ` +
            `${fmtInt(result.eventsPerSecond).padStart(7)} events/s  p50 ${fmtMs(result.p50Ms)} ms  p99 ${fmtMs(result.p99Ms)} ms` +
            (result.errors ? `  errors ${result.errors} (${result.firstError})` : ''),
        );
      }
      const ours = results.find((r) => r.store === options.stores[0] && r.writers === writers && r.batch === batch)!;
      for (const other of options.stores.slice(1)) {
        const peer = results.find((r) => r.store === other && r.writers === writers && r.batch === batch)!;
        log(
          `event-store  ${options.stores[0]} / ${other}: ${(ours.eventsPerSecond / peer.eventsPerSecond).toFixed(2)}x events/s, ` +
            `p99 ${fmtMs(ours.p99Ms)} vs ${fmtMs(peer.p99Ms)} ms`,
        );
      }
    }
  }
  return { options, results, markdown: eventStoreMarkdown(options, results) };
}

function summarize(store: StoreKind, writers: number, batch: number, replies: WorkerReply[]): CaseResult {
  const latencies = Float64Array.from(replies.flatMap((r) => r.latenciesMs)).sort();
  const events = replies.reduce((sum, r) => sum + r.events, 0);
  const seconds = replies.reduce((sum, r) => sum + r.seconds, 0);
  const cpuMs = replies.reduce((sum, r) => sum + r.cpuUserMs + r.cpuSystemMs, 0);
  const errors = replies.reduce((sum, r) => sum + r.errors, 0);
  return {
    store,
    writers,
    batch,
    appends: replies.reduce((sum, r) => sum + r.appends, 0),
    events,
    seconds,
    eventsPerSecond: events / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies.at(-1) ?? Number.NaN,
    errors,
    firstError: replies.find((r) => r.firstError)?.firstError ?? null,
    clientCpuMsPerKEvents: events > 0 ? (cpuMs / events) * 1000 : Number.NaN,
  };
}

function eventStoreMarkdown(options: EventStoreBenchResult['options'], results: CaseResult[]): string {
  const [ours, ...peers] = options.stores as [StoreKind, ...StoreKind[]];
  const lines: string[] = [];
  lines.push('## Event store: appends, ours vs Emmett');
  lines.push('');
  lines.push(
    `Each writer files a claim (a new stream, expected version "no stream") and then appends ${options.updatesPerStream} times ` +
      'to it with the version the previous append returned, then moves on to a new claim. Writers only touch their own streams ' +
      '(no conflicts), and each waits for its append before sending the next (closed loop). "Events/append" 1 is the ' +
      'usual command; 10 is a batch of 10 events per append. ' +
      `Per case and store: ${options.rounds} × (${options.warmupSeconds} s warm-up, then ${options.seconds} s measured), each in a ` +
      `fresh Node process after a PostgreSQL CHECKPOINT, the stores taking turns to go first (A B, B A); the measurements ` +
      `are pooled. Both use a pg pool of ${options.poolSize} connections ` +
      `(DB_POOL_SIZE) and a database of their own on the same server, created empty at the start of the run. ` +
      'Latency is per append as the caller sees it (including waiting for a pooled connection).',
  );
  lines.push('');
  for (const peer of peers) {
    lines.push(`| Events/append | Writers | ${storeLabel(ours)} events/s | ${storeLabel(peer)} events/s | Throughput ratio | Ours p50 / p99 (ms) | Peer p50 / p99 (ms) | Goal (≥1.5x, p99 not worse) |`);
    lines.push('|---:|---:|---:|---:|---:|---:|---:|:---|');
    for (const batch of options.batches) {
      for (const writers of options.writers) {
        const a = results.find((r) => r.store === ours && r.batch === batch && r.writers === writers)!;
        const b = results.find((r) => r.store === peer && r.batch === batch && r.writers === writers)!;
        const ratio = a.eventsPerSecond / b.eventsPerSecond;
        const goal = writers >= 8 ? (ratio >= 1.5 && a.p99Ms <= b.p99Ms ? 'met' : 'not met') : '(not a goal)';
        lines.push(
          `| ${batch} | ${writers} | ${fmtInt(a.eventsPerSecond)} | ${fmtInt(b.eventsPerSecond)} | ${ratio.toFixed(2)}x | ` +
            `${fmtMs(a.p50Ms)} / ${fmtMs(a.p99Ms)} | ${fmtMs(b.p50Ms)} / ${fmtMs(b.p99Ms)} | ${goal} |`,
        );
      }
    }
    lines.push('');
  }
  const errors = results.filter((r) => r.errors > 0);
  if (errors.length > 0) {
    lines.push('Errors during the run:');
    for (const r of errors) lines.push(`- ${r.store}, ${r.writers} writers, batch ${r.batch}: ${r.errors} (${r.firstError})`);
    lines.push('');
  }
  lines.push(
    `Benchmark-process CPU per 1,000 events (driver + store client code, ms): ` +
      options.stores
        .map((s) => `${s} ${results.filter((r) => r.store === s).map((r) => `${r.batch}x${r.writers}w ${r.clientCpuMsPerKEvents.toFixed(0)}`).join(', ')}`)
        .join('; ') +
      '.',
  );
  lines.push('');
  return lines.join('\n');
}
