/**
 * The HTTP client side of bench/claimDeskBench.ts, in a worker thread: the API under test runs on the main
 * thread of the same process, so the client's own work (sending, reading and parsing answers) does not queue
 * on the server's event loop and inflate what is measured. Requests go through Node's fetch (undici),
 * keep-alive connections.
 */
import { parentPort } from 'node:worker_threads';
import { startCpuSample, type CpuShare } from './cpuSampler.js';

export type ClientJob =
  | {
      kind: 'pages';
      /** Full URL of the first page (with its query string, without a cursor). */
      url: string;
      headers: Record<string, string>;
      /** Pages followed (untimed) before the timed ones; with 0, `warmup` fetches of the first page come first. */
      skip: number;
      warmup: number;
      samples: number;
      /** Time the same page every time (the first page), or follow nextCursor from page to page. */
      follow: boolean;
    }
  | {
      kind: 'resolve';
      base: string;
      /** Bearer tokens; client i uses tokens[i % tokens.length]. */
      tokens: string[];
      claimIds: string[];
      clients: number;
      warmupSeconds: number;
      seconds: number;
    };

export interface PagesResult {
  kind: 'pages';
  latenciesMs: number[];
  /** The page number (1 = first page) of the first timed page, and of the last one. */
  firstTimedPage: number;
  lastTimedPage: number;
  /** How often the timed pages ran out of results and started again at the first timed page. */
  wraps: number;
  rowsPerPage: number;
  /** The cursor of each timed request (null: the first page), to replay the same pages without HTTP. */
  cursors: (string | null)[];
  /** Machine CPU shares while the timed pages ran; null off Linux. */
  cpu: CpuShare | null;
}

export interface ResolveResult {
  kind: 'resolve';
  latenciesMs: number[];
  ok: number;
  errors: number;
  firstError: string | null;
  seconds: number;
  warmupRequests: number;
  ranOut: boolean;
  /** Machine CPU shares during the measured window (the pool's connections are open by then); null off Linux. */
  cpu: CpuShare | null;
}

interface Page {
  data: unknown[];
  nextCursor: string | null;
}

async function getPage(url: string, headers: Record<string, string>): Promise<Page> {
  const response = await fetch(url, { headers });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${body.slice(0, 300)}`);
  return JSON.parse(body) as Page;
}

const withCursor = (url: string, cursor: string | null) =>
  cursor ? `${url}${url.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}` : url;

async function pages(job: Extract<ClientJob, { kind: 'pages' }>): Promise<PagesResult> {
  let cursor: string | null = null;
  let page = 1;
  if (job.skip === 0) {
    for (let i = 0; i < job.warmup; i++) await getPage(job.url, job.headers);
  }
  for (let i = 0; i < job.skip; i++) {
    const got = await getPage(withCursor(job.url, cursor), job.headers);
    if (!got.nextCursor) break; // fewer pages than asked to skip (a small run): time from the last one
    cursor = got.nextCursor;
    page++;
  }
  const start = { cursor, page };
  const latenciesMs: number[] = [];
  let wraps = 0;
  let rowsPerPage = 0;
  let lastTimedPage = page;
  const stopCpu = startCpuSample();
  const cursors: (string | null)[] = [];
  for (let i = 0; i < job.samples; i++) {
    cursors.push(cursor);
    const t0 = performance.now();
    const got = await getPage(withCursor(job.url, cursor), job.headers);
    latenciesMs.push(performance.now() - t0);
    rowsPerPage = Math.max(rowsPerPage, got.data.length);
    lastTimedPage = Math.max(lastTimedPage, page);
    if (!job.follow) continue;
    if (got.nextCursor) {
      cursor = got.nextCursor;
      page++;
    } else {
      ({ cursor, page } = start);
      wraps++;
    }
  }
  return {
    kind: 'pages',
    latenciesMs,
    firstTimedPage: start.page,
    lastTimedPage,
    wraps,
    rowsPerPage,
    cursors,
    cpu: stopCpu(),
  };
}

/** Closed loop: each client resolves the next unused claim, waits for the answer, and goes on. */
async function resolve(job: Extract<ClientJob, { kind: 'resolve' }>): Promise<ResolveResult> {
  let next = 0;
  type Phase = 'warmup' | 'measure' | 'done';
  const state: { phase: Phase } = { phase: 'warmup' };
  const phase = (): Phase => state.phase;
  let warmupRequests = 0;
  let ok = 0;
  let errors = 0;
  let firstError: string | null = null;
  let ranOut = false;
  const latenciesMs: number[] = [];
  const body = JSON.stringify({ resolutionType: 'REFUND' });
  const client = async (index: number) => {
    const headers = {
      authorization: `Bearer ${job.tokens[index % job.tokens.length]}`,
      'content-type': 'application/json',
    };
    while (phase() !== 'done') {
      const claimId = job.claimIds[next++];
      if (!claimId) {
        ranOut = true;
        return;
      }
      const counted = phase() === 'measure';
      const t0 = performance.now();
      let failure: string | null = null;
      try {
        const response = await fetch(`${job.base}/api/v1/claims/${claimId}/resolve`, { method: 'POST', headers, body });
        const text = await response.text();
        if (response.status !== 200) failure = `${response.status}: ${text.slice(0, 200)}`;
      } catch (error) {
        failure = String(error);
      }
      const ms = performance.now() - t0;
      // A request started in the warm-up does not count, even when it ends in the measured window.
      if (!counted || phase() === 'done') {
        if (!counted) warmupRequests++;
        continue;
      }
      if (failure) {
        errors++;
        firstError ??= failure;
      } else {
        ok++;
        latenciesMs.push(ms);
      }
    }
  };
  const running = Array.from({ length: job.clients }, (_, index) => client(index));
  await new Promise((r) => setTimeout(r, job.warmupSeconds * 1000));
  state.phase = 'measure';
  const stopCpu = startCpuSample();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, job.seconds * 1000));
  state.phase = 'done';
  const seconds = (performance.now() - t0) / 1000;
  const cpu = stopCpu();
  await Promise.all(running);
  return { kind: 'resolve', latenciesMs, ok, errors, firstError, seconds, warmupRequests, ranOut, cpu };
}

parentPort?.on('message', (job: ClientJob) => {
  (job.kind === 'pages' ? pages(job) : resolve(job)).then(
    (result) => parentPort!.postMessage({ ok: true, result }),
    (error: unknown) =>
      parentPort!.postMessage({
        ok: false,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
  );
});
