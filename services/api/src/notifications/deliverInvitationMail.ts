import { invitationMailStreamOf, readerOf, type DomainEvent, type EventOf } from '@claims/contracts';
import { readStream, storedDomainEvent, type Alongside } from '@claims/event-store';
import { invitationMailDecider, type RecordInvitationMail } from '@claims/domain';
import type { AppContext } from '../context.js';
import { randomSecret, sha256 } from '../platform/secrets.js';
import { findStore } from '../catalog/storeRepository.js';
import { handleCommand, loadAggregate } from '../eventsourcing/commandHandler.js';
import { nameBasedId } from '../eventsourcing/nameBasedId.js';
import type { Reaction } from '../eventsourcing/reactions.js';
import { issueInvitationLink } from '../team/index.js';
import { mailInStreamOrder, type Mailer } from './mailer.js';
import { mailStore } from './mailLayout.js';
import { invitationMail } from './invitationMail.js';
import { causeOf, clearRetry, sendRecorded, type NotificationCause } from './notificationRetries.js';
import { MAX_ATTEMPTS, notificationMeta, RECORD_MAIL } from './retrySchedule.js';

type InvitationEvent = EventOf<'TeamMemberInvited' | 'SupportUserInvited'>;

/** One mail per invitation event: a repeat of the event (or a retry) finds it sent and sends nothing. */
export const invitationNotificationId = (eventId: string): string => nameBasedId(`invitation-mail:${eventId}`);

/** The invitation a mail is for: a new user's (an existing user's offer is accepted signed in, with no token). */
async function invitationOf(
  ctx: AppContext,
  cause: NotificationCause,
  held: DomainEvent | undefined,
): Promise<InvitationEvent | null> {
  let event = held;
  if (!event) {
    const { events } = await readStream(ctx.database.db, cause.streamId, cause.streamVersion);
    const recorded = events.find((e) => e.eventId === cause.eventId);
    event = recorded && storedDomainEvent(recorded);
  }
  if (event?.type === 'SupportUserInvited' || (event?.type === 'TeamMemberInvited' && event.data.newUser)) return event;
  return null;
}

/**
 * Mails a new user their invitation, unless it went out already: a fresh link is issued for the mail (only its token's
 * hash kept, beside the invitation), so no event or row ever holds a working link. Nothing is sent for an invitation
 * accepted, expired or replaced by a later one. The outcome is recorded in the invitee's `invitation-mail` stream; a
 * failure also schedules the next try in the same transaction.
 */
export async function deliverInvitationMail(
  ctx: AppContext,
  mailer: Mailer,
  cause: NotificationCause,
  held?: DomainEvent,
): Promise<void> {
  const db = ctx.database.db;
  const notificationId = invitationNotificationId(cause.eventId);
  const invitation = await invitationOf(ctx, cause, held);
  if (!invitation) {
    await clearRetry(db, notificationId);
    return;
  }
  const { userId, email, role } = invitation.data;
  const team =
    invitation.type === 'TeamMemberInvited'
      ? { accountId: invitation.data.accountId, storeId: invitation.data.storeId }
      : { accountId: null, storeId: null };
  const stream = invitationMailStreamOf(userId);
  const mail = await loadAggregate(ctx, invitationMailDecider, stream);
  const attempts = mail.state.attempts.get(notificationId) ?? 0;
  if (mail.state.sent.has(notificationId) || attempts >= MAX_ATTEMPTS) {
    await clearRetry(db, notificationId);
    return;
  }
  const meta = notificationMeta(cause);
  const record = (outcome: RecordInvitationMail['outcome'], alongside?: Alongside) =>
    handleCommand(ctx, {
      decider: invitationMailDecider,
      streamId: stream,
      storeId: team.storeId,
      meta,
      alongside,
      onConflict: RECORD_MAIL,
      loaded: mail,
      command: {
        type: 'RecordInvitationMail',
        now: ctx.now(),
        outcome,
        scope: { userId, notificationId, causedBy: cause.eventId, ...team, to: email },
      },
    });
  const tried = await sendRecorded(
    db,
    { notificationId, cause, attempts, now: ctx.now },
    async () => {
      const store = team.storeId ? await findStore(db, team.storeId) : null;
      const token = randomSecret();
      const open = await issueInvitationLink(
        db,
        { userId, invitationId: invitation.data.invitationId },
        sha256(token),
        ctx.now(),
      );
      if (!open) return null;
      const composed = invitationMail({
        to: email,
        name: open.name,
        role,
        store: store && (await mailStore(ctx, store)),
        inviterName: open.inviterName,
        expiresAt: open.expiresAt,
        link: `${ctx.config.publicUrl}/admin/accept-invitation#${token}`,
      });
      await mailer.send(composed);
      return { sent: true, subject: composed.subject } as const;
    },
    record,
  );
  if (tried.outcome === 'failed') {
    ctx.log.warn(
      { userId, attempt: tried.attempt, next: tried.next },
      'invitation mail failed; it will be tried again unless given up',
    );
  }
}

/**
 * Team and support invitations are mailed to the invitee, with their link, after the request (contract §Notifications),
 * in every environment: a reaction with its own checkpoint, failures retried on their own schedule.
 * 20 invitations at once, over the mailer's connections at the same time: each issues its own link and reads its own
 * invitee's mail, nothing a batch shares; invitations come a few a day, so a larger batch would only repeat more.
 */
export function mailInvitations(mailer: Mailer): Reaction {
  return {
    name: 'mail-invitations',
    batchSize: 20,
    // Only a new invitation is mailed: what follows it (accepted, another role, removed) ends or replaces it, which the
    // mail's own checks read when it is sent.
    ...readerOf(['account-team', 'support-team'], {
      TeamMemberInvited: 'handle',
      TeamInvitationAccepted: 'ignore',
      TeamMemberRoleChanged: 'ignore',
      TeamMemberRemoved: 'ignore',
      TeamOwnershipGranted: 'ignore',
      SupportUserInvited: 'handle',
      SupportInvitationAccepted: 'ignore',
      SupportUserRoleChanged: 'ignore',
      SupportUserRemoved: 'ignore',
    }),
    react: (ctx, events) =>
      mailInStreamOrder(mailer, events, (event) =>
        deliverInvitationMail(ctx, mailer, { job: { kind: 'invitation' }, ...causeOf(event) }, event),
      ),
  };
}
