import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

/** Lints `code` as if it were the file at `file`, with the project's own configuration: the boundary messages. */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'boundaries/dependencies').map((m) => m.message);
}

// The first lint loads the parser and the TypeScript resolver: seconds on a busy two-core machine.
describe('boundaries (eslint-plugin-boundaries in eslint.config.js)', { timeout: 60_000 }, () => {
  it("fails the lint when a feature imports a module inside another feature, any feature folder, not a hand-kept list's", async () => {
    const found = await boundaryErrors(
      'services/api/src/returns/example.ts',
      "import { offeredCreditOf } from '../ab-tests/offeredCredit.js';\nexport const x = offeredCreditOf;\n",
    );
    expect(found).toEqual([
      expect.stringContaining(
        "services/api/src/returns may not import services/api/src/ab-tests: a feature uses the shared kernel and another feature only through that feature's index.ts",
      ),
    ]);
  });

  it("lets a feature use another feature's public entry, the shared kernel and its own modules", async () => {
    const found = await boundaryErrors(
      'services/api/src/desk/example.ts',
      [
        "import { offeredCreditOf } from '../ab-tests/index.js';",
        "import { metaOf } from '../http/requestMeta.js';",
        "import type { AppContext } from '../context.js';",
        "import { toAdminClaimDetail } from './claimDetail.js';",
        "import { formatMoney } from '@claims/format';",
        'export const x: unknown[] = [offeredCreditOf, metaOf, toAdminClaimDetail, formatMoney];',
        'export type Y = AppContext;',
      ].join('\n'),
    );
    expect(found).toEqual([]);
  });

  it('fails the lint when a shared module imports a feature, even through its public entry', async () => {
    const found = await boundaryErrors(
      'services/api/src/http/example.ts',
      "import { sessionIdOf } from '../customer/index.js';\nexport const x = sessionIdOf;\n",
    );
    expect(found).toEqual([expect.stringContaining('services/api/src/http may not import services/api/src/customer')]);
  });

  it('fails the lint when server code imports a web package', async () => {
    for (const file of ['services/api/src/notifications/example.ts', 'services/projections/src/example.ts']) {
      const found = await boundaryErrors(
        file,
        "import { errorText } from '@claims/ui';\nexport const x = errorText;\n",
      );
      expect(found).toEqual([expect.stringContaining('Server code never imports a web package')]);
    }
  });

  it('lets a test reach inside what it tests', async () => {
    const found = await boundaryErrors(
      'services/api/test/example.test.ts',
      "import { offeredCreditOf } from '../src/ab-tests/offeredCredit.js';\nexport const x = offeredCreditOf;\n",
    );
    expect(found).toEqual([]);
  });
});
