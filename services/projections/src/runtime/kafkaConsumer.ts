import type { Kysely } from 'kysely';
import type { Admin, Consumer, Kafka } from 'kafkajs';
import { CLAIM_EVENTS_TOPIC, DomainEvent, EventEnvelope } from '@claims/contracts';
import type { Logger } from 'pino';
import type { EventTyping } from './applyEvents.js';
import type { Projection } from './projection.js';
import { DEFAULT_FAULT_POLICY, ProjectorGuard, type FaultPolicy, type ProjectorStatus } from './projectionFaults.js';
import { ProjectorLane, type ParsedMessage } from './projectorLane.js';
import { laneOffsets, legacyProjectorGroupId, projectorsGroupId } from './readerProgress.js';

/**
 * The projections of a process as one Kafka consumer group: each message is fetched and parsed once and handed
 * to every projection's lane (projectorLane.ts), which applies it in its own transaction. The group's committed
 * offset is the lowest position of the lanes; the commit's metadata keeps each lane's own, so a lane resumes
 * where it stood and the operations page tells them apart (readerProgress.ts).
 */
export interface KafkaSubscription {
  topic: string;
  groupPrefix: string;
}

export const DEFAULT_SUBSCRIPTION: KafkaSubscription = { topic: CLAIM_EVENTS_TOPIC, groupPrefix: 'projection' };

export interface KafkaProjectors {
  readonly consumer: Consumer;
  /** Null for a projection this consumer does not run. */
  status(name: string): ProjectorStatus | null;
  /** Lets the batches in flight finish, commits where every lane stands, and leaves the group. */
  stop(): Promise<void>;
  /**
   * Settles when this consumer can no longer be trusted to go on: kafkajs gave up on it (a crash it does not
   * restart), or it neither fetched nor heartbeat for STUCK_AFTER_MS. The owner stops it and starts another.
   */
  readonly failed: Promise<Error>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * Group membership, chosen for recovery within seconds. The broker hands a silent member's partitions on only
 * after its session timeout: kafkajs' 30 s default made a killed worker's partitions, and a restarted broker's
 * group (which still lists the members from before), wait 30 s; 6 s is the broker's floor. Heartbeats go out
 * every second from the fetch loop, whose idle fetch waits at most `maxWaitTimeInMs`, so a quiet topic still
 * heartbeats six times a session; a rebalance waits `rebalanceTimeout` for the members to rejoin.
 */
export const GROUP_TIMING = {
  sessionTimeout: 6_000,
  heartbeatInterval: 1_000,
  rebalanceTimeout: 10_000,
  maxWaitTimeInMs: 1_000,
} as const;
/** A lane far behind holds the consumer in its batch; it heartbeats at this pace meanwhile, well inside the session. */
const MAX_SILENT_MS = 2_000;
/** Neither a fetch nor a heartbeat for this long: the consumer is stuck (five sessions' worth), not slow. */
export const STUCK_AFTER_MS = 30_000;

/**
 * Messages come from outside the process, so their data is parsed, once per message whichever projections
 * handle it; a malformed one fails in each projection that handles it (and is parked there).
 */
function sharedParsing(): EventTyping {
  const typed = new WeakMap<EventEnvelope, DomainEvent | Error>();
  return (event) => {
    let result = typed.get(event);
    if (!result) {
      const parsed = DomainEvent.safeParse({ type: event.type, data: event.data });
      result = parsed.success ? parsed.data : parsed.error;
      typed.set(event, result);
    }
    if (result instanceof Error) throw result;
    return result;
  };
}

export async function consumeFromKafka<DB>(
  kafka: Kafka,
  db: Kysely<DB>,
  projections: readonly Projection[],
  log: Logger,
  subscription: KafkaSubscription = DEFAULT_SUBSCRIPTION,
  policy: FaultPolicy = DEFAULT_FAULT_POLICY,
): Promise<KafkaProjectors> {
  const { topic } = subscription;
  const groupId = projectorsGroupId(subscription.groupPrefix);
  const typing = sharedParsing();
  const lanes = projections.map(
    (projection) =>
      new ProjectorLane(projection, new ProjectorGuard(db, projection, log, policy, typing), policy, log, () =>
        scheduleCommit(),
      ),
  );
  /** Set once stopping: kafkajs would otherwise restart a consumer whose crash it was still handling, a member nobody runs. */
  let leaving = false;
  const consumer = kafka.consumer({
    groupId,
    allowAutoTopicCreation: false,
    ...GROUP_TIMING,
    retry: { restartOnFailure: () => Promise.resolve(!leaving) },
  });
  const admin: Admin = kafka.admin();
  /** Partitions of this member's current assignment, and those of them whose lane positions are read back. */
  let assigned = new Set<number>();
  const restored = new Set<number>();
  /** Positions of projections the group's commits carry but this process does not run, kept in its commits. */
  const carried = new Map<number, Record<string, string>>();
  const lastCommitted = new Map<number, string>();

  /** Reads each lane's position on the partition back from the group's commit (or, before the first, its old group's). */
  async function restore(partition: number): Promise<bigint> {
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    const entry = committed?.partitions.find((p) => p.partition === partition);
    const positions = laneOffsets(entry?.metadata ?? null);
    carried.set(
      partition,
      Object.fromEntries(Object.entries(positions).filter(([name]) => !lanes.some((l) => l.name === name))),
    );
    const ends = await admin.fetchTopicOffsets(topic);
    const low = BigInt(ends.find((e) => e.partition === partition)?.low ?? '0');
    for (const lane of lanes) {
      const known = positions[lane.name];
      const offset = known !== undefined ? BigInt(known) : await legacyPosition(lane.name, partition);
      lane.restore(partition, offset < low ? low : offset);
    }
    restored.add(partition);
    return lanes.reduce((min, lane) => {
      const at = lane.resumeAt(partition) ?? low;
      return at < min ? at : min;
    }, BigInt(Number.MAX_SAFE_INTEGER));
  }

  /** Where a projection's own consumer group (before the projections shared one) had committed; -1 when it never had. */
  async function legacyPosition(name: string, partition: number): Promise<bigint> {
    const [legacy] = await admin.fetchOffsets({
      groupId: legacyProjectorGroupId(subscription.groupPrefix, name),
      topics: [topic],
    });
    return BigInt(legacy?.partitions.find((p) => p.partition === partition)?.offset ?? '-1');
  }

  let committing: Promise<void> | null = null;
  let again = false;
  function scheduleCommit(): void {
    if (committing) {
      again = true;
      return;
    }
    committing = commit()
      .catch((error: unknown) =>
        log.warn({ err: error }, 'projectors could not commit their offsets; the next batch does'),
      )
      .finally(() => {
        committing = null;
        if (again) {
          again = false;
          scheduleCommit();
        }
      });
  }

  /** Commits, per partition of the assignment, the lowest lane position and every lane's own in the metadata. */
  async function commit(): Promise<void> {
    const offsets = [];
    for (const partition of assigned) {
      if (!restored.has(partition)) continue;
      const positions = lanes.map((lane) => [lane.name, lane.position(partition)] as const);
      if (positions.some(([, at]) => at === undefined)) continue;
      const lowest = positions.reduce((min, [, at]) => (at! < min ? at! : min), positions[0]![1]!);
      const metadata = JSON.stringify({
        ...carried.get(partition),
        ...Object.fromEntries(positions.map(([name, at]) => [name, at!.toString()])),
      });
      if (lastCommitted.get(partition) === metadata) continue;
      offsets.push({ topic, partition, offset: lowest.toString(), metadata });
      lastCommitted.set(partition, metadata);
    }
    if (offsets.length > 0) await consumer.commitOffsets(offsets);
  }

  consumer.on(consumer.events.GROUP_JOIN, (event) => {
    assigned = new Set(event.payload.memberAssignment[topic] ?? []);
    restored.clear();
    lastCommitted.clear();
  });
  await admin.connect();
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachBatch: async ({ batch, heartbeat, isRunning, isStale }) => {
      if (batch.messages.length === 0) return;
      if (!restored.has(batch.partition)) {
        const resumeAt = await restore(batch.partition);
        // A lane behind the group's offset (a projection new to the group) reads the partition again from its position.
        if (resumeAt < BigInt(batch.firstOffset() ?? batch.highWatermark)) {
          consumer.seek({ topic, partition: batch.partition, offset: resumeAt.toString() });
          return;
        }
      }
      const messages: ParsedMessage[] = batch.messages.map((message) => ({
        offset: BigInt(message.offset),
        event: EventEnvelope.parse(JSON.parse(message.value?.toString('utf8') ?? 'null')),
      }));
      const next = BigInt(batch.lastOffset()) + 1n;
      for (const lane of lanes) lane.offer(batch.partition, messages, next);
      scheduleCommit();
      // A lane far behind (backing off, held by a replay) holds the consumer back rather than queue without end.
      if (lanes.every((lane) => lane.hasRoom())) return;
      for (;;) {
        const full = await Promise.race([
          Promise.all(lanes.map((lane) => lane.room())).then(() => false),
          pause(MAX_SILENT_MS).then(() => true),
        ]);
        await heartbeat();
        if (!full || !isRunning() || isStale()) return;
      }
    },
  });
  let fail: (error: Error) => void = () => undefined;
  const failed = new Promise<Error>((resolve) => (fail = resolve));
  let lastSign = Date.now();
  const alive = () => void (lastSign = Date.now());
  for (const event of [consumer.events.FETCH_START, consumer.events.HEARTBEAT, consumer.events.GROUP_JOIN])
    consumer.on(event, alive);
  // A crash kafkajs restarts is a consumer waiting on the broker, not a stuck one.
  consumer.on(consumer.events.CRASH, (e) => {
    log.error({ err: e.payload.error, restart: e.payload.restart }, 'kafka consumer of the projections crashed');
    if (e.payload.restart) alive();
    else if (!leaving) fail(e.payload.error);
  });
  const watchdog = setInterval(() => {
    if (Date.now() - lastSign > STUCK_AFTER_MS) fail(new Error(`no fetch or heartbeat for ${STUCK_AFTER_MS / 1000} s`));
  }, 1_000);
  watchdog.unref();
  let stopped: Promise<void> | null = null;
  return {
    consumer,
    failed,
    status: (name) => lanes.find((lane) => lane.name === name)?.status() ?? null,
    stop() {
      stopped ??= (async () => {
        leaving = true;
        clearInterval(watchdog);
        await Promise.all(lanes.map((lane) => lane.stop()));
        await committing;
        await commit().catch(() => undefined);
        await consumer.disconnect();
        await admin.disconnect();
      })();
      return stopped;
    },
  };
}
