/**
 * `make bench` (= `npm run bench`): runs every benchmark section in turn, prints progress, and rewrites
 * docs/benchmarks.md: a short header, then each section's tables under its heading with the command and machine of the
 * run that produced it. Raw output (query plans, CPU profiles) goes to bench/results/<section>/ (bench/rawResults.ts),
 * not into the markdown. To add a benchmark, add an entry to `sections`: a title, the start of its `## ` heading, and a
 * function returning markdown.
 *
 * BENCH_SECTIONS (or BENCH_ONLY) runs some sections only, e.g. `BENCH_SECTIONS=claim-desk` (names compare without
 * case or dashes, so `claimDesk` works too): the other sections keep their text, and their run's date and machine,
 * from the existing file.
 *
 * Env: BENCH_DATABASE_URL (database to drop and recreate; default postgres://postgres@127.0.0.1:5432/claims_bench,
 * or DATABASE_URL's server with database claims_bench), DB_POOL_SIZE (20), BENCH_SECONDS, BENCH_WARMUP_SECONDS,
 * BENCH_WRITERS (e.g. "1,8,32"), BENCH_BATCHES (e.g. "1,10"), BENCH_SECTIONS / BENCH_ONLY (comma-separated section
 * titles), BENCH_OUT; the claim-desk section's own BENCH_DESK_* (bench/claimDeskBench.ts); the fault-suite section's
 * CHAOS_MINUTES (5; `make chaos` runs that section alone); the finance-replay section's BENCH_FINANCE_* (bench/financeReplayBench.ts);
 * the projections section's BENCH_PROJECTIONS_* (bench/projectionsBench.ts); the soak section's BENCH_SOAK_* (bench/soakBench.ts);
 * the automation section's BENCH_AUTOMATION_*; the order ingestion section's BENCH_ORDERS_* (bench/ordersBench.ts); the
 * broker-loss section's BENCH_BROKER_LOSS_RUNS (bench/brokerLossBench.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { benchEventStores } from './eventStoreBench.js';
import { benchPortal } from './portalBench.js';
import { benchClaimDesk } from './claimDeskBench.js';
import { benchFaultSuite } from './faultSuiteBench.js';
import { benchBrokerLoss } from './brokerLossBench.js';
import { benchCommands } from './commandsBench.js';
import { benchFinanceReplay } from './financeReplayBench.js';
import { benchProjections } from './projectionsBench.js';
import { benchSoak } from './soakBench.js';
import { benchOrders } from './ordersBench.js';
import { benchDeskAccessibility } from './deskAccessibilityBench.js';
import { benchAutomation } from './automationBench.js';
import { machineInfo, machineMarkdown } from './machine.js';
import { benchDatabaseUrl } from './postgres.js';

export interface BenchSection {
  title: string;
  /** How the section's markdown starts: finds its text in a file written before section markers. */
  heading: string;
  run(context: { databaseUrl: string }): Promise<string>;
}

export const sections: BenchSection[] = [
  {
    title: 'event-store',
    heading: '## Event store',
    run: async ({ databaseUrl }) => (await benchEventStores({ url: databaseUrl })).markdown,
  },
  { title: 'portal', heading: '## Customer portal', run: async () => (await benchPortal()).markdown },
  {
    title: 'claim-desk',
    heading: '## Claim desk',
    run: async ({ databaseUrl }) => (await benchClaimDesk({ url: databaseUrl })).markdown,
  },
  { title: 'fault-suite', heading: '## Fault suite', run: benchFaultSuite },
  { title: 'commands', heading: '## Commands over HTTP', run: benchCommands },
  {
    title: 'finance-replay',
    heading: '## Finance replay',
    run: async ({ databaseUrl }) => (await benchFinanceReplay({ url: databaseUrl })).markdown,
  },
  {
    title: 'projections',
    heading: '## Projections',
    run: async ({ databaseUrl }) => (await benchProjections({ url: databaseUrl })).markdown,
  },
  { title: 'soak', heading: '## Soak', run: benchSoak },
  { title: 'automation', heading: '## Automation', run: benchAutomation },
  { title: 'orders', heading: '## Order ingestion', run: benchOrders },
  { title: 'broker-loss', heading: '## Broker loss', run: benchBrokerLoss },
  { title: 'desk-accessibility', heading: '## Back-office accessibility', run: benchDeskAccessibility },
];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const normalise = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The sections BENCH_SECTIONS / BENCH_ONLY name (all when unset); an unknown name is an error, not a silent no-op. */
export function selectSections(env: NodeJS.ProcessEnv = process.env): BenchSection[] {
  const names = (env.BENCH_SECTIONS ?? env.BENCH_ONLY)
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!names?.length) return sections;
  const unknown = names.filter((n) => !sections.some((s) => normalise(s.title) === normalise(n)));
  if (unknown.length)
    throw new Error(
      `Unknown bench section(s) ${unknown.join(', ')}; the sections are ${sections.map((s) => s.title).join(', ')}`,
    );
  return sections.filter((s) => names.some((n) => normalise(n) === normalise(s.title)));
}

export interface RunBlock {
  /** ISO time the run started. */
  run: string;
  command: string;
  machine: string;
}

export interface KeptSection {
  run: string;
  body: string;
}

const RUN_LINE = /^Run (\S+?)(?: \(([^)]*)\))? on:$/;

/** The lines of a run block: `Run <time> (`<command>`) on:`, a blank line, the machine as a list. */
function runBlockLines(block: RunBlock | undefined, run: string): string[] {
  return [`Run ${run} (\`${block?.command ?? 'make bench'}\`) on:`, '', block?.machine ?? '- (machine not recorded)'];
}

/** A section's text without the run block written under its heading, and that block. */
function withoutRunBlock(text: string, fallbackCommand: string): { run: RunBlock | null; body: string } {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => RUN_LINE.test(l));
  if (at === -1) return { run: null, body: text };
  const match = RUN_LINE.exec(lines[at]!)!;
  let end = at + 2;
  while (end < lines.length && lines[end]!.startsWith('- ')) end++;
  const command = /`([^`]+)`/.exec(match[2] ?? '')?.[1] ?? fallbackCommand;
  const run = { run: match[1]!, command, machine: lines.slice(at + 2, end).join('\n') };
  const rest = [...lines.slice(0, at), ...lines.slice(end + (lines[end] === '' ? 1 : 0))];
  return { run, body: rest.join('\n').trim() };
}

/** A section's text with its run block under the heading (the heading is the text's first line). */
function withRunBlock(text: string, lines: string[]): string {
  const [heading, ...rest] = text.split('\n');
  return [heading, '', ...lines, '', ...rest].join('\n').replace(/\n{3,}/g, '\n\n');
}

/** What an existing docs/benchmarks.md holds: each section's text and run, and each run's command and machine. */
export function parseBenchmarksDoc(doc: string): { runs: Map<string, RunBlock>; sections: Map<string, KeptSection> } {
  const runs = new Map<string, RunBlock>();
  const found = new Map<string, KeptSection>();
  const lines = doc.split('\n');
  const firstBody = lines.findIndex((l) => l.startsWith('<!-- bench-section:') || l.startsWith('## '));
  const header = firstBody === -1 ? lines : lines.slice(0, firstBody);
  const legacyCommand = /```sh\n(.*)\n```/.exec(header.join('\n'))?.[1] ?? 'make bench';
  for (let i = 0; i < header.length; i++) {
    const match = RUN_LINE.exec(header[i]!);
    if (!match) continue;
    const machine: string[] = [];
    for (let j = i + 2; j < header.length && header[j]!.startsWith('- '); j++) machine.push(header[j]!);
    const command = /`([^`]+)`/.exec(match[2] ?? '')?.[1] ?? legacyCommand;
    runs.set(match[1]!, { run: match[1]!, command, machine: machine.join('\n') });
  }
  const body = firstBody === -1 ? '' : lines.slice(firstBody).join('\n');
  const marked = [
    ...body.matchAll(/<!-- bench-section: (\S+) run (\S+) -->\n([\s\S]*?)\n<!-- \/bench-section: \1 -->/g),
  ];
  if (marked.length > 0) {
    for (const m of marked) {
      const { run, body: text } = withoutRunBlock(m[3]!.trim(), legacyCommand);
      if (run) runs.set(run.run, run);
      found.set(m[1]!, { run: m[2]!, body: text });
    }
  } else if (body) {
    // Written before the markers: one run, sections told apart by their headings.
    const run = [...runs.keys()][0] ?? 'unknown';
    const chunks = body.split(/\n(?=## )/);
    let current: string | null = null;
    for (const chunk of chunks) {
      const section = sections.find((s) => chunk.startsWith(s.heading));
      if (section) current = section.title;
      if (!current) continue;
      const kept = found.get(current);
      found.set(current, { run, body: kept ? `${kept.body}\n${chunk}`.trim() : chunk.trim() });
    }
  }
  return { runs, sections: found };
}

/** docs/benchmarks.md from each section's text and the runs they came from. */
export function benchmarksDoc(
  kept: Array<{ title: string; section: KeptSection }>,
  runs: Map<string, RunBlock>,
): string {
  return (
    [
      '# Benchmarks',
      '',
      'What each part of the product costs, measured: every section gives its tables, the command that reproduces it ' +
        "and the machine it ran on. Generated by `bench/run.ts`; a section's prose is the bench's own, so edit the bench, " +
        'not this file.',
      '',
      '`make bench` runs `npm run bench`, i.e. `tsx bench/run.ts`; it needs a PostgreSQL server, by default ' +
        '`postgres://postgres@127.0.0.1:5432`, where it drops and recreates the `claims_bench*` databases. ' +
        "`BENCH_SECTIONS=<title>` reruns one section and keeps the others' text. Raw output (query plans, CPU profiles) " +
        'is written to `bench/results/<section>/`, which is not committed.',
      '',
      ...kept.flatMap((s) => [
        `<!-- bench-section: ${s.title} run ${s.section.run} -->`,
        withRunBlock(s.section.body, runBlockLines(runs.get(s.section.run), s.section.run)),
        `<!-- /bench-section: ${s.title} -->`,
        '',
      ]),
    ].join('\n') + '\n'
  );
}

async function main(): Promise<void> {
  const databaseUrl = benchDatabaseUrl();
  const selected = selectSections();
  const out = process.env.BENCH_OUT ?? path.join(root, 'docs', 'benchmarks.md');
  const previous =
    selected.length < sections.length && fs.existsSync(out)
      ? parseBenchmarksDoc(fs.readFileSync(out, 'utf8'))
      : { runs: new Map<string, RunBlock>(), sections: new Map<string, KeptSection>() };
  const machine = await machineInfo(databaseUrl);
  const started = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const bodies = new Map<string, KeptSection>();
  for (const section of selected) {
    console.log(`== ${section.title}`);
    const t0 = Date.now();
    bodies.set(section.title, { run: started, body: (await section.run({ databaseUrl })).trim() });
    console.log(`== ${section.title} done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
  const host = new URL(databaseUrl).host;
  const overrides = [
    'BENCH_DATABASE_URL',
    'DB_POOL_SIZE',
    'BENCH_SECONDS',
    'BENCH_WARMUP_SECONDS',
    'BENCH_WRITERS',
    'BENCH_BATCHES',
    'BENCH_SECTIONS',
    'BENCH_ONLY',
    'CHAOS_MINUTES',
  ]
    .concat(
      Object.keys(process.env)
        .filter(
          (name) =>
            name.startsWith('BENCH_DESK_') ||
            name.startsWith('BENCH_FINANCE_') ||
            name.startsWith('BENCH_PROJECTIONS_') ||
            name.startsWith('BENCH_SOAK_') ||
            name.startsWith('BENCH_AUTOMATION_') ||
            name.startsWith('BENCH_ORDERS_'),
        )
        .sort(),
    )
    .filter((name) => process.env[name])
    .map((name) => `${name}=${name === 'BENCH_DATABASE_URL' ? '…' : process.env[name]}`);
  const command = `${overrides.length ? overrides.join(' ') + ' ' : ''}make bench`;
  const runs = new Map<string, RunBlock>(previous.runs);
  runs.set(started, { run: started, command, machine: machineMarkdown(machine, host) });
  // Every section, in the list's order: this run's text, else the text kept from the file.
  const kept = sections
    .map((s) => ({ title: s.title, section: bodies.get(s.title) ?? previous.sections.get(s.title) }))
    .filter((s): s is { title: string; section: KeptSection } => s.section !== undefined);
  // Laid out as `make format` would, so a fresh run passes the formatter check of `make test`.
  const doc = await prettier.format(benchmarksDoc(kept, runs), {
    ...(await prettier.resolveConfig(out)),
    filepath: out,
  });
  fs.writeFileSync(out, doc);
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
