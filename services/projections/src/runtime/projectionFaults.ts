import { sql, type Kysely, type QueryExecutorProvider } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Logger } from 'pino';
import type { EventEnvelope, ParkedEvent } from '@claims/contracts';
import {
  sqlMigration,
  storedDomainEvent,
  parkedEventOf,
  toRecordedEvent,
  type ParkedEventRow,
  type Position,
  type StoredEventRow,
} from '@claims/event-store';
import { applyEvents, lockProjection, RebuildInProgress, toProjected, type EventTyping } from './applyEvents.js';
import { projectionCheckpointName } from './readerProgress.js';
import type { Projection } from './projection.js';

/** How often a failing event is tried, and how long between tries, before it is parked. */
export interface FaultPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_FAULT_POLICY: FaultPolicy = { maxAttempts: 5, baseDelayMs: 250, maxDelayMs: 30_000 };

export type ProjectorStatus =
  | { state: 'ok' }
  | { state: 'waiting'; reason: string }
  | { state: 'failing'; reason: string; eventId: string | null; attempts: number };

/** The batch failed and is to be tried again after `delayMs` (the runtime backs off exponentially). */
export class RetryLater extends Error {
  constructor(
    readonly delayMs: number,
    cause: unknown,
  ) {
    super(`retry in ${delayMs} ms`, { cause });
  }
}

/** Events a projection could not apply after every try: set aside, so the events behind them flow. */
export const projectionFaultMigrations: Record<string, Migration> = {
  '0860_projection_parked': sqlMigration(
    sql`
      create table projection_parked (
        projection text not null,
        event_id uuid not null,
        stream_id text not null,
        stream_version bigint not null,
        type text not null,
        error text not null,
        attempts int not null,
        parked_at timestamptz not null default now(),
        primary key (projection, event_id)
      )`,
  ),
};

export interface ParkedCount {
  projection: string;
  parked: number;
}

export async function parkedCounts<DB>(db: Kysely<DB>): Promise<ParkedCount[]> {
  const { rows } =
    await sql<ParkedCount>`select projection, count(*)::int as parked from projection_parked group by projection order by projection`.execute(
      db,
    );
  return rows;
}

/** Every parked event, oldest first (an operator's list: a handful, not a stream). */
export async function listParked(db: QueryExecutorProvider): Promise<ParkedEvent[]> {
  const { rows } = await sql<ParkedEventRow & { projection: string }>`
    select projection, event_id, stream_id, stream_version::text, type, error, attempts, parked_at
    from projection_parked order by parked_at, projection, event_id`.execute(db);
  return rows.map((r) => ({ projection: r.projection, ...parkedEventOf(r) }));
}

/** What retrying a parked event came to: applied (and no longer parked), failing again, or no such parked event. */
export type RetryOutcome = { outcome: 'applied' } | { outcome: 'failed'; error: string } | { outcome: 'not_parked' };

/**
 * Applies a parked event now (the fault it hit has been fixed) and un-parks it, in one transaction
 * under the projection's lock. The stream's offset already lies past it, so it is applied out of
 * its stream's order: the operator's call, made after reading the error. Failing again, it stays
 * parked with the new error and one more attempt.
 */
export async function retryParked<DB>(db: Kysely<DB>, projection: Projection, eventId: string): Promise<RetryOutcome> {
  try {
    return await db.transaction().execute(async (trx) => {
      await lockProjection(trx, projection.name);
      const parked =
        await sql`delete from projection_parked where projection = ${projection.name} and event_id = ${eventId}::uuid returning event_id`.execute(
          trx,
        );
      if (parked.rows.length === 0) return { outcome: 'not_parked' as const };
      const { rows } = await sql<StoredEventRow>`
        select global_position, transaction_id::text as transaction_id, event_id, stream_id, stream_version, type, store_id, data, metadata, occurred_at
        from events where event_id = ${eventId}::uuid`.execute(trx);
      const row = rows[0];
      if (!row) throw new Error(`event ${eventId} is not in the event store`);
      await projection.applyBatch(trx, [toProjected(projection, toRecordedEvent(row))]);
      return { outcome: 'applied' as const };
    });
  } catch (error) {
    const reason = describe(error);
    const { rows } = await sql`
      update projection_parked set error = ${reason}, attempts = attempts + 1, parked_at = now()
      where projection = ${projection.name} and event_id = ${eventId}::uuid returning event_id`.execute(db);
    return rows.length === 0 ? { outcome: 'not_parked' } : { outcome: 'failed', error: reason };
  }
}

/** Gives a parked event up for good: the read model stays without it. True when it was parked. */
export async function skipParked(db: QueryExecutorProvider, projection: string, eventId: string): Promise<boolean> {
  const { rows } =
    await sql`delete from projection_parked where projection = ${projection} and event_id = ${eventId}::uuid returning event_id`.execute(
      db,
    );
  return rows.length > 0;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Applies batches of one projection and keeps one bad event from stopping it: a failing batch is
 * applied event by event to find the culprit, which is retried with exponential backoff and, after
 * `maxAttempts`, parked (projection_parked, an error log) while its stream's offset moves past it.
 * Failures while the database itself does not answer are not the event's fault and never park it.
 */
export class ProjectorGuard<DB> {
  private attempts = new Map<string, number>();
  private current: ProjectorStatus = { state: 'ok' };

  constructor(
    private readonly db: Kysely<DB>,
    readonly projection: Projection,
    private readonly log: Logger,
    private readonly policy: FaultPolicy = DEFAULT_FAULT_POLICY,
    /** How the events' data is typed: as stored (a follower of our store) or parsed (Kafka messages). */
    private readonly typing: EventTyping = storedDomainEvent,
  ) {}

  status(): ProjectorStatus {
    return this.current;
  }

  /**
   * `checkpoints[i]`, when given, is the follower's position once events[0..i] are handled.
   * Throws RetryLater when the caller should try the same events again later.
   */
  async apply(events: readonly EventEnvelope[], checkpoints?: readonly Position[]): Promise<void> {
    const name = projectionCheckpointName(this.projection);
    const at = (i: number) => (checkpoints ? { name, position: checkpoints[i]! } : undefined);
    await this.applySlice(events, 0, events.length, at);
    this.current = { state: 'ok' };
  }

  /**
   * Applies events[from..to) as one batch; when that fails, halves it and applies each half in turn, down
   * to the one event that fails alone (tried again, then parked). A poisoned event costs about 2·log2(n)
   * failed batches instead of n single-event transactions, and every good event around it still goes in
   * a batch; halves applied before a failure stay applied (their offsets skip them on the retry).
   */
  private async applySlice(
    events: readonly EventEnvelope[],
    from: number,
    to: number,
    at: (i: number) => { name: string; position: Position } | undefined,
  ): Promise<void> {
    try {
      await applyEvents(this.db, this.projection, events.slice(from, to), at(to - 1), this.typing);
      return;
    } catch (error) {
      if (to - from === 1) return this.failed(events[from]!, error, at(from));
      if (error instanceof RebuildInProgress) return this.wait(error);
    }
    const middle = from + Math.ceil((to - from) / 2);
    await this.applySlice(events, from, middle, at);
    await this.applySlice(events, middle, to, at);
  }

  private wait(error: RebuildInProgress): never {
    this.current = { state: 'waiting', reason: error.message };
    throw new RetryLater(this.policy.baseDelayMs, error);
  }

  private async failed(
    event: EventEnvelope,
    error: unknown,
    checkpoint: { name: string; position: Position } | undefined,
  ): Promise<void> {
    if (error instanceof RebuildInProgress) this.wait(error);
    const databaseAnswers = await sql`select 1`.execute(this.db).then(
      () => true,
      () => false,
    );
    const attempts = databaseAnswers ? (this.attempts.get(event.eventId) ?? 0) + 1 : 0;
    const reason = describe(error);
    if (attempts >= this.policy.maxAttempts) {
      await this.park(event, reason, attempts, checkpoint);
      this.attempts.delete(event.eventId);
      this.current = { state: 'ok' };
      return;
    }
    if (databaseAnswers) this.attempts.set(event.eventId, attempts);
    const tries = Math.max(attempts, 1);
    const delayMs = Math.min(this.policy.baseDelayMs * 2 ** (tries - 1), this.policy.maxDelayMs);
    this.current = { state: 'failing', reason, eventId: databaseAnswers ? event.eventId : null, attempts };
    this.log.warn(
      { err: error, projection: this.projection.name, eventId: event.eventId, attempts, delayMs },
      'projection failed on an event; backing off',
    );
    throw new RetryLater(delayMs, error);
  }

  private async park(
    event: EventEnvelope,
    reason: string,
    attempts: number,
    checkpoint: { name: string; position: Position } | undefined,
  ): Promise<void> {
    await sql`
      insert into projection_parked (projection, event_id, stream_id, stream_version, type, error, attempts)
      values (${this.projection.name}, ${event.eventId}::uuid, ${event.streamId}, ${event.streamVersion}, ${event.type}, ${reason}, ${attempts})
      on conflict (projection, event_id) do update set error = excluded.error, attempts = excluded.attempts, parked_at = now()`.execute(
      this.db,
    );
    // The same bookkeeping as a successful apply (offset, checkpoint), without the apply.
    await applyEvents(this.db, { ...this.projection, applyBatch: async () => undefined }, [event], checkpoint);
    this.log.error(
      {
        projection: this.projection.name,
        eventId: event.eventId,
        streamId: event.streamId,
        type: event.type,
        attempts,
        reason,
        alert: 'projection_parked',
      },
      'projection parked an event it could not apply; it moves on without it',
    );
  }
}
