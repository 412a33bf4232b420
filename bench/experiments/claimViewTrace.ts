/**
 * The claim view's start-up under Lighthouse, task by task: which main-thread tasks count towards Total Blocking Time
 * and which functions they spend their time in (the V8 sampling profiler, added to Lighthouse's trace).
 * Usage: npx tsx bench/experiments/claimViewTrace.ts [runs] [page...]   (pages: view, start; default 3 runs of view)
 *    or: npx tsx bench/experiments/claimViewTrace.ts saved.trace.json   (a saved trace's tasks again)
 * Env: CHROME_PATH (default /usr/bin/chromium), TRACE_OUT (a folder: each run's trace and report are written there).
 * Serves this checkout's web/portal/dist, so build it first; see README.md "Claim view start-up".
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { startPortalStage } from '../portalBench.js';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  id?: string;
  args?: { name?: string; data?: ProfileData };
}
interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface ProfileData {
  cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] };
  timeDeltas?: number[];
  startTime?: number;
}

/** The page's main thread: the CrRendererMain thread that evaluated the most modules (not Lighthouse's blank page). */
function mainThread(events: TraceEvent[]): { pid: number; tid: number } {
  const names = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  let best = { pid: 0, tid: 0, modules: -1 };
  for (const t of names) {
    const modules = events.filter((e) => e.pid === t.pid && e.tid === t.tid && e.name === 'v8.evaluateModule').length;
    if (modules > best.modules) best = { pid: t.pid, tid: t.tid, modules };
  }
  return best;
}

/** Each profiler sample as (time, function) on the main thread. */
function samples(events: TraceEvent[], pid: number): Array<{ ts: number; frame: string }> {
  const nodes = new Map<number, ProfileNode>();
  const out: Array<{ ts: number; frame: string }> = [];
  const byId = new Map<string, { ts: number }>();
  for (const e of events) {
    if (e.pid !== pid) continue;
    if (e.name === 'Profile' && e.id) byId.set(e.id, { ts: e.args?.data?.startTime ?? e.ts });
    if (e.name !== 'ProfileChunk' || !e.id) continue;
    const data = e.args?.data;
    for (const node of data?.cpuProfile?.nodes ?? []) nodes.set(node.id, node);
    const profile = byId.get(e.id);
    if (!profile) continue;
    const sampleIds = data?.cpuProfile?.samples ?? [];
    const deltas = data?.timeDeltas ?? [];
    sampleIds.forEach((nodeId, i) => {
      profile.ts += deltas[i] ?? 0;
      const frame = nodes.get(nodeId)?.callFrame;
      const file = frame?.url ? frame.url.replace(/^.*\//, '') : '';
      out.push({
        ts: profile.ts,
        frame: frame
          ? `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`
          : '?',
      });
    });
  }
  return out;
}

function analyse(events: TraceEvent[]): string[] {
  const { pid, tid } = mainThread(events);
  const tasks = events
    .filter((e) => e.pid === pid && e.tid === tid && e.name === 'RunTask' && (e.dur ?? 0) >= 8000)
    .sort((a, b) => a.ts - b.ts);
  const sampled = samples(events, pid);
  const navStart = events.find((e) => e.name === 'navigationStart' && e.pid === pid)?.ts ?? tasks[0]?.ts ?? 0;
  const lines: string[] = [];
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    const inside = events.filter(
      (e) => e.pid === pid && e.tid === tid && e.ts >= task.ts && e.ts < end && e.ph === 'X' && e.name !== 'RunTask',
    );
    const kinds = [
      ...new Set(
        inside.map((e) => {
          const url = (e.args?.data as { url?: string } | undefined)?.url;
          return url ? `${e.name}(${url.replace(/^.*\//, '')})` : e.name;
        }),
      ),
    ]
      .filter((k) =>
        /EvaluateScript|v8.compile|FunctionCall|TimerFire|ParseHTML|Layout|UpdateLayoutTree|RunMicrotasks|v8.evaluateModule|EventDispatch|FireAnimationFrame|Paint|HandlePostMessage/.test(
          k,
        ),
      )
      .slice(0, 8);
    const self = new Map<string, number>();
    const own = sampled.filter((s) => s.ts >= task.ts && s.ts < end);
    for (const s of own) self.set(s.frame, (self.get(s.frame) ?? 0) + 1);
    const top = [...self.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([frame, n]) => `${frame} ${((n / Math.max(1, own.length)) * 100).toFixed(0)}%`);
    lines.push(
      `  task at ${((task.ts - navStart) / 1000).toFixed(0)} ms, ${((task.dur ?? 0) / 1000).toFixed(1)} ms: ${kinds.join(', ')}`,
    );
    if (top.length) lines.push(`      ${top.join(' | ')}`);
  }
  return lines;
}

if (process.argv[2]?.endsWith('.json')) {
  // A trace written by an earlier run (TRACE_OUT): its tasks again, without running Lighthouse.
  const saved = JSON.parse(readFileSync(process.argv[2], 'utf8')) as { traceEvents: TraceEvent[] };
  for (const line of analyse(saved.traceEvents)) console.log(line);
  process.exit(0);
}

const runs = Math.max(1, Number(process.argv[2] ?? 3));
const pages = process.argv.slice(3).length ? process.argv.slice(3) : ['view'];
const out = process.env.TRACE_OUT;
if (out) mkdirSync(out, { recursive: true });

const { base, token, chromePort, stop } = await startPortalStage();
try {
  for (const page of pages) {
    const url = page === 'start' ? `${base}/start` : `${base}/view/${token}`;
    for (let i = 0; i < runs; i++) {
      const load = loadavg()[0]!.toFixed(2);
      const result = await lighthouse(url, {
        port: chromePort,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
        additionalTraceCategories: 'disabled-by-default-v8.cpu_profiler',
      });
      if (!result) throw new Error('Lighthouse returned nothing');
      const { lhr, artifacts } = result;
      const ms = (id: string) => (lhr.audits[id]?.numericValue ?? Number.NaN).toFixed(0);
      console.log(
        `${page} run ${i + 1}: performance ${Math.round((lhr.categories.performance?.score ?? 0) * 100)}, FCP ${ms('first-contentful-paint')}, ` +
          `LCP ${ms('largest-contentful-paint')}, TBT ${ms('total-blocking-time')}, SI ${ms('speed-index')}, ` +
          `CLS ${(lhr.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)} (load ${load})`,
      );
      const trace = (artifacts as unknown as { Trace: { traceEvents: TraceEvent[] } }).Trace;
      for (const line of analyse(trace.traceEvents)) console.log(line);
      if (out) {
        writeFileSync(path.join(out, `${page}-${i + 1}.trace.json`), JSON.stringify(trace));
        writeFileSync(path.join(out, `${page}-${i + 1}.report.json`), JSON.stringify(lhr));
      }
    }
  }
} finally {
  await stop();
}
