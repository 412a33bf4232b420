import { sql, type Kysely, type QueryExecutorProvider } from 'kysely';
import { DomainEvent, type EventEnvelope, type EventType } from '@claims/contracts';
import { storeCheckpoint, storedDomainEvent, type Position } from '@claims/event-store';
import { handledBy, type EventsByType, type Projection, type ProjectedEvent } from './projection.js';

/** How an envelope's data becomes a domain event: read from our own store it is typed as is, from outside it is parsed. */
export type EventTyping = (event: EventEnvelope) => DomainEvent;

/** For envelopes from outside the store (Kafka messages): validated, so a malformed one fails (and is parked). */
export const parsedDomainEvent: EventTyping = (event) => DomainEvent.parse({ type: event.type, data: event.data });

/** The event typed for the projection; throws when it is not one the projection handles. */
export function toProjected<T extends EventType>(
  projection: Projection<T>,
  event: EventEnvelope,
  typing: EventTyping = storedDomainEvent,
): ProjectedEvent<T> {
  const typed = typing(event);
  if (!isHandled(projection, typed))
    throw new Error(`${projection.name} was given a ${typed.type} event, which it does not handle`);
  return { ...event, ...typed };
}

const isHandled = <T extends EventType>(projection: Projection<T>, event: DomainEvent): event is EventsByType[T] =>
  handledBy(projection, event.type);

/** A rebuild of the projection holds it (rebuild.ts): live workers leave their batch for later. */
export class RebuildInProgress extends Error {
  constructor(readonly projection: string) {
    super(`Projection ${projection} is being rebuilt; live work waits until the rebuild ends`);
  }
}

/** Held exclusively by a rebuild's session for its whole run, shared by each live batch. */
export const rebuildLockKey = (name: string) => `projection-rebuild:${name}`;

/**
 * Serialises every writer of one read model (followers, Kafka consumers, a rebuild's switch) for the
 * length of its transaction, so offsets are read and moved by one writer at a time. A batch outside an
 * in-place replay's session (rebuild.ts, the webhook outbox) finds the replay's lock taken and gives up
 * with RebuildInProgress: applied after the replay reset the offsets, it would move a stream's offset
 * past events the replay has not reached yet, and the replay would skip them.
 */
export async function lockProjection(trx: QueryExecutorProvider, name: string): Promise<void> {
  const { rows } = await sql<{
    free: boolean;
  }>`select pg_try_advisory_xact_lock_shared(hashtextextended(${rebuildLockKey(name)}, 0)) as free`.execute(trx);
  if (!rows[0]?.free) throw new RebuildInProgress(name);
  await sql`select pg_advisory_xact_lock(hashtextextended(${`projection:${name}`}, 0))`.execute(trx);
}

async function loadOffsets(
  trx: QueryExecutorProvider,
  projection: string,
  streamIds: string[],
): Promise<Map<string, number>> {
  if (streamIds.length === 0) return new Map();
  const rows = await sql<{ stream_id: string; version: number }>`
    select stream_id, version from projection_offsets
    where projection = ${projection} and stream_id = any(${streamIds}::text[])`.execute(trx);
  return new Map(rows.rows.map((r) => [r.stream_id, Number(r.version)]));
}

/**
 * Applies a batch in one transaction together with the per-stream offsets (and the follower's
 * checkpoint when given): a crash leaves either all of it or none, and an event at or below a
 * stream's offset is skipped, so at-least-once delivery changes nothing twice. The projection gets
 * the new events in one `applyBatch` and the offsets move in one statement: a few round trips per
 * batch instead of two per event (docs/benchmarks.md, "Projections").
 */
export async function applyEvents<DB, T extends EventType>(
  db: Kysely<DB>,
  projection: Projection<T>,
  events: readonly EventEnvelope[],
  checkpoint?: { name: string; position: Position },
  typing: EventTyping = storedDomainEvent,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await lockProjection(trx, projection.name);
    return applyInTransaction(trx, projection, events, checkpoint, typing);
  });
}

/** applyEvents' work inside a transaction the caller holds, with the projection's lock already taken. */
export async function applyInTransaction<T extends EventType>(
  trx: QueryExecutorProvider,
  projection: Projection<T>,
  events: readonly EventEnvelope[],
  checkpoint?: { name: string; position: Position },
  typing: EventTyping = storedDomainEvent,
): Promise<number> {
  const relevant = events.filter((e) => handledBy(projection, e.type));
  const offsets = await loadOffsets(trx, projection.name, [...new Set(relevant.map((e) => e.streamId))]);
  const fresh: ProjectedEvent<T>[] = [];
  for (const event of relevant) {
    if (event.streamVersion <= (offsets.get(event.streamId) ?? 0)) continue;
    fresh.push(toProjected(projection, event, typing));
    offsets.set(event.streamId, event.streamVersion);
  }
  if (fresh.length > 0) await projection.applyBatch(trx, fresh);
  if (offsets.size > 0) {
    const ids = [...offsets.keys()];
    await sql`
      insert into projection_offsets (projection, stream_id, version)
      select ${projection.name}, s.id, s.v from unnest(${ids}::text[], ${ids.map((id) => offsets.get(id)!)}::bigint[]) as s(id, v)
      on conflict (projection, stream_id) do update set version = greatest(projection_offsets.version, excluded.version)`.execute(
      trx,
    );
  }
  if (checkpoint) await storeCheckpoint(trx, checkpoint.name, checkpoint.position);
  return fresh.length;
}
