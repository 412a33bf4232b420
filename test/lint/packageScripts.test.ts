import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('npm scripts', () => {
  // `npm run seed` once named a file that did not exist: every script that runs a file names one that does.
  it('runs only files that exist', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const files = Object.values(scripts).flatMap((script) =>
      [...script.matchAll(/\btsx\s+(\S+\.ts)\b/g)].map((m) => m[1]!),
    );
    expect(files).toContain('services/api/src/seed/seedCli.ts');
    expect(files.filter((file) => !existsSync(path.join(ROOT, file)))).toEqual([]);
  });
});
