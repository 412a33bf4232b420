import { sql, type QueryExecutorProvider } from 'kysely';
import type { Admin } from 'kafkajs';
import { loadCheckpoint } from '@claims/event-store';
import type { Projection } from './projection.js';

/** The checkpoint a store follower of this projection keeps in `checkpoints`. */
export const projectionCheckpointName = (projection: Pick<Projection, 'name'>) => `projection:${projection.name}`;

/** How far a reader of the event store is behind its head. */
export interface CheckpointLag {
  position: number;
  lagEvents: number;
  /** The age of the oldest event beyond the checkpoint, 0 when there is none. */
  lagSeconds: number;
}

/** The newest global position of the store (0 when it is empty). */
export async function storeHead(db: QueryExecutorProvider): Promise<number> {
  const { rows } = await sql<{ head: string | null }>`select max(global_position)::text as head from events`.execute(
    db,
  );
  return Number(rows[0]?.head ?? 0);
}

/** Where the reader of a checkpoint (a projection's follower, a reaction, the relay) stands, read from the database alone. */
export async function checkpointLag(db: QueryExecutorProvider, checkpoint: string): Promise<CheckpointLag> {
  const at = await loadCheckpoint(db, checkpoint);
  const { rows } = await sql<{ behind: number; age: number | null }>`
    select count(*)::int as behind, extract(epoch from now() - min(occurred_at))::float8 as age from events
    where (transaction_id, global_position) > (${at.transactionId}::xid8, ${at.globalPosition}::bigint)`.execute(db);
  const behind = rows[0]?.behind ?? 0;
  return {
    position: at.globalPosition,
    lagEvents: behind,
    lagSeconds: behind === 0 ? 0 : Math.max(0, rows[0]?.age ?? 0),
  };
}

/** A stream whose last event a projection's read model does not hold yet. */
export interface StreamBehind {
  streamId: string;
  applied: number;
  last: number;
}

/** Up to `limit` streams a projection handles that it has not applied to their last event (none: it is current). */
export async function streamsBehind(
  db: QueryExecutorProvider,
  projection: Pick<Projection, 'name' | 'handles'>,
  limit = 20,
): Promise<StreamBehind[]> {
  const { rows } = await sql<{ stream_id: string; applied: string; last: string }>`
    select e.stream_id, coalesce(o.version, 0)::text as applied, e.v::text as last
    from (select stream_id, max(stream_version) as v from events where type = any(${[...projection.handles]}::text[]) group by stream_id) e
    left join projection_offsets o on o.projection = ${projection.name} and o.stream_id = e.stream_id
    where coalesce(o.version, 0) < e.v
    order by e.stream_id
    limit ${limit}`.execute(db);
  return rows.map((r) => ({ streamId: r.stream_id, applied: Number(r.applied), last: Number(r.last) }));
}

/**
 * The last version of each stream a projection has applied (of every stream it has seen, or of those named):
 * whether its read model holds an event, however it is fed (store follower or Kafka).
 */
export async function appliedVersions(
  db: QueryExecutorProvider,
  projection: string,
  streamIds?: readonly string[],
): Promise<Map<string, number>> {
  const ids = streamIds ? [...streamIds] : null;
  const { rows } = await sql<{ stream_id: string; version: string }>`
    select stream_id, version from projection_offsets
    where projection = ${projection} and (${ids}::text[] is null or stream_id = any(${ids}::text[]))`.execute(db);
  return new Map(rows.map((r) => [r.stream_id, Number(r.version)]));
}

/** The consumer group of a process's projections (kafkaConsumer.ts). */
export const projectorsGroupId = (groupPrefix: string) => `${groupPrefix}.projectors`;

/** The group a projection consumed in on its own before the projections shared one: where it resumes the first time. */
export const legacyProjectorGroupId = (groupPrefix: string, projection: string) => `${groupPrefix}.${projection}`;

/** The per-projection offsets a commit of the projectors' group carries in its metadata (empty when it carries none). */
export function laneOffsets(metadata: string | null): Record<string, string> {
  if (!metadata) return {};
  try {
    const parsed: unknown = JSON.parse(metadata);
    if (typeof parsed !== 'object' || parsed === null) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  } catch {
    return {};
  }
}

/** A Kafka consumer group's committed offsets against the topic's end offsets. */
export interface GroupLag {
  /** Committed offsets summed over the partitions. */
  position: number;
  lagEvents: number;
  /** Whether the group has a member at all (`Empty`/`Dead` groups have none). */
  hasMembers: boolean;
}

/**
 * With `projection`, that projection's own offsets from the commit's metadata (the projectors' group commits
 * the lowest of its projections' offsets): a projection the commit does not name has consumed nothing.
 */
export async function consumerGroupLag(
  admin: Admin,
  groupId: string,
  topic: string,
  projection?: string,
): Promise<GroupLag> {
  const [ends, committed, described] = await Promise.all([
    admin.fetchTopicOffsets(topic),
    admin.fetchOffsets({ groupId, topics: [topic] }),
    admin.describeGroups([groupId]),
  ]);
  const offsetOf = (p: { offset: string; metadata: string | null }) =>
    Number(projection === undefined ? p.offset : (laneOffsets(p.metadata)[projection] ?? -1));
  const committedBy = new Map((committed[0]?.partitions ?? []).map((p) => [p.partition, offsetOf(p)]));
  let position = 0;
  let lagEvents = 0;
  for (const end of ends) {
    // -1: nothing committed yet, so the group starts at the partition's first retained offset.
    const offset = committedBy.get(end.partition) ?? -1;
    const from = offset < 0 ? Number(end.low) : offset;
    position += Math.max(offset, 0);
    lagEvents += Math.max(0, Number(end.high) - from);
  }
  const group = described.groups[0];
  return { position, lagEvents, hasMembers: (group?.members.length ?? 0) > 0 };
}
