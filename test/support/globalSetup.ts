import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ALL_MIGRATIONS } from '../../services/api/src/runtime.js';
import { installedPostgresBin, ownPostgres } from './faultInfra.js';
import { migratedTemplateDatabase } from './migratedDatabase.js';
import type { PostgresServer } from './postgresServers.js';
import { seedDataDirOnce, seedTemplateOnce } from './seededDemo.js';

const root = path.resolve(import.meta.dirname, '../..');
const infra = (script: string, ...args: string[]) =>
  execFileSync(path.join(root, 'infra/scripts', script), args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });

interface Endpoints {
  databaseUrl: string;
  kafkaBrokers: string;
  teardown: () => Promise<void>;
}

/** Containers when a Docker engine answers (testcontainers), none otherwise. */
async function fromContainers(): Promise<Endpoints | null> {
  const { getContainerRuntimeClient, GenericContainer, Wait } = await import('testcontainers');
  try {
    await getContainerRuntimeClient();
  } catch {
    return null;
  }
  const postgres = await new GenericContainer('postgres:17')
    .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust', POSTGRES_DB: 'claims' })
    .withExposedPorts(5432)
    .withWaitStrategy(Wait.forLogMessage(/ready to accept connections/, 2))
    .start();
  const kafka = await new GenericContainer('apache/kafka:3.9.1')
    .withExposedPorts({ container: 9092, host: 19092 })
    .withEnvironment({
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
      KAFKA_ADVERTISED_LISTENERS: 'PLAINTEXT://127.0.0.1:19092',
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
    })
    .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
    .start();
  return {
    databaseUrl: `postgres://postgres@${postgres.getHost()}:${postgres.getMappedPort(5432)}/claims`,
    kafkaBrokers: '127.0.0.1:19092',
    teardown: async () => {
      await kafka.stop();
      await postgres.stop();
    },
  };
}

/** The local PostgreSQL and a KRaft broker from Maven Central (`make infra`); stops what it started. */
function fromLocalInfra(): Endpoints {
  let brokerWasRunning = true;
  try {
    infra('kafka.sh', 'status');
  } catch {
    brokerWasRunning = false;
  }
  const env = Object.fromEntries(
    infra('infra.sh', 'up')
      .trim()
      .split('\n')
      .map((line) => line.split(/=(.*)/s).slice(0, 2)),
  );
  return {
    databaseUrl: env.DATABASE_URL!,
    kafkaBrokers: env.KAFKA_BROKERS!,
    teardown: async () => {
      if (!brokerWasRunning) infra('kafka.sh', 'stop', '--clean');
    },
  };
}

/** The server's template databases: every migration applied, then a copy of that with the demo seeded. */
async function templatesOn(databaseUrl: string): Promise<{ server: PostgresServer; drop: () => Promise<void> }> {
  // Every file's database is a copy of one migrated here once, rather than each running every migration anew.
  const migrated = await migratedTemplateDatabase(databaseUrl, ALL_MIGRATIONS);
  const seeded = await seedTemplateOnce(databaseUrl, migrated.name);
  return {
    server: { databaseUrl, migratedTemplate: migrated.name, seededTemplate: seeded.name },
    drop: async () => {
      await seeded.drop();
      await migrated.drop();
    },
  };
}

/**
 * Clusters of the tests' own beside the given server, one per further worker: a cluster's read horizon (its oldest
 * open transaction) is shared by all its databases, so files running side by side on one cluster hold back each
 * other's reads (a metrics test saw it). Started with the packages' own programs, as `make infra` would.
 */
async function ownClusters(count: number): Promise<{ urls: string[]; stop: () => Promise<void> }> {
  const clusters = await Promise.all(
    Array.from({ length: count }, async () => {
      const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-test-pg-'));
      const cluster = await ownPostgres(runDir);
      await cluster.start();
      return { cluster, runDir };
    }),
  );
  return {
    urls: clusters.map((c) => c.cluster.url),
    stop: async () => {
      await Promise.all(
        clusters.map(async ({ cluster, runDir }) => {
          await cluster.dispose();
          fs.rmSync(runDir, { recursive: true, force: true });
        }),
      );
    },
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given =
    process.env.DATABASE_URL && process.env.KAFKA_BROKERS
      ? {
          databaseUrl: process.env.DATABASE_URL,
          kafkaBrokers: process.env.KAFKA_BROKERS,
          teardown: async () => undefined,
        }
      : null;
  const endpoints = given ?? (await fromContainers()) ?? fromLocalInfra();
  const extra = installedPostgresBin()
    ? await ownClusters(project.config.maxWorkers - 1)
    : { urls: [], stop: async () => undefined };
  const [seededDataDir, ...servers] = await Promise.all([
    seedDataDirOnce(),
    ...[endpoints.databaseUrl, ...extra.urls].map(templatesOn),
  ]);
  project.provide(
    'postgresServers',
    servers.map((s) => s.server),
  );
  project.provide('kafkaBrokers', endpoints.kafkaBrokers);
  project.provide('seededDataDir', seededDataDir.dir);
  return async () => {
    seededDataDir.remove();
    await Promise.all(servers.map((s) => s.drop()));
    await extra.stop();
    await endpoints.teardown();
  };
}
