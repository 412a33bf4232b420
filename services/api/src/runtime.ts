import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Consumer, Kafka } from 'kafkajs';
import type { Migration } from 'kysely/migration';
import { eventStoreMigrations, migrate, onAppended, openDatabase, registerMigrations, type Database, type PollingLoop } from '@claims/event-store';
import { consumeFromKafka, followStore, PROJECTIONS, projectionMigrations, type Follower } from '@claims/projections';
import { createKafka, ensureTopic, startRelay, type Relay } from '@claims/relay';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { buildApp } from './app.js';
import { catalogMigrations } from './catalog/catalogMigrations.js';
import { createLogger } from './platform/logger.js';
import { seedDemo } from './seed/seedDemo.js';
import { identityMigrations } from './auth/identityMigrations.js';
import { publicApiMigrations } from './public-v1/publicApiMigrations.js';
import { teamMigrations } from './team/teamMigrations.js';
import { startSlaScheduler, type SlaScheduler } from './sla/slaScheduler.js';
import { webhookMigrations } from './webhooks/webhookMigrations.js';
import { startReaction, type Reaction } from './eventsourcing/reactions.js';
import { closeDraftOnFiling } from './customer/draftSessions.js';

/** Everything the product does after a commit, each from its own checkpoint. */
const REACTIONS: readonly Reaction[] = [closeDraftOnFiling];
import { startDeliveryWorker, type DeliveryWorker } from './webhooks/deliveryWorker.js';
import { startPeriodicTask, type PeriodicTask } from './platform/periodicTask.js';
import { expireIdempotencyKeys } from './http/idempotency.js';
import { mediaMigrations } from './media/mediaMigrations.js';
import { sweepOrphanedMedia } from './media/mediaRoutes.js';

/** How often stored leftovers (expired idempotency keys, orphaned uploads) are swept. */
const HOUSEKEEPING_INTERVAL_MS = 60 * 60_000;

export const ALL_MIGRATIONS: Record<string, Migration> = registerMigrations(
  eventStoreMigrations, catalogMigrations, projectionMigrations, identityMigrations, publicApiMigrations, webhookMigrations, teamMigrations, mediaMigrations,
);

export interface Runtime {
  readonly ctx: AppContext;
  readonly app: FastifyInstance;
  readonly kafka: Kafka | null;
  /** Waits until this process's relay and followers have handled everything appended so far. */
  settle(): Promise<void>;
  stop(): Promise<void>;
}

export interface RuntimeOptions {
  now?: () => string;
  listen?: boolean;
  /** Start the projection workers and the relay in this process (default true). */
  workers?: boolean;
  /** Where the log lines go (default standard output). */
  logDestination?: DestinationStream;
}

async function kafkaProbe(kafka: Kafka): Promise<() => Promise<boolean>> {
  const admin = kafka.admin();
  let connected = false;
  return async () => {
    try {
      if (!connected) {
        await admin.connect();
        connected = true;
      }
      await admin.describeCluster();
      return true;
    } catch {
      return false;
    }
  };
}

/**
 * Starts the whole product in one process: database (PGlite by default), migrations, demo seed,
 * projection workers (Kafka consumers with KAFKA_BROKERS, store followers without), relay, API.
 */
export async function startRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const log = createLogger(config.logLevel, options.logDestination);
  const database: Database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const followers: Follower[] = [];
  const reactions: PollingLoop[] = [];
  const consumers: Consumer[] = [];
  let relay: Relay | null = null;
  let sla: SlaScheduler | null = null;
  const housekeeping: PeriodicTask[] = [];
  let deliveryWorker: DeliveryWorker | null = null;
  const ctx: AppContext = {
    config,
    database,
    log,
    now: options.now ?? (() => new Date().toISOString()),
  };
  // Every append in this process wakes its followers, reactions and relay at once.
  const stopWaking = onAppended(database.db, () => {
    for (const follower of followers) follower.wake();
    for (const reaction of reactions) reaction.wake();
    relay?.wake();
  });
  try {
    await migrate(database, ALL_MIGRATIONS);
    if (config.seedDemo) await seedDemo(ctx, config.demoFixture);
    const kafka = config.kafkaBrokers ? createKafka(config.kafkaBrokers, log) : null;
    if (options.workers !== false) {
      if (kafka) {
        await ensureTopic(kafka, config.kafkaTopic);
        relay = await startRelay(database, kafka, log, config.kafkaTopic);
        const subscription = { topic: config.kafkaTopic, groupPrefix: config.kafkaGroupPrefix };
        for (const projection of PROJECTIONS) consumers.push(await consumeFromKafka(kafka, database.db, projection, log, subscription));
      } else {
        for (const projection of PROJECTIONS) followers.push(followStore(database.db, projection, log));
      }
      for (const reaction of REACTIONS) reactions.push(startReaction(ctx, reaction));
      deliveryWorker = startDeliveryWorker(ctx);
    }
    if (options.workers !== false) {
      sla = startSlaScheduler(ctx);
      housekeeping.push(startPeriodicTask(ctx, 'idempotency-key expiry', HOUSEKEEPING_INTERVAL_MS, (now) => expireIdempotencyKeys(ctx, now)));
      housekeeping.push(startPeriodicTask(ctx, 'orphaned media sweep', HOUSEKEEPING_INTERVAL_MS, (now) => sweepOrphanedMedia(ctx, now)));
    }
    const app = await buildApp(ctx, { kafkaReachable: kafka ? await kafkaProbe(kafka) : null });
    if (options.listen !== false) await app.listen({ port: config.port, host: config.host });
    let stopping: Promise<void> | null = null;
    return {
      ctx,
      app,
      kafka,
      async settle() {
        await relay?.catchUp();
        await Promise.all(followers.map((f) => f.catchUp()));
        await Promise.all(reactions.map((r) => r.runNow()));
        await deliveryWorker?.catchUp();
      },
      stop() {
        stopping ??= (async () => {
          await app.close();
          await sla?.stop();
          await Promise.all(housekeeping.map((t) => t.stop()));
          await Promise.all(followers.map((f) => f.stop()));
          await Promise.all(reactions.map((r) => r.stop()));
          await Promise.all(consumers.map((c) => c.disconnect()));
          await deliveryWorker?.stop();
          await relay?.stop();
          stopWaking();
          await database.close();
        })();
        return stopping;
      },
    };
  } catch (error) {
    await sla?.stop();
    await Promise.all(housekeeping.map((t) => t.stop()));
    await Promise.all(followers.map((f) => f.stop()));
    await Promise.all(reactions.map((r) => r.stop()));
    await Promise.all(consumers.map((c) => c.disconnect()));
    await deliveryWorker?.stop();
    await relay?.stop();
    stopWaking();
    await database.close();
    throw error;
  }
}
