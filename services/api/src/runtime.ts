import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { Admin, Kafka } from 'kafkajs';
import type { DestinationStream } from 'pino';
import type { Migration } from 'kysely/migration';
import {
  announceAppends,
  EVENTS_APPENDED_CHANNEL,
  eventStoreMigrations,
  leaseGroup,
  migrate,
  onAppended,
  openDatabase,
  registerMigrations,
  type Database,
  type PollingLoop,
} from '@claims/event-store';
import {
  consumeFromKafka,
  DEFAULT_FAULT_POLICY,
  followStore,
  parkedCounts,
  PROJECTIONS,
  projectionMigrations,
  storeHead,
  type FaultPolicy,
  type Follower,
  type KafkaProjectors,
  type ProjectorStatus,
} from '@claims/projections';
import {
  countPendingDeliveries,
  listParkedDeliveries,
  webhookDeliveryFaultMigrations,
} from './webhooks/deliveryQueue.js';
import {
  createKafka,
  DEFAULT_TOPIC_SETTINGS,
  ensureTopic,
  relayMigrations,
  startRelay,
  TopicSettingsError,
  type Relay,
  type TopicSettings,
} from '@claims/relay';
import type { Config, WorkerKind } from './config.js';
import type { AppContext } from './context.js';
import { buildApp, type AppOptions } from './app.js';
import { catalogMigrations } from './catalog/catalogMigrations.js';
import { createLogger } from './platform/logger.js';
import type { ComponentHealth, HealthCheck } from './platform/healthRoute.js';
import { seedDemo } from './seed/seedDemo.js';
import { identityMigrations } from './auth/identityMigrations.js';
import { publicApiMigrations } from './public-v1/publicApiMigrations.js';
import { teamMigrations } from './team/teamMigrations.js';
import { startSlaScheduler, type SlaScheduler } from './sla/slaScheduler.js';
import { webhookMigrations } from './webhooks/webhookMigrations.js';
import {
  prepareReaction,
  REACTION_FAULT_POLICY,
  startReaction,
  type Reaction,
  type ReactionLoop,
} from './eventsourcing/reactions.js';
import { listParkedReactionEvents, reactionFaultMigrations } from './eventsourcing/reactionFaults.js';
import { closeDraftOnFiling } from './customer/draftSessions.js';
import { financeMigrations } from './finance/financeMigrations.js';
import { createMailer, type Mailer } from './notifications/mailer.js';
import { notifyShopper, notifyTeam } from './notifications/notifyReactions.js';
import { sendClaimLinks } from './notifications/sendClaimLinks.js';
import { mailInvitations } from './notifications/deliverInvitationMail.js';
import { startNotificationRetries } from './notifications/notificationRetryLoop.js';
import { countDueRetries, notificationMigrations } from './notifications/notificationRetries.js';
import { storeCreditOfDecisions } from './store-credit/storeCreditLedger.js';
import { startDeliveryWorker, type DeliveryWorker } from './webhooks/deliveryWorker.js';
import { startPeriodicTask, type PeriodicTask } from './platform/periodicTask.js';
import { expireIdempotencyKeys } from './http/idempotency.js';
import { mediaMigrations } from './media/mediaMigrations.js';
import { rateWindowMigrations } from './platform/rateWindows.js';
import { presenceMigrations } from './desk/claimPresence.js';
import { sweepOrphanedMedia } from './media/mediaRoutes.js';
import { automationMigrations } from './automation/automationMigrations.js';
import { decideByRules } from './automation/ruleReaction.js';

/** How often stored leftovers (expired idempotency keys, orphaned uploads) are swept. */
const HOUSEKEEPING_INTERVAL_MS = 60 * 60_000;
/** The longest wait between attempts to join Kafka: a broker back is joined within this. */
const MAX_JOIN_RETRY_MS = 2_000;
/** A failed consumer gets this long to leave cleanly before its replacement joins anyway. */
const REPLACE_STOP_MS = 5_000;

/** Everything the product does after a commit, each from its own checkpoint. */
export const afterCommitReactions = (mailer: Mailer): readonly Reaction[] => [
  closeDraftOnFiling,
  notifyShopper(mailer),
  notifyTeam(mailer),
  sendClaimLinks(mailer),
  mailInvitations(mailer),
  storeCreditOfDecisions,
  decideByRules,
];

export const ALL_MIGRATIONS: Record<string, Migration> = registerMigrations(
  eventStoreMigrations,
  catalogMigrations,
  projectionMigrations,
  relayMigrations,
  identityMigrations,
  publicApiMigrations,
  webhookMigrations,
  teamMigrations,
  financeMigrations,
  notificationMigrations,
  mediaMigrations,
  presenceMigrations,
  reactionFaultMigrations,
  webhookDeliveryFaultMigrations,
  rateWindowMigrations,
  automationMigrations,
);

export interface Runtime {
  readonly ctx: AppContext;
  readonly app: FastifyInstance;
  readonly kafka: Kafka | null;
  /** Waits until this process's relay and followers have handled everything appended so far. */
  settle(): Promise<void>;
  stop(): Promise<void>;
  /** What `stop` is still waiting on. */
  pendingStop(): string[];
  /** Gives up on a `stop` that outlived its deadline: cuts the connections still open and closes the database. */
  abandonStop(): Promise<void>;
}

export interface RuntimeOptions {
  now?: () => string;
  listen?: boolean;
  /** false: no background workers at all (an API-only process); otherwise the configuration's WORKERS. */
  workers?: boolean;
  /** How projectors back off and when they park an event (tests shorten it). */
  faultPolicy?: Partial<FaultPolicy>;
  /** How reactions back off and when they park an event (tests shorten it). */
  reactionFaultPolicy?: Partial<FaultPolicy>;
  /** Where the log lines go (default standard output). */
  logDestination?: DestinationStream;
}

/** Readiness of the broker as this process sees it: a client of its own that gives up at once, so health answers fast. */
function kafkaHealth(
  config: Config,
  log: Runtime['ctx']['log'],
  relay: Relay | null,
  setup: () => string | null,
): HealthCheck {
  const probe = createKafka(config.kafkaBrokers!, log.child({ probe: 'kafka' }), 'claims-health', {
    retries: 0,
  }).admin();
  let connected = false;
  return async () => {
    const relayStatus = relay?.status();
    if (relayStatus?.state === 'refused') return { status: 'failing', reason: relayStatus.reason };
    const refused = setup();
    if (refused) return { status: 'failing', reason: refused };
    try {
      if (!connected) {
        await probe.connect();
        connected = true;
      }
      await probe.describeCluster();
    } catch (error) {
      connected = false;
      await probe.disconnect().catch(() => undefined);
      return {
        status: 'failing',
        reason: `the broker does not answer (${config.kafkaBrokers}): ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    if (relayStatus?.state === 'failing')
      return { status: 'failing', reason: `the relay cannot publish: ${relayStatus.reason}` };
    return { status: 'ok' };
  };
}

/** One admin client for the operations figures, connected on first use and again after a failure. */
function kafkaAdmin(kafka: Kafka): { get(): Promise<Admin>; close(): Promise<void> } {
  const admin = kafka.admin();
  let connected: Promise<void> | null = null;
  return {
    async get() {
      connected ??= admin.connect().catch((error: unknown) => {
        connected = null;
        throw error;
      });
      await connected;
      return admin;
    },
    close: () => admin.disconnect(),
  };
}

const projectorHealth =
  (status: () => ProjectorStatus): HealthCheck =>
  async () => {
    const current = status();
    return current.state === 'ok' ? { status: 'ok' } : { status: 'failing', reason: current.reason };
  };

/** Parked events of any process's projectors: each is a change some read model does not show. */
const parkedHealth =
  (ctx: AppContext): HealthCheck =>
  async (): Promise<ComponentHealth> => {
    const parked = await parkedCounts(ctx.database.db);
    if (parked.length === 0) return { status: 'ok' };
    return {
      status: 'failing',
      reason: `parked events (projection_parked): ${parked.map((p) => `${p.projection} ${p.parked}`).join(', ')}`,
    };
  };

/** Parked events of any process's reactions: each is mail, a claim link or store credit that did not happen. */
const parkedReactionsHealth =
  (ctx: AppContext): HealthCheck =>
  async (): Promise<ComponentHealth> => {
    const parked = await listParkedReactionEvents(ctx.database.db);
    if (parked.length === 0) return { status: 'ok' };
    const counts = new Map<string, number>();
    for (const event of parked) counts.set(event.reaction, (counts.get(event.reaction) ?? 0) + 1);
    return {
      status: 'failing',
      reason: `parked events (reaction_parked): ${[...counts].map(([name, n]) => `${name} ${n}`).join(', ')}`,
    };
  };

/** Webhook deliveries parked by any process's delivery worker: each is a webhook an integrator is owed and does not get. */
const parkedDeliveriesHealth =
  (ctx: AppContext): HealthCheck =>
  async (): Promise<ComponentHealth> => {
    const parked = await listParkedDeliveries(ctx.database.db);
    return parked.length === 0
      ? { status: 'ok' }
      : { status: 'failing', reason: `parked webhook deliveries (webhook_delivery_parked): ${parked.length}` };
  };

/**
 * Starts the whole product in one process: database (PGlite by default), migrations, demo seed,
 * the background workers of WORKERS (relay, projectors — Kafka consumers with KAFKA_BROKERS, store
 * followers without —, reactions, webhook delivery, timers), and the API. Kafka is never waited
 * for: the relay and the consumers connect in the background and keep retrying.
 */
export async function startRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const log = createLogger(config.logLevel, options.logDestination);
  const database: Database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.db.poolSize,
    timeouts: {
      statementMs: config.db.statementTimeoutMs,
      idleInTransactionMs: config.db.idleInTransactionTimeoutMs,
      connectMs: config.db.connectTimeoutMs,
    },
    onConnectionError: (error) =>
      log.warn({ err: error }, 'a pooled database connection failed while idle; the pool opens another'),
  });
  const workers: ReadonlySet<WorkerKind> = options.workers === false ? new Set() : config.workers;
  const faultPolicy: FaultPolicy = {
    ...DEFAULT_FAULT_POLICY,
    maxAttempts: config.projectionMaxAttempts,
    ...options.faultPolicy,
  };
  const followers: Follower[] = [];
  const reactions: PollingLoop[] = [];
  const reactionLoops = new Map<string, ReactionLoop>();
  let notificationRetries: PollingLoop | null = null;
  /** Each reaction runs in one process at a time, whichever took its lease (several worker processes may run). */
  const reactionLeases = leaseGroup(database);
  let projectors: KafkaProjectors | null = null;
  let relay: Relay | null = null;
  let operationsAdmin: ReturnType<typeof kafkaAdmin> | null = null;
  let sla: SlaScheduler | null = null;
  const housekeeping: PeriodicTask[] = [];
  let deliveryWorker: DeliveryWorker | null = null;
  let stopped = false;
  const stopping = new AbortController();
  const pause = (ms: number) => sleep(ms, undefined, { signal: stopping.signal }).catch(() => undefined);
  let kafkaSetup: Promise<void> = Promise.resolve();
  let topicRefused: string | null = null;
  const mailer = createMailer({ ...config.mail, dataDir: config.dataDir }, log);
  const ctx: AppContext = {
    config,
    database,
    log,
    now: options.now ?? (() => new Date().toISOString()),
  };
  /** What each reaction handles: an append of none of those types leaves it asleep (its next poll passes them). */
  const reactionTypes = new Map<PollingLoop, ReadonlySet<string>>();
  // Every append in this process wakes its followers, relay and the reactions handling a type it appended at once. A
  // filing's own reactions append its mail records and link, which no reaction handles: waking all of them for each
  // cost three statements per reaction.
  const wake = (types: ReadonlySet<string>) => {
    wakeReaders();
    for (const [reaction, handles] of reactionTypes) if ([...types].some((t) => handles.has(t))) reaction.wake();
  };
  // Another process's appends (its announcements) wake the readers the claim list's and webhooks' quarter-second goal
  // waits on: the followers and the relay. The reactions find them at their next poll, within their goal of seconds:
  // woken by every announcement at peaks, each would read its checkpoint and page dozens of times a second.
  const wakeReaders = () => {
    for (const follower of followers) follower.wake();
    relay?.wake();
  };
  const announcer = randomUUID();
  const announce =
    database.kind === 'postgres'
      ? announceAppends(database.db, announcer, (error) =>
          log.warn({ err: error }, 'announcing appends to the other processes failed; their polls find them'),
        )
      : null;
  const stopWaking = onAppended(database.db, (types) => {
    wake(types);
    announce?.();
  });
  // Only a process with readers listens; PGlite belongs to one process, so nothing else appends there.
  const appendsElsewhere =
    database.kind === 'postgres' && (workers.has('relay') || workers.has('projectors'))
      ? database.listen(
          EVENTS_APPENDED_CHANNEL,
          (payload) => {
            if (payload !== announcer) wakeReaders();
          },
          (error) =>
            log.warn({ err: error }, 'listening for other processes’ appends failed; polling until it listens'),
        )
      : null;
  /** The steps of stopping not finished yet, for the log line of a process that gives up waiting on them. */
  const pendingSteps = new Set<string>();
  const step = async (name: string, run: () => Promise<unknown> | undefined) => {
    pendingSteps.add(name);
    try {
      await run();
    } finally {
      pendingSteps.delete(name);
    }
  };
  const stopWorkers = async () => {
    stopped = true;
    stopping.abort();
    await step('SLA timers', () => sla?.stop());
    await step('housekeeping', () => Promise.all(housekeeping.map((t) => t.stop())));
    await step('store followers', () => Promise.all(followers.map((f) => f.stop())));
    await step('reactions (mail, claim links, store credit)', async () => {
      await Promise.all(reactions.map((r) => r.stop()));
      await reactionLeases.release();
    });
    await step('Kafka projectors', async () => {
      await kafkaSetup;
      await projectors?.stop();
    });
    await step('webhook deliveries', () => deliveryWorker?.stop());
    await step('relay', () => relay?.stop());
    await step('Kafka admin client', () => operationsAdmin?.close());
    stopWaking();
    await step('listening for appends', () => appendsElsewhere?.stop());
    mailer.close();
  };
  let databaseClosed: Promise<void> | null = null;
  const closeDatabase = () => (databaseClosed ??= step('database', () => database.close()));

  /**
   * Consumers join once the broker answers; until then (and on a topic contradicting the configuration) they
   * retry in the background, never more than a few seconds apart so a broker back is joined at once. A consumer
   * kafkajs gives up on, or one stuck, is stopped and replaced rather than waited on.
   */
  async function superviseKafkaProjectors(kafka: Kafka, settings: TopicSettings): Promise<void> {
    const subscription = { topic: config.kafkaTopic, groupPrefix: config.kafkaGroupPrefix };
    const stopRequested = new Promise<null>((resolve) =>
      stopping.signal.addEventListener('abort', () => resolve(null)),
    );
    for (let attempt = 0; !stopped; attempt++) {
      try {
        await ensureTopic(kafka, config.kafkaTopic, settings);
        topicRefused = null;
        if (stopped) return;
        const running = await consumeFromKafka(kafka, database.db, PROJECTIONS, log, subscription, faultPolicy);
        projectors = running;
        const failure = await Promise.race([running.failed, stopRequested]);
        if (!failure) return;
        log.error({ err: failure }, "the projectors' Kafka consumer failed; replacing it");
        projectors = null;
        await Promise.race([running.stop().catch(() => undefined), pause(REPLACE_STOP_MS)]);
        attempt = -1;
      } catch (error) {
        if (error instanceof TopicSettingsError) topicRefused = error.message;
        log.error({ err: error }, 'projectors cannot join Kafka yet; retrying');
        await pause(Math.min(500 * 2 ** attempt, MAX_JOIN_RETRY_MS));
      }
    }
  }

  try {
    await migrate(database, ALL_MIGRATIONS);
    if (config.seedDemo) await seedDemo(ctx, config.demoFixture);
    const kafka = config.kafkaBrokers ? createKafka(config.kafkaBrokers, log) : null;
    const settings: TopicSettings = { ...DEFAULT_TOPIC_SETTINGS, ...config.kafkaTopicDurability };
    if (kafka && workers.has('relay')) relay = startRelay(database, kafka, log, { topic: config.kafkaTopic, settings });
    if (workers.has('projectors')) {
      if (kafka) kafkaSetup = superviseKafkaProjectors(kafka, settings);
      else
        for (const projection of PROJECTIONS)
          followers.push(followStore(database.db, projection, log, 250, faultPolicy));
    }
    const afterCommit = afterCommitReactions(mailer);
    if (workers.has('reactions')) {
      for (const reaction of afterCommit) {
        await prepareReaction(ctx, reaction);
        const loop = startReaction(ctx, reaction, {
          faults: { ...REACTION_FAULT_POLICY, ...options.reactionFaultPolicy },
          leases: reactionLeases,
        });
        reactionLoops.set(reaction.name, loop);
        reactionTypes.set(loop, new Set(reaction.handles));
        reactions.push(loop);
      }
      // Not woken by appends: a retry comes due by its time, never by an event.
      notificationRetries = startNotificationRetries(ctx, mailer);
      reactions.push(notificationRetries);
    }
    if (workers.has('delivery')) deliveryWorker = startDeliveryWorker(ctx);
    if (workers.has('timers')) {
      sla = startSlaScheduler(ctx);
      housekeeping.push(
        startPeriodicTask(ctx, 'idempotency-key expiry', HOUSEKEEPING_INTERVAL_MS, (now) =>
          expireIdempotencyKeys(ctx, now),
        ),
      );
      housekeeping.push(
        startPeriodicTask(ctx, 'orphaned media sweep', HOUSEKEEPING_INTERVAL_MS, (now) => sweepOrphanedMedia(ctx, now)),
      );
    }

    const healthChecks: Record<string, HealthCheck> = {
      projectors: parkedHealth(ctx),
      reactions: parkedReactionsHealth(ctx),
      webhooks: parkedDeliveriesHealth(ctx),
    };
    if (kafka) healthChecks.kafka = kafkaHealth(config, log, relay, () => topicRefused);
    for (const [i, follower] of followers.entries())
      healthChecks[`projector:${PROJECTIONS[i]!.name}`] = projectorHealth(follower.status);
    for (const projection of workers.has('projectors') && kafka ? PROJECTIONS : []) {
      healthChecks[`projector:${projection.name}`] = projectorHealth(
        () => projectors?.status(projection.name) ?? { state: 'waiting', reason: 'not connected to Kafka yet' },
      );
    }
    operationsAdmin = kafka ? kafkaAdmin(kafka) : null;
    /** Null when another process runs the projectors. */
    const projectorStatus = (name: string): ProjectorStatus | null => {
      if (!workers.has('projectors')) return null;
      if (!kafka) return followers[PROJECTIONS.findIndex((p) => p.name === name)]?.status() ?? null;
      return projectors?.status(name) ?? { state: 'waiting', reason: 'not connected to Kafka yet' };
    };
    const operations: AppOptions['operations'] = {
      projectors: PROJECTIONS.map(({ name }) => ({ name, status: () => projectorStatus(name) })),
      reactions: afterCommit.map((reaction) => ({
        name: reaction.name,
        reaction,
        status: () => reactionLoops.get(reaction.name)?.status() ?? null,
      })),
      kafka: operationsAdmin && {
        admin: operationsAdmin.get,
        topic: config.kafkaTopic,
        groupPrefix: config.kafkaGroupPrefix,
        relay: { name: 'relay', status: () => relay?.status() ?? null },
      },
      pendingWebhookDeliveries: () => countPendingDeliveries(database.db),
      parkedWebhookDeliveries: () => listParkedDeliveries(database.db),
      notificationRetriesDue: () => countDueRetries(database.db, ctx.now()),
    };
    const app = await buildApp(ctx, { healthChecks, operations });
    if (options.listen !== false) await app.listen({ port: config.port, host: config.host });
    let closing: Promise<void> | null = null;
    return {
      ctx,
      app,
      kafka,
      async settle() {
        // Reactions first, round after round until none appends: what one appends (a claim link) may be another's to
        // react to (the mail carrying it); what they append is then relayed and projected in the same settle.
        let head: number;
        do {
          head = await storeHead(database.db);
          await Promise.all([...[...reactionLoops.values()].map((r) => r.catchUp()), notificationRetries?.runNow()]);
        } while ((await storeHead(database.db)) !== head);
        await relay?.catchUp();
        await Promise.all(followers.map((f) => f.catchUp()));
        await deliveryWorker?.catchUp();
      },
      stop() {
        closing ??= (async () => {
          await step('HTTP requests in flight', () => app.close());
          await stopWorkers();
          await closeDatabase();
        })();
        return closing;
      },
      pendingStop: () => [...pendingSteps],
      async abandonStop() {
        app.server.closeAllConnections();
        mailer.close();
        await closeDatabase();
      },
    };
  } catch (error) {
    await stopWorkers();
    await closeDatabase();
    throw error;
  }
}
