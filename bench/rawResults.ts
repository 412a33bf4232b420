import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Raw output of a bench run (query plans, CPU profiles) goes to `bench/results/<section>/`, beside the summary in
 * docs/benchmarks.md rather than inside it: a plan carries every id of its query and made the summary 400 KB. The
 * folder is not committed; the summary names the file. Returns the path from the repository's root.
 */
export function writeRawResult(section: string, file: string, content: string | Buffer): string {
  const folder = path.join(root, 'bench', 'results', section);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, file), content);
  return path.relative(root, path.join(folder, file));
}
