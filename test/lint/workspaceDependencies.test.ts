import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface PackageJson {
  name: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const readPackage = (dir: string): PackageJson =>
  JSON.parse(readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')) as PackageJson;

const WORKSPACES = (readPackage('.').workspaces ?? []).flatMap((pattern) =>
  globSync(`${pattern}/package.json`, { cwd: ROOT }).map((file) => path.dirname(file)),
);

/** A test or a browser suite: what only it imports is a development dependency. */
const isTestFile = (file: string): boolean => /(^|\/)(test|e2e)\//.test(file) || /\.test\.tsx?$/.test(file);

/** The workspace packages (`@claims/*`) a workspace's own code and its tests import. */
function claimsImports(dir: string): { code: Set<string>; tests: Set<string> } {
  const code = new Set<string>();
  const tests = new Set<string>();
  const files = globSync('**/*.{ts,tsx}', {
    cwd: path.join(ROOT, dir),
    exclude: (name) => ['node_modules', 'dist'].includes(path.basename(String(name))),
  });
  for (const file of files) {
    const text = readFileSync(path.join(ROOT, dir, file), 'utf8');
    for (const [, name] of text.matchAll(/(?:from\s+|import\(\s*)'(@claims\/[a-z-]+)/g)) {
      (isTestFile(file) ? tests : code).add(name!);
    }
  }
  return { code, tests };
}

const claimsKeys = (deps: Record<string, string> | undefined): string[] =>
  Object.keys(deps ?? {})
    .filter((name) => name.startsWith('@claims/'))
    .sort();

describe('workspace package.json files', () => {
  it('finds every workspace', () => {
    expect(WORKSPACES).toEqual(expect.arrayContaining(['contracts', 'packages/format', 'services/api', 'web/admin']));
  });

  // The package graph is read from the package.json files, not by grepping: each declares what it imports.
  it.each(WORKSPACES)('%s declares the @claims packages it imports', (dir) => {
    const pkg = readPackage(dir);
    const { code, tests } = claimsImports(dir);
    code.delete(pkg.name);
    tests.delete(pkg.name);
    const testsOnly = [...tests].filter((name) => !code.has(name)).sort();
    expect({ dependencies: claimsKeys(pkg.dependencies), devDependencies: claimsKeys(pkg.devDependencies) }).toEqual({
      dependencies: [...code].sort(),
      devDependencies: testsOnly,
    });
  });
});
