import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Logger } from 'pino';
import type { EventEnvelope } from '@claims/contracts';
import { sqlMigration, type Position } from '@claims/event-store';
import { applyEvents, RebuildInProgress } from './applyEvents.js';
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
  constructor(readonly delayMs: number, cause: unknown) {
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
  const { rows } = await sql<ParkedCount>`select projection, count(*)::int as parked from projection_parked group by projection order by projection`.execute(db);
  return rows;
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
  ) {}

  status(): ProjectorStatus {
    return this.current;
  }

  /**
   * `checkpoints[i]`, when given, is the follower's position once events[0..i] are handled.
   * Throws RetryLater when the caller should try the same events again later.
   */
  async apply(events: readonly EventEnvelope[], checkpoints?: readonly Position[]): Promise<void> {
    const name = `projection:${this.projection.name}`;
    const at = (i: number) => (checkpoints ? { name, position: checkpoints[i]! } : undefined);
    try {
      await applyEvents(this.db, this.projection, events, at(events.length - 1));
      this.current = { state: 'ok' };
      return;
    } catch (error) {
      if (events.length === 1) return this.failed(events[0]!, error, at(0));
      if (error instanceof RebuildInProgress) return this.wait(error);
    }
    for (const [i, event] of events.entries()) {
      try {
        await applyEvents(this.db, this.projection, [event], at(i));
      } catch (error) {
        await this.failed(event, error, at(i));
      }
    }
    this.current = { state: 'ok' };
  }

  private wait(error: RebuildInProgress): never {
    this.current = { state: 'waiting', reason: error.message };
    throw new RetryLater(this.policy.baseDelayMs, error);
  }

  private async failed(event: EventEnvelope, error: unknown, checkpoint: { name: string; position: Position } | undefined): Promise<void> {
    if (error instanceof RebuildInProgress) this.wait(error);
    const databaseAnswers = await sql`select 1`.execute(this.db).then(() => true, () => false);
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
    this.log.warn({ err: error, projection: this.projection.name, eventId: event.eventId, attempts, delayMs }, 'projection failed on an event; backing off');
    throw new RetryLater(delayMs, error);
  }

  private async park(event: EventEnvelope, reason: string, attempts: number, checkpoint: { name: string; position: Position } | undefined): Promise<void> {
    await sql`
      insert into projection_parked (projection, event_id, stream_id, stream_version, type, error, attempts)
      values (${this.projection.name}, ${event.eventId}::uuid, ${event.streamId}, ${event.streamVersion}, ${event.type}, ${reason}, ${attempts})
      on conflict (projection, event_id) do update set error = excluded.error, attempts = excluded.attempts, parked_at = now()`.execute(this.db);
    // The same bookkeeping as a successful apply (offset, checkpoint), without the apply.
    await applyEvents(this.db, { ...this.projection, apply: async () => undefined }, [event], checkpoint);
    this.log.error({ projection: this.projection.name, eventId: event.eventId, streamId: event.streamId, type: event.type, attempts, reason, alert: 'projection_parked' },
      'projection parked an event it could not apply; it moves on without it');
  }
}
