import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

/** Lints `code` as if it were the file at `file`, with the project's own configuration. */
async function restrictedImports(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe("the API's feature boundaries (eslint.config.js)", () => {
  it("fails the lint when a feature imports another feature's routes", async () => {
    const found = await restrictedImports(
      'services/api/src/public-v1/example.ts',
      "import { claimRoutes } from '../customer/claimRoutes.js';\nexport const x = claimRoutes;\n",
    );
    expect(found).toEqual([expect.stringContaining('never imports another feature')]);
  });

  it('fails the lint when a shared module imports any feature', async () => {
    const found = await restrictedImports(
      'services/api/src/http/example.ts',
      "import { closeDraftOnFiling } from '../customer/draftSessions.js';\nexport const x = closeDraftOnFiling;\n",
    );
    expect(found).toEqual([expect.stringContaining('depend on no feature')]);
  });

  it('lets a feature use the shared request helpers and its own modules', async () => {
    const found = await restrictedImports(
      'services/api/src/desk/example.ts',
      "import { metaOf } from '../http/requestMeta.js';\nimport { toAdminClaimDetail } from './claimDetail.js';\nexport const x = [metaOf, toAdminClaimDetail];\n",
    );
    expect(found).toEqual([]);
  });
});
