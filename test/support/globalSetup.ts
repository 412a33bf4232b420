import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ALL_MIGRATIONS } from '../../services/api/src/runtime.js';
import { migratedTemplateDatabase } from './migratedDatabase.js';
import { seedDataDirOnce, seedTemplateOnce } from './seededDemo.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    kafkaBrokers: string;
    /** A database of the server at databaseUrl with every migration applied: the product's test databases are copies of it. */
    migratedTemplate: string;
    /** migratedTemplate with the demo data seeded: runtimes that seed the demo start from a copy of it. */
    seededTemplate: string;
  }
}

const root = path.resolve(import.meta.dirname, '../..');
const infra = (script: string, ...args: string[]) =>
  execFileSync(path.join(root, 'infra/scripts', script), args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

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
      KAFKA_NODE_ID: '1', KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093', KAFKA_ADVERTISED_LISTENERS: 'PLAINTEXT://127.0.0.1:19092',
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER', KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1', KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1', KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
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
  const env = Object.fromEntries(infra('infra.sh', 'up').trim().split('\n').map((line) => line.split(/=(.*)/s).slice(0, 2)));
  return {
    databaseUrl: env.DATABASE_URL!,
    kafkaBrokers: env.KAFKA_BROKERS!,
    teardown: async () => {
      if (!brokerWasRunning) infra('kafka.sh', 'stop', '--clean');
    },
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.DATABASE_URL && process.env.KAFKA_BROKERS
    ? { databaseUrl: process.env.DATABASE_URL, kafkaBrokers: process.env.KAFKA_BROKERS, teardown: async () => undefined }
    : null;
  const endpoints = given ?? (await fromContainers()) ?? fromLocalInfra();
  // Every file's database is a copy of one migrated here once, rather than each running every migration anew.
  const template = await migratedTemplateDatabase(endpoints.databaseUrl, ALL_MIGRATIONS);
  const [seededTemplate, seededDataDir] = await Promise.all([seedTemplateOnce(endpoints.databaseUrl, template.name), seedDataDirOnce()]);
  project.provide('databaseUrl', endpoints.databaseUrl);
  project.provide('kafkaBrokers', endpoints.kafkaBrokers);
  project.provide('migratedTemplate', template.name);
  project.provide('seededTemplate', seededTemplate.name);
  project.provide('seededDataDir', seededDataDir.dir);
  return async () => {
    seededDataDir.remove();
    await seededTemplate.drop();
    await template.drop();
    await endpoints.teardown();
  };
}
