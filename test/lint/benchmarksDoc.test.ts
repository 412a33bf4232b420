import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchmarksDoc, parseBenchmarksDoc, sections } from '../../bench/run.js';

const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/benchmarks.md'), 'utf8');

/** `make bench` rewrites docs/benchmarks.md from its markers: a section outside them is lost at the next run. */
describe('docs/benchmarks.md', () => {
  it('keeps every section between its markers, so a rerun of one section keeps the others', () => {
    const { runs, sections: found } = parseBenchmarksDoc(doc);
    const headings = doc.split('\n').filter((line) => line.startsWith('## '));
    const kept = [...found.values()].map((s) => s.body.split('\n')[0]);
    expect(kept.sort()).toEqual([...headings].sort());
    const rewritten = benchmarksDoc(
      sections.filter((s) => found.has(s.title)).map((s) => ({ title: s.title, section: found.get(s.title)! })),
      runs,
    );
    expect(rewritten.split('\n').filter((line) => line.startsWith('## '))).toEqual(headings);
  });
});
