import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { loadConfig, startRuntime, type Runtime, type RuntimeOptions } from '../../services/api/src/index.js';
import { newDataDir } from './seededDemo.js';
import { postgresServer } from './postgresServers.js';
import { createTestDatabase } from './testDatabase.js';

export type Mode = 'pglite' | 'postgres' | 'postgres+kafka';
export const MODES: readonly Mode[] = ['pglite', 'postgres', 'postgres+kafka'];

export interface TestEnvironment {
  env: NodeJS.ProcessEnv;
  dispose: () => Promise<void>;
}

/** The variables a runtime of the given mode needs: its own database (the demo data in it), data folder and topic. */
export async function testEnvironment(mode: Mode): Promise<TestEnvironment> {
  const { dataDir } =
    mode === 'pglite'
      ? newDataDir('claims-test', false)
      : { dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'claims-test-')) };
  const server = mode === 'pglite' ? null : postgresServer();
  const database = server ? await createTestDatabase(server.databaseUrl, server.seededTemplate) : null;
  const suffix = randomBytes(4).toString('hex');
  return {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: database?.url ?? '',
      KAFKA_BROKERS: mode === 'postgres+kafka' ? inject('kafkaBrokers') : '',
      KAFKA_TOPIC: `claims.events.test.${suffix}`,
      KAFKA_GROUP_PREFIX: `test.${suffix}`,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      // Both kinds of database hold the demo data already (seededDemo.ts).
      SEED_DEMO: 'false',
      PORT: '0',
    },
    dispose: async () => {
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startTestRuntime(
  mode: Mode,
  options: RuntimeOptions = {},
): Promise<{ runtime: Runtime; environment: TestEnvironment; stop: () => Promise<void> }> {
  const environment = await testEnvironment(mode);
  const runtime = await startRuntime(loadConfig(environment.env), { listen: false, ...options });
  return {
    runtime,
    environment,
    stop: async () => {
      await runtime.stop();
      await environment.dispose();
    },
  };
}
