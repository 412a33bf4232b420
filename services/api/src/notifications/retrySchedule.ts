import type { RequestMeta } from '../context.js';
import type { ConflictPolicy } from '../eventsourcing/commandHandler.js';
import type { NotificationCause } from './notificationRetries.js';

/** A notification that failed this often is given up (every failure stays recorded). */
export const MAX_ATTEMPTS = 10;

/** A retry taken by a worker that dies mid-send is due again after this long. */
export const LEASE_MS = 120_000;

/** When the try after `attempt` failed ones is due: after a second, then twice as long each time, at most an hour apart; null once given up. */
export function nextAttemptAt(now: string, attempt: number): string | null {
  if (attempt >= MAX_ATTEMPTS) return null;
  return new Date(Date.parse(now) + Math.min(3_600_000, 1_000 * 2 ** (attempt - 1))).toISOString();
}

/** A failure's text for the record: the transport's message, cut short. */
export const failureText = (error: unknown): string =>
  error instanceof Error ? error.message.slice(0, 500) : 'unknown error';

/**
 * Several workers record mail in one stream at once (the shopper's and each team member's in a claim's, links in its
 * links stream); each record stands alone, so deciding again is always right, and a record lost to a conflict after
 * the mail went out would send it twice.
 */
export const RECORD_MAIL: ConflictPolicy = { kind: 'decide-again', attempts: 20 };

/** Mail is recorded as the notifications worker's doing, caused by the event it answers. */
export const notificationMeta = (cause: Pick<NotificationCause, 'correlationId' | 'eventId'>): RequestMeta => ({
  actor: { type: 'system', id: 'notifications', name: 'Notifications' },
  correlationId: cause.correlationId,
  causationId: cause.eventId,
});
