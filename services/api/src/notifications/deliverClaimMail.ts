import {
  claimNotificationsStreamOf,
  type DomainEvent,
  Message,
  type NotificationKind,
  type Store,
} from '@claims/contracts';
import { storedDomainEvent, type Alongside } from '@claims/event-store';
import {
  claimDecider,
  claimMailDecider,
  notificationKindOf,
  teamNotificationKindOf,
  type RecordNotification,
} from '@claims/domain';
import type { AppContext, RequestMeta } from '../context.js';
import { findStore } from '../catalog/storeRepository.js';
import { foldRecorded, handleCommand, loadAggregate } from '../eventsourcing/commandHandler.js';
import { nameBasedId } from '../eventsourcing/nameBasedId.js';
import { loadClaim } from '../http/authorizedClaim.js';
import { withStoreReplyTo, type Mail, type Mailer } from './mailer.js';
import { claimMail, type ClaimAfter } from './claimMails.js';
import { mailStore } from './mailLayout.js';
import { teamMail } from './teamMails.js';
import { issueClaimLink } from './claimLinkIssuer.js';
import { clearRetry, sendRecorded, type NotificationCause } from './notificationRetries.js';
import { MAX_ATTEMPTS, notificationMeta, RECORD_MAIL } from './retrySchedule.js';
import { teamRecipients, type TeamRecipient } from './teamRecipients.js';

/** Mail about a claim: the shopper's, or one team member's. */
export type ClaimMailCause = NotificationCause & { job: { kind: 'shopper' } | { kind: 'member'; memberId: string } };

/** One notification per event and recipient: a repeat of the event (or a retry) finds it sent and sends nothing. */
export const claimNotificationId = (cause: Pick<ClaimMailCause, 'eventId' | 'job'>): string =>
  nameBasedId(
    cause.job.kind === 'shopper'
      ? `notification:${cause.eventId}:customer`
      : `notification:${cause.eventId}:member:${cause.job.memberId}`,
  );

/** Who a notification goes to, as what, and how its mail is written (a shopper's carries a fresh claim link). */
interface MailPlan {
  kind: NotificationKind;
  to: string;
  memberId?: string;
  compose(meta: RequestMeta): Promise<Mail>;
}

async function planFor(
  ctx: AppContext,
  cause: ClaimMailCause,
  after: ClaimAfter,
  store: Store,
  member: TeamRecipient | undefined,
): Promise<MailPlan | null> {
  const { claim, event } = after;
  const message = event.type === 'ClaimMessageSent' ? Message.parse(event.data) : null;
  if (cause.job.kind === 'shopper') {
    const kind = notificationKindOf(event);
    return (
      kind && {
        kind,
        to: claim.customer.email,
        compose: async (meta) =>
          withStoreReplyTo(claimMail(kind, after, store, await issueClaimLink(ctx, claim, meta), message), store),
      }
    );
  }
  const kind = teamNotificationKindOf(event);
  const memberId = cause.job.memberId;
  const current = member ?? (kind ? (await teamRecipients(ctx, store, kind, memberId))[0] : undefined);
  if (!kind || !current) return null;
  const desk = `${ctx.config.publicUrl}/admin`;
  return {
    kind,
    to: current.email,
    memberId,
    compose: async () =>
      teamMail(
        kind,
        current.email,
        claim,
        store,
        { claim: `${desk}/claims/view/${claim.id}`, settings: `${desk}/profile` },
        message,
      ),
  };
}

/**
 * What the caller already holds and need not be read again: the event itself (the claim's first event alone makes the
 * claim), the store, and the member who wants the mail (read just before).
 */
export interface HeldFacts {
  event?: DomainEvent;
  store?: Store;
  member?: TeamRecipient;
}

/** The claim as it stood just after its event, and that event: a later reply or decision gets a mail of its own. */
async function claimAfter(
  ctx: AppContext,
  cause: ClaimMailCause,
  held: DomainEvent | undefined,
): Promise<ClaimAfter | null> {
  if (held && cause.streamVersion === 1) {
    const claim = foldRecorded(claimDecider, [held]);
    return claim && { claim, event: held, events: [held] };
  }
  const loaded = await loadClaim(ctx, cause.streamId, cause.streamVersion);
  const recorded = loaded?.events.find((e) => e.eventId === cause.eventId);
  return loaded && recorded ? { claim: loaded.state, event: storedDomainEvent(recorded), events: loaded.events } : null;
}

/**
 * Sends the mail one event of a claim causes to one recipient, unless it went out already, and records the outcome
 * in the claim's notifications stream (never the claim's, whose version agents work at); a failure also schedules
 * the next try in the same transaction, so neither the failure nor the retry can be lost. A member is mailed only
 * while they still want it (`held.member`, when the caller has just read that; else it is read again).
 */
export async function deliverClaimMail(
  ctx: AppContext,
  mailer: Mailer,
  cause: ClaimMailCause,
  held: HeldFacts = {},
): Promise<void> {
  const notificationId = claimNotificationId(cause);
  const claimId = cause.streamId;
  const stream = claimNotificationsStreamOf(claimId);
  const mail = await loadAggregate(ctx, claimMailDecider, stream);
  const attempts = mail.state.attempts.get(notificationId) ?? 0;
  if (mail.state.sent.has(notificationId) || attempts >= MAX_ATTEMPTS) {
    await clearRetry(ctx.database.db, notificationId);
    return;
  }
  const after = await claimAfter(ctx, cause, held.event);
  const found =
    after &&
    (held.store?.id === after.claim.storeId ? held.store : await findStore(ctx.database.db, after.claim.storeId));
  if (!after || !found) return;
  const store = await mailStore(ctx, found);
  const meta = notificationMeta(cause);

  const plan = await planFor(ctx, cause, after, store, held.member);
  if (!plan) {
    // Nothing to mail (no longer a member, or no longer wanting it): nothing to retry either.
    await clearRetry(ctx.database.db, notificationId);
    return;
  }
  let subject: string | undefined;
  const record = (outcome: RecordNotification['outcome'], alongside?: Alongside) =>
    handleCommand(ctx, {
      // Decided on the stream as read above (a stale read is a conflict like any other): no second read per mail.
      decider: claimMailDecider,
      streamId: stream,
      storeId: store.id,
      meta,
      alongside,
      onConflict: RECORD_MAIL,
      loaded: mail,
      command: {
        type: 'RecordNotification',
        now: ctx.now(),
        outcome,
        scope: {
          claimId,
          notificationId,
          kind: plan.kind,
          causedBy: cause.eventId,
          to: plan.to,
          ...(plan.memberId ? { memberId: plan.memberId } : {}),
          ...(subject ? { subject } : {}),
        },
      },
    });
  const tried = await sendRecorded(
    ctx.database.db,
    { notificationId, cause, attempts, now: ctx.now },
    async () => {
      const composed = await plan.compose(meta);
      subject = composed.subject;
      await mailer.send(composed);
      return { sent: true } as const;
    },
    record,
  );
  if (tried.outcome === 'failed') {
    ctx.log.warn(
      { claimId, kind: plan.kind, attempt: tried.attempt, next: tried.next },
      'mail about a claim failed; it will be tried again unless given up',
    );
  }
}

/** Every team member who wants the mail this claim event causes gets it, each on their own (one failing holds no other back). */
export async function notifyTeamOf(
  ctx: AppContext,
  mailer: Mailer,
  cause: Omit<ClaimMailCause, 'job'>,
  event: DomainEvent,
  storeId: string,
): Promise<void> {
  const kind = teamNotificationKindOf(event);
  const store = kind && (await findStore(ctx.database.db, storeId));
  if (!kind || !store) return;
  for (const member of await teamRecipients(ctx, store, kind)) {
    await deliverClaimMail(
      ctx,
      mailer,
      { ...cause, job: { kind: 'member', memberId: member.userId } },
      { event, store, member },
    );
  }
}
