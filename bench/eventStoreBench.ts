import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { storeLabel, type StoreKind } from './eventStoreAdapters.js';
import type { CpuShare } from './cpuSampler.js';
import type { SliceReply, WorkerCommand, WorkerMessage, WorkerStart } from './eventStoreWorker.js';
import type { WorkloadOptions } from './eventStoreWorkload.js';
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
  /** The measured time per store and case is cut into slices of this length, the stores taking turns. */
  sliceSeconds?: number;
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
  /** Average machine CPU shares during the measured windows (1 = all cores); null off Linux. */
  cpu: CpuShare | null;
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
  return store === 'ours'
    ? baseUrl
    : withDatabase(baseUrl, `${databaseName(baseUrl)}_${store.replace(/[^a-z0-9]/g, '_')}`);
}

const WORKER = fileURLToPath(new URL('./eventStoreWorker.ts', import.meta.url));

/** One store's child process, driven slice by slice over IPC. */
class Worker {
  private readonly child;
  private readonly waiting: ((message: WorkerMessage) => void)[] = [];
  private exited: Error | null = null;

  constructor(readonly start: WorkerStart) {
    // fork() reuses this process's execArgv, which carries tsx's loader.
    this.child = fork(WORKER, [JSON.stringify(start)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (message: WorkerMessage) => this.waiting.shift()?.(message));
    this.child.on('exit', (code, signal) => {
      if (code !== 0) this.exited = new Error(`${start.store} worker exited with ${signal ?? code}`);
    });
  }

  private next(timeoutSeconds: number): Promise<WorkerMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.child.kill('SIGKILL');
        reject(new Error(`${this.start.store} worker did not answer in ${timeoutSeconds} s`));
      }, timeoutSeconds * 1000);
      const poll = setInterval(() => {
        if (this.exited) {
          clearTimeout(timer);
          clearInterval(poll);
          reject(this.exited);
        }
      }, 200);
      this.waiting.push((message) => {
        clearTimeout(timer);
        clearInterval(poll);
        resolve(message);
      });
    });
  }

  ready(): Promise<WorkerMessage> {
    return this.next(120);
  }

  async run(workload: WorkloadOptions): Promise<SliceReply> {
    const reply = this.next(workload.warmupSeconds + workload.seconds + 120);
    this.child.send({ type: 'run', workload } satisfies WorkerCommand);
    return (await reply) as SliceReply;
  }

  async close(): Promise<void> {
    const reply = this.next(60);
    this.child.send({ type: 'close' } satisfies WorkerCommand);
    await reply;
  }
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
    seconds: opts.seconds ?? envNumber('BENCH_SECONDS') ?? 8,
    sliceSeconds: opts.sliceSeconds ?? envNumber('BENCH_SLICE_SECONDS') ?? 1,
    poolSize: opts.poolSize ?? Number(process.env.DB_POOL_SIZE ?? 20),
  };
  const log = opts.log ?? ((line: string) => console.log(line));

  for (const store of options.stores) await recreateDatabase(storeUrl(options.url, store));

  const results: CaseResult[] = [];
  for (const batch of options.batches) {
    for (const writers of options.writers) {
      const slices = new Map<StoreKind, SliceReply[]>(options.stores.map((s) => [s, []]));
      for (const store of options.stores) await checkpoint(storeUrl(options.url, store));
      const workers = options.stores.map(
        (store) => new Worker({ store, url: storeUrl(options.url, store), poolSize: options.poolSize }),
      );
      try {
        await Promise.all(workers.map((w) => w.ready()));
        const workload = (warmupSeconds: number, seconds: number): WorkloadOptions => ({
          writers,
          batch,
          updatesPerStream: options.updatesPerStream,
          warmupSeconds,
          seconds,
        });
        for (const worker of workers) await worker.run(workload(options.warmupSeconds, 0));
        const rounds = Math.max(1, Math.round(options.seconds / options.sliceSeconds));
        for (let round = 0; round < rounds; round++) {
          // Take turns (two stores: A B, B A, A B, ...), so bursts of other load hit every store alike.
          const order = round % 2 === 0 ? workers : [...workers].reverse();
          for (const worker of order)
            slices.get(worker.start.store)!.push(await worker.run(workload(0, options.sliceSeconds)));
        }
      } finally {
        await Promise.allSettled(workers.map((w) => w.close()));
      }
      for (const store of options.stores) {
        const result = summarize(store, writers, batch, slices.get(store)!);
        results.push(result);
        log(
          `event-store  ${store.padEnd(12)} batch ${String(batch).padStart(2)}  writers ${String(writers).padStart(2)}  ` +
            `${fmtInt(result.eventsPerSecond).padStart(7)} events/s  p50 ${fmtMs(result.p50Ms)} ms  p99 ${fmtMs(result.p99Ms)} ms` +
            (result.cpu
              ? `  cpu: busy ${pct(result.cpu.busy)}, postgres ${pct(result.cpu.postgres)}, bench ${pct(result.cpu.self)}, other ${pct(result.cpu.other)}`
              : '') +
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

function summarize(store: StoreKind, writers: number, batch: number, replies: SliceReply[]): CaseResult {
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
    cpu: averageShare(replies.map((r) => r.cpu)),
  };
}

function averageShare(shares: (CpuShare | null)[]): CpuShare | null {
  const known = shares.filter((s): s is CpuShare => s !== null);
  if (known.length === 0) return null;
  const avg = (key: keyof CpuShare): number => known.reduce((sum, s) => sum + s[key], 0) / known.length;
  return { busy: avg('busy'), postgres: avg('postgres'), self: avg('self'), other: avg('other') };
}

function pct(share: number): string {
  return `${Math.round(share * 100)}%`;
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
      `Per case: a PostgreSQL CHECKPOINT, then each store in a fresh Node process of its own, ${options.warmupSeconds} s ` +
      `warm-up each, then ${options.seconds} s measured per store in ${options.sliceSeconds} s slices, the stores taking turns ` +
      `(A B B A A B …) so that bursts of other load on the machine hit both alike. Both use a pg pool of ${options.poolSize} connections ` +
      `(DB_POOL_SIZE) and a database of their own on the same server, created empty at the start of the run. ` +
      'Latency is per append as the caller sees it (including waiting for a pooled connection).',
  );
  lines.push('');
  for (const peer of peers) {
    lines.push(
      `| Events/append | Writers | ${storeLabel(ours)} events/s | ${storeLabel(peer)} events/s | Throughput ratio | Ours p50 / p99 (ms) | Peer p50 / p99 (ms) | Goal (≥1.5x, p99 not worse) |`,
    );
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
  const others = results.map((r) => r.cpu?.other).filter((o): o is number => o !== undefined);
  const meanOther = others.length ? others.reduce((a, b) => a + b, 0) / others.length : 0;
  if (meanOther > 0.15) {
    lines.push(
      `> Other work on the machine used on average ${pct(meanOther)} of its CPU during the measured windows (table below): ` +
        'the absolute numbers are lower than on an idle machine. The stores took turns every ' +
        `${options.sliceSeconds} s, so the ratios are still a fair comparison.`,
    );
    lines.push('');
  }
  lines.push(
    'Why ours is not further ahead, and what closes the gap (measured on copies of the append): ' +
      '[bench/experiments/README.md](../bench/experiments/README.md).',
  );
  lines.push('');
  const errors = results.filter((r) => r.errors > 0);
  if (errors.length > 0) {
    lines.push('Errors during the run:');
    for (const r of errors)
      lines.push(`- ${r.store}, ${r.writers} writers, batch ${r.batch}: ${r.errors} (${r.firstError})`);
    lines.push('');
  }
  lines.push(
    'Where the CPU went during the measured windows (shares of the whole machine, 100% = every core busy; ' +
      '"other" is everything not PostgreSQL and not the benchmark process, i.e. noise from the rest of the machine), ' +
      "and the benchmark process's own CPU per 1,000 events (driver + store client code):",
  );
  lines.push('');
  lines.push(
    '| Store | Events/append | Writers | Machine busy | PostgreSQL | Bench process | Other | Client CPU ms / 1k events |',
  );
  lines.push('|:---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    const c = r.cpu;
    lines.push(
      `| ${r.store} | ${r.batch} | ${r.writers} | ${c ? pct(c.busy) : '–'} | ${c ? pct(c.postgres) : '–'} | ${c ? pct(c.self) : '–'} | ` +
        `${c ? pct(c.other) : '–'} | ${r.clientCpuMsPerKEvents.toFixed(0)} |`,
    );
  }
  lines.push('');
  return lines.join('\n');
}
