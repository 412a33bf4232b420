import type { Admin } from 'kafkajs';
import type {
  OperationsView,
  ParkedWebhookDelivery,
  ProjectorOperations,
  ReaderProgress,
  WorkerState,
} from '@claims/contracts';
import {
  checkpointLag,
  consumerGroupLag,
  listParked,
  projectorsGroupId,
  listRebuilds,
  projectionCheckpointName,
  storeHead,
  type CheckpointLag,
  type ProjectorStatus,
} from '@claims/projections';
import { listQuarantined, RELAY_CHECKPOINT, type RelayStatus } from '@claims/relay';
import type { AppContext } from '../context.js';
import { reactionCheckpointName, type Reaction } from '../eventsourcing/reactions.js';
import { listParkedReactionEvents } from '../eventsourcing/reactionFaults.js';
import { readiness, type HealthCheck } from './healthRoute.js';

/** A worker as this process knows it: its name, and its status when this process runs it (null: another process does). */
export interface WorkerHandle<S> {
  readonly name: string;
  status(): S | null;
}

export type ReactionStatus = { state: 'ok' } | { state: 'failing'; reason: string };

/**
 * What the composition (runtime.ts) hands the operations page and the metrics: every projector and
 * reaction of the product (run here or not), the relay, the readiness checks, and the figures of
 * tables platform/ does not own. Positions and lag are read from the database and Kafka, so any
 * process answers for all of them; states only for the workers it runs.
 */
export interface OperationsSources {
  readonly projectors: readonly WorkerHandle<ProjectorStatus>[];
  /** Each with the reaction itself: a person's retry of its parked event runs it in whichever process answers. */
  readonly reactions: readonly (WorkerHandle<ReactionStatus> & { readonly reaction: Reaction })[];
  /** Null without Kafka (nothing is relayed; projectors follow the store). */
  readonly kafka: {
    admin(): Promise<Admin>;
    topic: string;
    groupPrefix: string;
    relay: WorkerHandle<RelayStatus>;
  } | null;
  readonly healthChecks: Readonly<Record<string, HealthCheck>>;
  pendingWebhookDeliveries(): Promise<number>;
  parkedWebhookDeliveries(): Promise<ParkedWebhookDelivery[]>;
  notificationRetriesDue(): Promise<number>;
}

export interface OperationsReader {
  read(): Promise<OperationsView>;
}

type Progress = Omit<ReaderProgress, 'state' | 'reason'>;
const progressOf = (lag: CheckpointLag): Progress => ({
  position: lag.position,
  lagEvents: lag.lagEvents,
  lagSeconds: lag.lagSeconds,
});

/** What this process knows of a worker's state, with the reason when it is not running well. */
function stateOf(status: { state: string; reason?: string } | null): { state: WorkerState; reason: string | null } {
  if (!status)
    return {
      state: 'elsewhere',
      reason: 'not a worker of this process (WORKERS); its position is read from the database',
    };
  switch (status.state) {
    case 'ok':
    case 'publishing':
      return { state: 'running', reason: null };
    case 'waiting':
    case 'connecting':
      return { state: 'waiting', reason: status.reason ?? 'connecting' };
    default:
      return { state: 'failing', reason: status.reason ?? status.state };
  }
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Reads where every reader of the event store stands. Kafka says how many messages a consumer group
 * is behind but not how old the oldest of them is, so a group's lag in seconds counts from the last
 * time this reader saw it caught up (an upper bound of that age, as fine as the reads are frequent).
 */
export function operationsReader(ctx: AppContext, sources: OperationsSources): OperationsReader {
  const caughtUpAt = new Map<string, number>();
  const startedAt = Date.now();

  async function kafkaProgress(
    kafka: NonNullable<OperationsSources['kafka']>,
    name: string,
  ): Promise<Progress & { hasMembers: boolean }> {
    const lag = await consumerGroupLag(await kafka.admin(), projectorsGroupId(kafka.groupPrefix), kafka.topic, name);
    const now = Date.now();
    if (lag.lagEvents === 0) caughtUpAt.set(name, now);
    const since = caughtUpAt.get(name) ?? startedAt;
    return {
      position: lag.position,
      lagEvents: lag.lagEvents,
      lagSeconds: lag.lagEvents === 0 ? 0 : (now - since) / 1000,
      hasMembers: lag.hasMembers,
    };
  }

  async function projector(
    handle: WorkerHandle<ProjectorStatus>,
  ): Promise<Omit<ProjectorOperations, 'parked' | 'rebuild'>> {
    const known = stateOf(handle.status());
    const { kafka } = sources;
    if (!kafka)
      return {
        name: handle.name,
        source: 'store',
        ...progressOf(await checkpointLag(ctx.database.db, projectionCheckpointName(handle))),
        ...known,
      };
    try {
      const { hasMembers, ...progress } = await kafkaProgress(kafka, handle.name);
      const state =
        known.state === 'elsewhere' && !hasMembers
          ? { state: 'stopped' as const, reason: 'its consumer group has no member' }
          : known;
      return { name: handle.name, source: 'kafka', ...progress, ...state };
    } catch (error) {
      return {
        name: handle.name,
        source: 'kafka',
        position: 0,
        lagEvents: 0,
        lagSeconds: 0,
        state: 'failing',
        reason: `Kafka does not say where its group stands: ${describe(error)}`,
      };
    }
  }

  return {
    async read() {
      const db = ctx.database.db;
      const [
        headPosition,
        projectors,
        parked,
        rebuilds,
        reactions,
        parkedReactionEvents,
        relay,
        pendingWebhookDeliveries,
        parkedWebhookDeliveries,
        notificationRetriesDue,
        components,
      ] = await Promise.all([
        storeHead(db),
        Promise.all(sources.projectors.map(projector)),
        listParked(db),
        listRebuilds(db),
        Promise.all(
          sources.reactions.map(async (handle) => ({
            name: handle.name,
            ...progressOf(await checkpointLag(db, reactionCheckpointName(handle))),
            ...stateOf(handle.status()),
          })),
        ),
        listParkedReactionEvents(db),
        sources.kafka
          ? Promise.all([checkpointLag(db, RELAY_CHECKPOINT), listQuarantined(db)]).then(([lag, quarantined]) => ({
              ...progressOf(lag),
              ...stateOf(sources.kafka!.relay.status()),
              quarantined,
            }))
          : null,
        sources.pendingWebhookDeliveries(),
        sources.parkedWebhookDeliveries(),
        sources.notificationRetriesDue(),
        readiness(ctx, sources.healthChecks),
      ]);
      return {
        at: new Date().toISOString(),
        headPosition,
        projectors: projectors.map((p) => {
          const last = rebuilds.find((r) => r.projection === p.name);
          const rebuild = last
            ? {
                status: last.status,
                done: last.done,
                total: last.total,
                error: last.error,
                startedAt: last.startedAt,
                finishedAt: last.finishedAt,
              }
            : null;
          return { ...p, parked: parked.filter((e) => e.projection === p.name), rebuild };
        }),
        relay,
        reactions: reactions.map((r) => ({ ...r, parked: parkedReactionEvents.filter((e) => e.reaction === r.name) })),
        pendingWebhookDeliveries,
        parkedWebhookDeliveries,
        notificationRetriesDue,
        readiness: Object.entries(components).map(([name, health]) => ({
          name,
          status: health.status,
          reason: health.status === 'ok' ? null : health.reason,
        })),
      };
    },
  };
}
