import { notificationKindOf, SHOPPER_MAIL_READER, TEAM_MAIL_READER, teamNotificationKindOf } from '@claims/domain';
import type { Reaction } from '../eventsourcing/reactions.js';
import type { Mailer } from './mailer.js';
import { deliverClaimMails, notifyTeamOf } from './deliverClaimMail.js';
import { causeOf } from './notificationRetries.js';

/**
 * Mail takes 200 events at once: a batch reads and writes what its mail shares (the claims, their notifications and
 * links streams, the stores) in a few statements and keeps every SMTP connection of the pool busy; larger, a crash or
 * a failing batch repeats more (a repeat sends nothing again, but reads everything again) and the checkpoint, which
 * moves per batch, trails further behind the mail already out. At 300 filings a second a batch is under a second's.
 */
const MAIL_BATCH = 200;

/**
 * Mail to the shopper when their claim is filed, when the store writes, when its status needs them and when it is decided: a reaction
 * with its own checkpoint, never inside a request. A failed send never holds back other claims' mail:
 * it is recorded and retried on its own schedule (`startNotificationRetries`).
 */
export function notifyShopper(mailer: Mailer): Reaction {
  return {
    name: 'notify-shopper',
    batchSize: MAIL_BATCH,
    ...SHOPPER_MAIL_READER,
    async react(ctx, events) {
      await deliverClaimMails(
        ctx,
        mailer,
        events
          .filter((event) => notificationKindOf(event))
          .map((event) => ({ cause: { ...causeOf(event), job: { kind: 'shopper' } }, held: { event } })),
      );
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
    batchSize: MAIL_BATCH,
    ...TEAM_MAIL_READER,
    // Deployed beside claims filed long ago: their teams are not mailed about them now.
    fromFirstRun: 'now',
    async react(ctx, events) {
      await notifyTeamOf(
        ctx,
        mailer,
        events.flatMap((event) =>
          teamNotificationKindOf(event) && event.storeId
            ? [{ cause: causeOf(event), event, storeId: event.storeId }]
            : [],
        ),
      );
    },
  };
}
