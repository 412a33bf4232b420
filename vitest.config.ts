import { defineConfig } from 'vitest/config';

/**
 * The integration and browser files share one queue, two files at a time: most of a file's time is spent waiting
 * (on Kafka, on polls, on the browser), and one at a time left the second core idle for 35 minutes. Every file
 * has its own database, data folder, topic and ports; the files that touch the whole server (the read horizon)
 * wait for it rather than assert at once.
 */
const TWO_AT_A_TIME = { maxWorkers: 2, sequence: { groupOrder: 1 } } as const;

/** A test's timeout catches a hang, not slowness (benchmarks measure that): the longest flows take ~50 s on a loaded two-core machine. */
const HANG_GUARD_MS = 120_000;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['contracts/test/**/*.test.ts', 'services/domain/test/**/*.test.ts', 'services/projections/test/**/*.test.ts', 'web/ui/test/**/*.test.ts', 'test/lint/**/*.test.ts'],
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
          ...TWO_AT_A_TIME,
        },
      },
      {
        test: {
          // The fault suite runs its own PostgreSQL cluster and Kafka broker and kills them: after every
          // other project, alone. One round here; CHAOS_MINUTES=5 (`make chaos`) keeps going round.
          name: 'chaos',
          include: ['test/faults.it.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 240_000,
          sequence: { groupOrder: 2 },
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
          ...TWO_AT_A_TIME,
        },
      },
    ],
  },
});
