/**
 * The customer portal's weight and Lighthouse scores (`BENCH_ONLY=portal make bench`, or `npx tsx bench/portalBench.ts`).
 *
 * - Initial JS: the entry script of web/portal/dist/index.html and the chunks it preloads, gzipped (level 9), the
 *   bytes a first visit downloads before the first screen (goal < 150 KB).
 * - Lighthouse (npm `lighthouse`, default mobile emulation: Moto G Power screen, simulated slow 4G and 4× CPU
 *   slowdown) on /start and on a claim's view page, performance and accessibility (goals ≥ 95 and 100).
 *
 * The API runs in-process on a fresh PGlite folder with the demo data; one claim is filed for the view page.
 * Env: CHROME_PATH (default /usr/bin/chromium), PORTAL_BENCH_RUNS (Lighthouse runs per page, median; default 3).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags } from 'lighthouse';
import { FileClaimResponse, type FileClaimRequest } from '@claims/contracts';
import { startRuntime } from '../services/api/src/index.js';
import { benchConfig } from './benchConfig.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(root, 'web/portal/dist');

export interface InitialJs {
  files: Array<{ file: string; raw: number; gzip: number }>;
  rawBytes: number;
  gzipBytes: number;
}

/** The entry script and its modulepreloads: what index.html makes the browser fetch before anything renders. */
export function initialJs(dist = DIST): InitialJs {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const urls = [
    ...html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
  ].map((m) => m[1]!);
  const files = [...new Set(urls)].map((url) => {
    const body = readFileSync(path.join(dist, url.replace(/^\//, '')));
    return { file: url, raw: body.length, gzip: gzipSync(body, { level: 9 }).length };
  });
  return { files, rawBytes: files.reduce((n, f) => n + f.raw, 0), gzipBytes: files.reduce((n, f) => n + f.gzip, 0) };
}

/** The numbers of a run, each the median over the runs. */
export type Metric = Exclude<keyof Scores, 'finalUrl'>;

export interface Scores {
  /** Where the page ended (a redirect, say to sign-in, shows here). */
  finalUrl: string;
  performance: number;
  accessibility: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  transferKiB: number;
}

/** One Lighthouse run on `url` in the Chromium on `port`; `flags` adds to the defaults (mobile emulation). */
export async function audit(url: string, port: number, flags: Flags = {}): Promise<Scores> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
    ...flags,
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    finalUrl: lhr.finalDisplayedUrl,
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    transferKiB: numeric('total-byte-weight') / 1024,
  };
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** What Lighthouse runs against: the API serving the built portal with the demo, Chromium, and a filed claim's link. */
export interface PortalStage {
  base: string;
  /** The filed claim's link token: its view is `${base}/view/${token}`. */
  token: string;
  claimId: string;
  chromePort: number;
  stop(): Promise<void>;
}

/** Starts the server (PGlite, the demo seeded) and headless Chromium, and files one claim as a shopper would. */
export async function startPortalStage(): Promise<PortalStage> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-'));
  const runtime = await startRuntime(benchConfig('', dataDir));
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const stop = async () => {
    chrome.kill();
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const { port } = runtime.app.server.address() as AddressInfo;
    const base = `http://127.0.0.1:${port}`;
    const filing: FileClaimRequest = {
      email: 'ava@example.com',
      fulfillmentIssues: [
        {
          sourceFulfillmentId: 'f-1001-1',
          issues: [{ sourceItemId: 'li-1', claimType: 'DAMAGED', quantity: 1, details: 'Torn sleeve.', images: [] }],
        },
      ],
      resolution: { desiredMethod: 'REFUND', customerSignature: 'Ava Stone', updatedShippingAddress: null },
    };
    const filed = await fetch(`${base}/api/claims/acme-5001`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(filing),
    });
    if (filed.status !== 201) throw new Error(`filing the bench claim answered ${filed.status}: ${await filed.text()}`);
    const { token, claimId } = FileClaimResponse.parse(await filed.json());
    return { base, token, claimId, chromePort: chrome.port, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The bench section: markdown for docs/benchmarks.md. */
export async function benchPortal(): Promise<{
  markdown: string;
  initial: InitialJs;
  pages: Array<{ name: string; scores: Scores }>;
}> {
  const initial = initialJs();
  const { base, token, chromePort, stop } = await startPortalStage();
  try {
    const runs = Math.max(1, Number(process.env.PORTAL_BENCH_RUNS ?? 3));
    const pages: Array<{ name: string; url: string }> = [
      { name: '/start', url: `${base}/start` },
      { name: '/view/{token}', url: `${base}/view/${token}` },
    ];
    const results: Array<{ name: string; scores: Scores }> = [];
    for (const page of pages) {
      const all: Scores[] = [];
      for (let i = 0; i < runs; i++) {
        all.push(await audit(page.url, chromePort));
        console.log(
          `  ${page.name} run ${i + 1}/${runs}: performance ${all.at(-1)!.performance}, accessibility ${all.at(-1)!.accessibility}`,
        );
      }
      const pick = (key: Metric) => median(all.map((s) => s[key]));
      results.push({
        name: page.name,
        scores: {
          finalUrl: all[0]!.finalUrl,
          performance: pick('performance'),
          accessibility: pick('accessibility'),
          lcpMs: pick('lcpMs'),
          tbtMs: pick('tbtMs'),
          cls: pick('cls'),
          transferKiB: pick('transferKiB'),
        },
      });
    }

    const kb = (bytes: number) => (bytes / 1024).toFixed(1);
    const markdown = [
      '## Customer portal',
      '',
      `Initial JavaScript (entry and preloaded chunks of \`web/portal/dist/index.html\`, gzip -9): **${kb(initial.gzipBytes)} KB** ` +
        `(${kb(initial.rawBytes)} KB raw; goal < 150 KB).`,
      '',
      '| File | Raw KB | Gzip KB |',
      '|---|---:|---:|',
      ...initial.files.map((f) => `| ${f.file} | ${kb(f.raw)} | ${kb(f.gzip)} |`),
      '',
      `Lighthouse ${lighthouseVersion()} (mobile emulation, simulated throttling; median of ${runs} runs per page; goals: performance ≥ 95, ` +
        'accessibility 100):',
      '',
      '| Page | Performance | Accessibility | LCP ms | TBT ms | CLS | Transferred KiB |',
      '|---|---:|---:|---:|---:|---:|---:|',
      ...results.map(
        ({ name, scores: s }) =>
          `| ${name} | ${s.performance} | ${s.accessibility} | ${s.lcpMs.toFixed(0)} | ${s.tbtMs.toFixed(0)} | ${s.cls.toFixed(3)} | ${s.transferKiB.toFixed(0)} |`,
      ),
      '',
    ].join('\n');
    return { markdown, initial, pages: results };
  } finally {
    await stop();
  }
}

export function lighthouseVersion(): string {
  try {
    return (
      JSON.parse(readFileSync(path.join(root, 'node_modules/lighthouse/package.json'), 'utf8')) as { version: string }
    ).version;
  } catch {
    return '';
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  benchPortal().then(
    ({ markdown }) => console.log(markdown),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
