import { defineConfig } from 'vitest/config';
import { installedPostgresBin } from './test/support/faultInfra.js';

/**
 * Integration files run two at a time, each worker on a PostgreSQL cluster of its own (globalSetup.ts starts the
 * second from the installed server's programs; without them, one at a time on the one server): a cluster's read
 * horizon (its oldest open transaction) is shared by all its databases, so one file's open transaction would hold
 * another's reads back. The browser files follow, two at a time: most of their time is waiting (on polls, on the
 * browser) and each has a PGlite database of its own.
 */
const BROWSER_FILES = { maxWorkers: 2, sequence: { groupOrder: 2 } } as const;
const SERVER_FILES = { maxWorkers: installedPostgresBin() ? 2 : 1, sequence: { groupOrder: 1 } } as const;

/** A test's timeout catches a hang, not slowness (benchmarks measure that): the longest flows take ~50 s on a loaded two-core machine. */
const HANG_GUARD_MS = 120_000;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'contracts/test/**/*.test.ts',
            'services/domain/test/**/*.test.ts',
            'services/projections/test/**/*.test.ts',
            'packages/*/test/**/*.test.ts',
            'web/ui/test/**/*.test.ts',
            'services/api/test/**/*.test.ts',
            'test/lint/**/*.test.ts',
          ],
          exclude: ['**/*.it.test.ts', '**/node_modules/**'],
          // The projection tests start an in-memory PGlite each; on a busy two-core machine that can take seconds.
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['services/*/test/**/*.it.test.ts', 'test/**/*.it.test.ts'],
          exclude: ['test/faults.it.test.ts', '**/node_modules/**'],
          globalSetup: ['test/support/globalSetup.ts'],
          // Suites that look up and file many times from one address; rateLimit.it.test.ts turns the limits back on.
          env: { RATE_LIMIT_ENABLED: 'false' },
          testTimeout: HANG_GUARD_MS,
          hookTimeout: 120_000,
          ...SERVER_FILES,
        },
      },
      {
        test: {
          // The fault suite runs its own PostgreSQL cluster and Kafka broker and kills them: after every
          // other project, alone. One round here; `make chaos` runs CHAOS_ROUNDS (20).
          name: 'chaos',
          include: ['test/faults.it.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 240_000,
          sequence: { groupOrder: 3 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['web/portal/e2e/**/*.e2e.test.ts', 'web/admin/e2e/**/*.e2e.test.ts'],
          globalSetup: ['test/support/browserGlobalSetup.ts'],
          testTimeout: HANG_GUARD_MS,
          // A page waited on by expect.poll may take seconds to render on a loaded two-core CI machine (the default is 1 s).
          expect: { poll: { timeout: 15_000 } },
          hookTimeout: 120_000,
          ...BROWSER_FILES,
        },
      },
    ],
  },
});
