import { sql, type QueryExecutorProvider } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration, type Alongside } from '@claims/event-store';
import type { ReactedEvent } from '../eventsourcing/reactions.js';
import { failureText, nextAttemptAt } from './retrySchedule.js';

/** Mail that failed and is due again: one row per notification until it is sent or given up. */
export const notificationMigrations: Record<string, Migration> = {
  '0820_notification_retries': sqlMigration(
    sql`
      create table notification_retries (
        notification_id uuid primary key,
        claim_id uuid not null,
        event_id uuid not null,
        stream_version bigint not null,
        correlation_id text not null,
        next_attempt_at timestamptz not null
      )`,
    sql`create index notification_retries_due on notification_retries (next_attempt_at)`,
  ),
  // Mail to team members and answers to claim-link requests are retried too: a row names its job and the event's stream.
  '1600_notification_retries_jobs': sqlMigration(
    sql`alter table notification_retries add column job text not null default 'shopper'`,
    sql`alter table notification_retries add column member_id uuid`,
    sql`alter table notification_retries add column stream_id text`,
    sql`update notification_retries set stream_id = claim_id::text`,
    sql`alter table notification_retries alter column stream_id set not null`,
    sql`alter table notification_retries drop column claim_id`,
  ),
};

/**
 * Which mail a retry sends: the shopper's about a claim, a team member's about a claim, the links an order's shopper
 * asked for, or an invitation (its stream the team's, its event the invitation).
 */
export type NotificationJob =
  { kind: 'shopper' } | { kind: 'member'; memberId: string } | { kind: 'claim-links' } | { kind: 'invitation' };

/** What a retry needs to find the event that caused the mail again (for claim mail, the claim's stream). */
export interface NotificationCause {
  job: NotificationJob;
  streamId: string;
  eventId: string;
  streamVersion: number;
  correlationId: string;
}

/** The cause of the mail a reaction sends for `event`, but for which mail it is. */
export const causeOf = (event: ReactedEvent): Omit<NotificationCause, 'job'> => ({
  streamId: event.streamId,
  eventId: event.eventId,
  streamVersion: event.streamVersion,
  correlationId: event.metadata.correlationId,
});

export async function scheduleRetry(
  db: QueryExecutorProvider,
  notificationId: string,
  cause: NotificationCause,
  at: string,
): Promise<void> {
  const memberId = cause.job.kind === 'member' ? cause.job.memberId : null;
  await sql`
    insert into notification_retries (notification_id, job, member_id, stream_id, event_id, stream_version, correlation_id, next_attempt_at)
    values (${notificationId}::uuid, ${cause.job.kind}, ${memberId}::uuid, ${cause.streamId}, ${cause.eventId}::uuid, ${cause.streamVersion},
            ${cause.correlationId}, ${at}::timestamptz)
    on conflict (notification_id) do update set next_attempt_at = excluded.next_attempt_at`.execute(db);
}

export async function clearRetry(db: QueryExecutorProvider, notificationId: string): Promise<void> {
  await sql`delete from notification_retries where notification_id = ${notificationId}::uuid`.execute(db);
}

/** The retries of mail found sent, given up or no longer owed, in one statement (none: no round trip). */
export async function clearRetries(db: QueryExecutorProvider, notificationIds: readonly string[]): Promise<void> {
  if (notificationIds.length === 0) return;
  await sql`delete from notification_retries where notification_id = any(${[...notificationIds]}::uuid[])`.execute(db);
}

function jobOf(row: { job: string; member_id: string | null }): NotificationJob | null {
  if (row.job === 'shopper') return { kind: 'shopper' };
  if (row.job === 'claim-links') return { kind: 'claim-links' };
  if (row.job === 'invitation') return { kind: 'invitation' };
  return row.job === 'member' && row.member_id ? { kind: 'member', memberId: row.member_id } : null;
}

/**
 * Takes the retries due now, oldest first, by moving them to `leaseUntil` in one short statement: two
 * workers never take the same one, no transaction stays open while mail is sent, and a worker that dies
 * mid-send leaves its lease to run out, after which the retry is due again.
 */
export async function leaseDueRetries(
  db: QueryExecutorProvider,
  now: string,
  leaseUntil: string,
  limit: number,
): Promise<Array<NotificationCause & { notificationId: string }>> {
  const { rows } = await sql<{
    notification_id: string;
    job: string;
    member_id: string | null;
    stream_id: string;
    event_id: string;
    stream_version: number;
    correlation_id: string;
  }>`
    update notification_retries set next_attempt_at = ${leaseUntil}::timestamptz
    where notification_id in (
      select notification_id from notification_retries where next_attempt_at <= ${now}::timestamptz
      order by next_attempt_at limit ${limit} for update skip locked)
    returning notification_id, job, member_id, stream_id, event_id, stream_version, correlation_id`.execute(db);
  return rows.flatMap((r) => {
    const job = jobOf(r);
    return job
      ? [
          {
            notificationId: r.notification_id,
            job,
            streamId: r.stream_id,
            eventId: r.event_id,
            streamVersion: Number(r.stream_version),
            correlationId: r.correlation_id,
          },
        ]
      : [];
  });
}

/** Retries of mail due by `now` (a figure for metrics). */
export async function countDueRetries(db: QueryExecutorProvider, now: string): Promise<number> {
  const { rows } = await sql<{
    due: number;
  }>`select count(*)::int as due from notification_retries where next_attempt_at <= ${now}::timestamptz`.execute(db);
  return rows[0]?.due ?? 0;
}

/** A failed try of a mail as its record states it: why, and when it is tried again (null: given up). */
export interface MailFailure {
  sent: false;
  error: string;
  nextAttemptAt: string | null;
}

/** How a try went: sent (and recorded), nothing left to send, or failed (recorded, and retried unless given up). */
export type MailTry =
  { outcome: 'sent' } | { outcome: 'nothing' } | { outcome: 'failed'; attempt: number; next: string | null };

/**
 * One try of a mail, recorded as every mail is: a failure with its next try, the retry scheduled (or cleared, once given
 * up) in the record's own transaction, so neither can be lost; a success clearing the retry a failure left. `send`
 * answers the success record, or null when nothing is to be sent any more (its retry ends).
 */
export async function sendRecorded<Sent extends { sent: true }>(
  db: QueryExecutorProvider,
  job: { notificationId: string; cause: NotificationCause; attempts: number; now: () => string },
  send: () => Promise<Sent | null>,
  record: (outcome: Sent | MailFailure, alongside?: Alongside) => Promise<unknown>,
): Promise<MailTry> {
  const { notificationId, cause, attempts } = job;
  let sent: Sent | null;
  try {
    sent = await send();
  } catch (error) {
    const next = nextAttemptAt(job.now(), attempts + 1);
    await record({ sent: false, error: failureText(error), nextAttemptAt: next }, (trx) =>
      next ? scheduleRetry(trx, notificationId, cause, next) : clearRetry(trx, notificationId),
    );
    return { outcome: 'failed', attempt: attempts + 1, next };
  }
  if (!sent) {
    await clearRetry(db, notificationId);
    return { outcome: 'nothing' };
  }
  // A retry row exists only beside a recorded failure: after none, the record is one append, no transaction.
  await record(sent, attempts === 0 ? undefined : (trx) => clearRetry(trx, notificationId));
  return { outcome: 'sent' };
}
