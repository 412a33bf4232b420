import { notificationKindOf, SHOPPER_MAIL_READER, TEAM_MAIL_READER, teamNotificationKindOf } from '@claims/domain';
import type { Reaction, ReactedEvent } from '../eventsourcing/reactions.js';
import type { Mailer } from './mailer.js';
import { deliverClaimMail, notifyTeamOf } from './deliverClaimMail.js';
import type { NotificationCause } from './notificationRetries.js';

const causeOf = (event: ReactedEvent): Omit<NotificationCause, 'job'> => ({
  streamId: event.streamId,
  eventId: event.eventId,
  streamVersion: event.streamVersion,
  correlationId: event.metadata.correlationId,
});

/**
 * Mail to the shopper when their claim is filed, when the store writes, when its status needs them and when it is decided: a reaction
 * with its own checkpoint, never inside a request. A failed send never holds back other claims' mail:
 * it is recorded and retried on its own schedule (`startNotificationRetries`).
 */
export function notifyShopper(mailer: Mailer): Reaction {
  return {
    name: 'notify-shopper',
    ...SHOPPER_MAIL_READER,
    async react(ctx, event) {
      if (!notificationKindOf(event)) return;
      await deliverClaimMail(ctx, mailer, { ...causeOf(event), job: { kind: 'shopper' } }, { event });
    },
  };
}

/**
 * Mail to the store's team when a claim is filed and when the shopper writes, to each member as they chose
 * (`NotificationPreferenceSet`, else their role's default). Its own checkpoint: team mail never waits on the shopper's.
 */
export function notifyTeam(mailer: Mailer): Reaction {
  return {
    name: 'notify-team',
    ...TEAM_MAIL_READER,
    // Deployed beside claims filed long ago: their teams are not mailed about them now.
    fromFirstRun: 'now',
    async react(ctx, event) {
      if (!teamNotificationKindOf(event) || !event.storeId) return;
      await notifyTeamOf(ctx, mailer, causeOf(event), event, event.storeId);
    },
  };
}
