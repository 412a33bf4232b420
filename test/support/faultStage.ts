import path from 'node:path';
import type { Permission } from '@claims/contracts';
import { freePort, ServiceProcess, serviceEnv, waiterLoggingTo } from './faultInfra.js';
import { acmeIntegration, ApiClient, type WebhookReceiver } from './faultLoad.js';
import { postgresServer } from './postgresServers.js';
import { createTestDatabase } from './testDatabase.js';

export interface FaultStageOptions {
  /** The run's folder: the processes' logs and data go there. */
  base: string;
  kafkaBrokers: string;
  topic: string;
  groupPrefix: string;
  /** One worker process (`WORKERS=all`) per name. */
  workers: readonly string[];
  /** Settings of the test's own beside the stage's (SMTP, topic durability). */
  env?: NodeJS.ProcessEnv;
  integration: { name: string; permissions: Permission[]; receiver: WebhookReceiver };
}

/** What a multi-process test stands on: its database, an API process, its worker processes and Acme's integrator. */
export interface FaultStage {
  api: ServiceProcess;
  workers: ServiceProcess[];
  client: ApiClient;
  databaseUrl: string;
  storeId: string;
  token: string;
  endpointId: string;
  /** Stops every process (SIGTERM) and drops the database. */
  stop(): Promise<void>;
}

/**
 * A database from the seeded template, an API process (`WORKERS=none`) and worker processes on the given broker and
 * topic, started and answering, with Acme's API token and webhook endpoint.
 */
export async function startFaultStage(options: FaultStageOptions): Promise<FaultStage> {
  const { base } = options;
  const server = postgresServer();
  const created = await createTestDatabase(server.databaseUrl, server.seededTemplate);
  const port = await freePort();
  const client = new ApiClient(`http://127.0.0.1:${port}`);
  const env = {
    ...serviceEnv({
      databaseUrl: created.url,
      kafkaBrokers: options.kafkaBrokers,
      topic: options.topic,
      groupPrefix: options.groupPrefix,
      dataDir: path.join(base, 'data'),
      port,
    }),
    ...options.env,
    SEED_DEMO: 'false',
  };
  const api = new ServiceProcess('api', 'services/api/src/main.ts', path.join(base, 'api.log'));
  const workers = options.workers.map(
    (name) => new ServiceProcess(name, 'services/api/src/ops/workerMain.ts', path.join(base, `${name}.log`)),
  );
  const stop = async () => {
    await api.stop();
    await Promise.all(workers.map((w) => w.stop()));
    await created.drop();
  };
  api.start({ ...env, WORKERS: 'none' });
  for (const worker of workers) worker.start({ ...env, WORKERS: 'all' });
  try {
    await waiterLoggingTo(base)('readiness (database, Kafka, projectors)', () => client.expectStatus('/api/health'));
    const { name, permissions, receiver } = options.integration;
    const integration = await acmeIntegration(client, name, permissions, receiver);
    return { api, workers, client, databaseUrl: created.url, ...integration, stop };
  } catch (error) {
    // A stage that never stood leaves no process running behind the failed test.
    await stop();
    throw error;
  }
}
