import { sql, type Kysely, type QueryExecutorProvider } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { ParkedReactionEvent } from '@claims/contracts';
import { parkedEventOf, sqlMigration, storeCheckpoint, storedDomainEvent, toRecordedEvent } from '@claims/event-store';
import type { ParkedEventRow, Position, StoredEventRow } from '@claims/event-store';
import type { AppContext } from '../context.js';
import type { ReactedEvent, Reaction } from './reactions.js';

/**
 * Events a reaction could not handle after every try, set aside so the events behind them (other claims, other stores)
 * are handled. A row stays once a person retried or skipped it: who did what, and when, is its audit record.
 */
export const reactionFaultMigrations: Record<string, Migration> = {
  '2710_reaction_parked': sqlMigration(
    sql`
      create table reaction_parked (
        reaction text not null,
        event_id uuid not null,
        stream_id text not null,
        stream_version bigint not null,
        type text not null,
        error text not null,
        attempts int not null,
        parked_at timestamptz not null default now(),
        resolution text check (resolution in ('handled', 'skipped')),
        resolved_by text,
        resolved_at timestamptz,
        primary key (reaction, event_id)
      )`,
    sql`create index reaction_parked_open on reaction_parked (parked_at) where resolution is null`,
  ),
};

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Sets the event aside and moves the reaction's checkpoint past it in one transaction: a crash in between neither loses
 * the event nor parks one the reaction then handles. Parked again after a person's decision, it is open again.
 */
export async function parkReactionEvent<DB>(
  db: Kysely<DB>,
  reaction: string,
  checkpoint: string,
  event: ReactedEvent,
  error: unknown,
  attempts: number,
): Promise<void> {
  const position: Position = { transactionId: event.transactionId, globalPosition: event.globalPosition };
  await db.transaction().execute(async (trx) => {
    await sql`
      insert into reaction_parked (reaction, event_id, stream_id, stream_version, type, error, attempts)
      values (${reaction}, ${event.eventId}::uuid, ${event.streamId}, ${event.streamVersion}, ${event.type}, ${describe(error)}, ${attempts})
      on conflict (reaction, event_id) do update
      set error = excluded.error, attempts = excluded.attempts, parked_at = now(), resolution = null, resolved_by = null, resolved_at = null`.execute(
      trx,
    );
    await storeCheckpoint(trx, checkpoint, position);
  });
}

/** The events parked and not yet retried or skipped, oldest first (an operator's list: a handful, not a stream). */
export async function listParkedReactionEvents(db: QueryExecutorProvider): Promise<ParkedReactionEvent[]> {
  const { rows } = await sql<ParkedEventRow & { reaction: string }>`
    select reaction, event_id, stream_id, stream_version::text, type, error, attempts, parked_at
    from reaction_parked where resolution is null order by parked_at, reaction, event_id`.execute(db);
  return rows.map((r) => ({ reaction: r.reaction, ...parkedEventOf(r) }));
}

/** What retrying a parked event came to: handled (and no longer parked), failing again, or no such open parked event. */
export type ReactionRetryOutcome =
  { outcome: 'handled' } | { outcome: 'failed'; error: string } | { outcome: 'not_parked' };

/**
 * Runs the reaction on a parked event again (its fault has been fixed) and closes the row as handled by `operator`.
 * Its checkpoint lies past the event, so it is handled out of order: the person's call, made after reading the error.
 * Failing again, it stays parked with the new error and one more attempt. Reactions are safe to repeat, so two people
 * retrying at once cost at most a repeat.
 */
export async function retryParkedReaction(
  ctx: AppContext,
  reaction: Reaction,
  eventId: string,
  operator: string,
): Promise<ReactionRetryOutcome> {
  const db = ctx.database.db;
  const { rows } = await sql<StoredEventRow>`
    select e.global_position, e.transaction_id::text as transaction_id, e.event_id, e.stream_id, e.stream_version, e.type, e.store_id, e.data, e.metadata, e.occurred_at
    from reaction_parked p join events e on e.event_id = p.event_id
    where p.reaction = ${reaction.name} and p.event_id = ${eventId}::uuid and p.resolution is null`.execute(db);
  const row = rows[0];
  if (!row) return { outcome: 'not_parked' };
  const recorded = toRecordedEvent(row);
  try {
    await reaction.react(ctx, [{ ...recorded, ...storedDomainEvent(recorded) }]);
  } catch (error) {
    const reason = describe(error);
    await sql`
      update reaction_parked set error = ${reason}, attempts = attempts + 1
      where reaction = ${reaction.name} and event_id = ${eventId}::uuid and resolution is null`.execute(db);
    return { outcome: 'failed', error: reason };
  }
  await resolve(db, reaction.name, eventId, 'handled', operator);
  return { outcome: 'handled' };
}

/** Gives a parked event up for good: the reaction never handles it. True when it was open. */
export async function skipParkedReaction(
  db: QueryExecutorProvider,
  reaction: string,
  eventId: string,
  operator: string,
): Promise<boolean> {
  return resolve(db, reaction, eventId, 'skipped', operator);
}

async function resolve(
  db: QueryExecutorProvider,
  reaction: string,
  eventId: string,
  resolution: 'handled' | 'skipped',
  operator: string,
): Promise<boolean> {
  const { rows } = await sql`
    update reaction_parked set resolution = ${resolution}, resolved_by = ${operator}, resolved_at = now()
    where reaction = ${reaction} and event_id = ${eventId}::uuid and resolution is null returning event_id`.execute(db);
  return rows.length > 0;
}
