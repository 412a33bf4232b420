import { claimLinksStreamOf, claimNotificationsStreamOf, DomainEvent, Message, type Claim, type NotificationKind } from '@claims/contracts';
import { claimLinksDecider, claimMailDecider, notificationKindOf, type RecordNotification } from '@claims/domain';
import { startPollingLoop, type PollingLoop } from '@claims/event-store';
import type { AppContext, RequestMeta } from '../context.js';
import { findStore } from '../catalog/storeRepository.js';
import { handleCommand, loadAggregate } from '../eventsourcing/commandHandler.js';
import { nameBasedId } from '../eventsourcing/nameBasedId.js';
import type { Reaction } from '../eventsourcing/reactions.js';
import { loadClaim } from '../http/authorizedClaim.js';
import { newClaimToken } from '../http/claimLinks.js';
import type { Mailer } from './mailer.js';
import { claimMail } from './claimMails.js';
import { clearRetry, leaseDueRetries, scheduleRetry, type NotificationCause } from './notificationRetries.js';

/** A notification that failed this often is given up (every failure stays recorded). */
const MAX_ATTEMPTS = 10;
/** The first retry comes after a second, then twice as long each time, at most an hour apart. */
const retryDelayMs = (attempt: number) => Math.min(3_600_000, 1_000 * 2 ** (attempt - 1));
/** A retry taken by a worker that dies mid-send is due again after this long. */
const LEASE_MS = 120_000;

const metaFor = (cause: NotificationCause): RequestMeta =>
  ({ actor: { type: 'system', id: 'notifications', name: 'Notifications' }, correlationId: cause.correlationId, causationId: cause.eventId });

/** A fresh link to the claim for this mail: only its hash is recorded, in the claim's links stream. */
async function issueLink(ctx: AppContext, claim: Claim, meta: RequestMeta): Promise<string> {
  const { token, tokenHash } = newClaimToken(claim.id);
  await handleCommand(ctx, {
    decider: claimLinksDecider, streamId: claimLinksStreamOf(claim.id), storeId: claim.storeId, meta,
    command: { type: 'IssueClaimLink', claimId: claim.id, tokenHash, now: ctx.now() },
  });
  return `${ctx.config.publicUrl}/view/${token}`;
}

/**
 * Sends the shopper's mail for one event of their claim, unless it went out already, and records the
 * outcome in the claim's notifications stream; a failure also schedules the next try in the same
 * transaction, so neither the failure nor the retry can be lost.
 */
async function deliver(ctx: AppContext, mailer: Mailer, cause: NotificationCause): Promise<void> {
  const notificationId = nameBasedId(`notification:${cause.eventId}:customer`);
  const stream = claimNotificationsStreamOf(cause.claimId);
  const mail = await loadAggregate(ctx, claimMailDecider, stream);
  const attempts = mail.state.attempts.get(notificationId) ?? 0;
  if (mail.state.sent.has(notificationId) || attempts >= MAX_ATTEMPTS) {
    await clearRetry(ctx.database.db, notificationId);
    return;
  }
  // The claim as it stood just after its event: a later reply or decision gets a mail of its own.
  const loaded = await loadClaim(ctx, cause.claimId, cause.streamVersion);
  const recorded = loaded?.events.find((e) => e.eventId === cause.eventId);
  const store = loaded && (await findStore(ctx.database.db, loaded.state.storeId));
  if (!loaded || !recorded || !store) return;
  const event = DomainEvent.parse({ type: recorded.type, data: recorded.data });
  const kind: NotificationKind | null = notificationKindOf(event);
  if (!kind) return;
  const meta = metaFor(cause);
  const record = (outcome: RecordNotification['outcome'], alongside: Parameters<typeof handleCommand>[1]['alongside']) => handleCommand(ctx, {
    decider: claimMailDecider, streamId: stream, storeId: store.id, meta, alongside,
    command: { type: 'RecordNotification', scope: { claimId: cause.claimId, notificationId, kind, causedBy: cause.eventId }, outcome, now: ctx.now() },
  });
  try {
    const link = await issueLink(ctx, loaded.state, meta);
    await mailer.send(claimMail(kind, loaded.state, store, link, event.type === 'ClaimMessageSent' ? Message.parse(event.data) : null));
  } catch (error) {
    const next = new Date(Date.parse(ctx.now()) + retryDelayMs(attempts + 1)).toISOString();
    const reason = error instanceof Error ? error.message.slice(0, 500) : 'unknown error';
    await record({ sent: false, error: reason }, (trx) => scheduleRetry(trx, notificationId, cause, next));
    ctx.log.warn({ claimId: cause.claimId, kind, attempt: attempts + 1, next }, 'mail to the shopper failed; it will be tried again');
    return;
  }
  await record({ sent: true }, (trx) => clearRetry(trx, notificationId));
}

/**
 * Mail to the shopper when their claim is filed, when the store writes and when it is decided: a reaction
 * with its own checkpoint, never inside a request. A failed send never holds back other claims' mail:
 * it is recorded and retried on its own schedule (`startNotificationRetries`).
 */
export function notifyShopper(mailer: Mailer): Reaction {
  return {
    name: 'notify-shopper',
    handles: new Set(['ClaimFiled', 'ClaimMessageSent', 'ClaimResolved']),
    async react(ctx, event) {
      if (!notificationKindOf(event)) return;
      await deliver(ctx, mailer, { claimId: event.streamId, eventId: event.eventId, streamVersion: event.streamVersion, correlationId: event.metadata.correlationId });
    },
  };
}

/** Sends the mail whose retry is due, every `pollMs`. */
export function startNotificationRetries(ctx: AppContext, mailer: Mailer, pollMs = 1_000): PollingLoop {
  return startPollingLoop(async () => {
    const now = ctx.now();
    const due = await leaseDueRetries(ctx.database.db, now, new Date(Date.parse(now) + LEASE_MS).toISOString(), 50);
    for (const cause of due) await deliver(ctx, mailer, cause);
  }, pollMs, (error) => ctx.log.error({ err: error }, 'notification retries failed; trying again'));
}
