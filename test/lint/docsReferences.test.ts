import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Folders that are installed, built or recorded rather than written: nothing in them is a reference of ours. */
const SKIPPED_FOLDERS = new Set([
  'node_modules',
  '.git',
  'dist',
  '.tools',
  '.data',
  '.test-data',
  'coverage',
  'scratch',
  'results',
]);
const SKIPPED_FILES = new Set(['package-lock.json']);
const TEXT_FILE = /\.(ts|tsx|js|mjs|cjs|md|sql|json|ya?ml|sh|css|html)$|^(Makefile|Dockerfile)$/;

function repositoryFiles(folder = ROOT): string[] {
  return readdirSync(folder).flatMap((name) => {
    const file = path.join(folder, name);
    if (statSync(file).isDirectory()) return SKIPPED_FOLDERS.has(name) ? [] : repositoryFiles(file);
    return TEXT_FILE.test(name) && !SKIPPED_FILES.has(name) ? [file] : [];
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; a repeat gets `-1`, `-2`, … */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const repeats = seen.get(slug) ?? 0;
    seen.set(slug, repeats + 1);
    anchors.add(repeats === 0 ? slug : `${slug}-${repeats}`);
  }
  return anchors;
}

interface Reference {
  from: string;
  target: string;
  anchor: string | undefined;
}

/** `docs/….md#anchor` anywhere (from the repository's root), and relative markdown links in markdown files. */
function referencesOf(file: string, text: string): Reference[] {
  const from = path.relative(ROOT, file);
  const rooted = [...text.matchAll(/(?<![\w./-])(docs\/[\w./-]*?\.md)(?:#([\w-]+))?/g)].map((m) => ({
    from,
    target: path.join(ROOT, m[1]!),
    anchor: m[2],
  }));
  if (!file.endsWith('.md')) return rooted;
  const linked = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((href) => !/^[a-z]+:/i.test(href))
    .map((href) => {
      const [target, anchor] = href.split('#') as [string, string | undefined];
      return { from, target: target === '' ? file : path.resolve(path.dirname(file), target), anchor };
    });
  return [...rooted, ...linked];
}

function brokenReferences(files: Array<{ file: string; text: string }>): string[] {
  const anchorsOf = new Map<string, Set<string>>();
  return files.flatMap(({ file, text }) =>
    referencesOf(file, text).flatMap(({ from, target, anchor }) => {
      const shown = `${from} → ${path.relative(ROOT, target)}${anchor ? `#${anchor}` : ''}`;
      let exists: boolean;
      try {
        exists = statSync(target).isFile() || statSync(target).isDirectory();
      } catch {
        exists = false;
      }
      if (!exists) return [`${shown}: no such file`];
      if (!anchor || !target.endsWith('.md')) return [];
      if (!anchorsOf.has(target)) anchorsOf.set(target, headingAnchors(readFileSync(target, 'utf8')));
      return anchorsOf.get(target)!.has(anchor) ? [] : [`${shown}: no such heading`];
    }),
  );
}

describe('references into docs/', () => {
  // This file names missing targets on purpose, to prove they are caught.
  const files = repositoryFiles()
    .filter((file) => file !== import.meta.filename)
    .map((file) => ({ file, text: readFileSync(file, 'utf8') }));

  // Code pointed into one long decisions file by quoted phrases, two of which matched nothing; a path and a heading anchor
  // can be checked, so every reference is one and each must lead somewhere.
  it('lead to a file and a heading that exist', () => {
    expect(brokenReferences(files)).toEqual([]);
  });

  // The product's rules are docs/product.md; "spec §N" named a document the repository does not hold.
  it('cite docs/product.md rather than an outside spec', () => {
    const citing = files
      .filter(({ file, text }) => /\.(ts|tsx)$/.test(file) && /\bspec §/i.test(text))
      .map(({ file }) => path.relative(ROOT, file));
    expect(citing).toEqual([]);
  });

  // A record nobody can find from the index is a decision a newcomer never reads.
  it('include an index entry for every decision record', () => {
    const folder = path.join(ROOT, 'docs/decisions');
    const index = readFileSync(path.join(folder, 'README.md'), 'utf8');
    const unlisted = readdirSync(folder).filter((name) => name !== 'README.md' && !index.includes(`](${name})`));
    expect(unlisted).toEqual([]);
  });

  it('are found and judged: a missing heading and a missing file are reported', () => {
    expect(headingAnchors('# Claim types\n## Store credit bonus\n```\n# not a heading\n```\n## Claim types')).toEqual(
      new Set(['claim-types', 'store-credit-bonus', 'claim-types-1']),
    );
    const code = {
      file: path.join(ROOT, 'services/example.ts'),
      text: '// docs/product.md#no-such-rule, docs/missing.md',
    };
    const page = { file: path.join(ROOT, 'docs/example.md'), text: 'See [the rules](product.md#no-such-rule).' };
    expect(brokenReferences([code, page])).toEqual([
      'services/example.ts → docs/product.md#no-such-rule: no such heading',
      'services/example.ts → docs/missing.md: no such file',
      'docs/example.md → docs/product.md#no-such-rule: no such heading',
    ]);
  });
});
