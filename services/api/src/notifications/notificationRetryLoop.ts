import { startPollingLoop, type PollingLoop } from '@claims/event-store';
import type { AppContext } from '../context.js';
import type { Mailer } from './mailer.js';
import { deliverClaimMail } from './deliverClaimMail.js';
import { leaseDueRetries } from './notificationRetries.js';
import { LEASE_MS } from './retrySchedule.js';
import { deliverClaimLinks } from './sendClaimLinks.js';
import { deliverInvitationMail } from './deliverInvitationMail.js';

/** Sends the mail whose retry is due, every `pollMs`: claim mail to shoppers and team members, claim-link answers and invitations. */
export function startNotificationRetries(ctx: AppContext, mailer: Mailer, pollMs = 1_000): PollingLoop {
  return startPollingLoop(
    async () => {
      const now = ctx.now();
      const due = await leaseDueRetries(ctx.database.db, now, new Date(Date.parse(now) + LEASE_MS).toISOString(), 50);
      for (const cause of due) {
        const { job } = cause;
        if (job.kind === 'claim-links') await deliverClaimLinks(ctx, mailer, cause);
        else if (job.kind === 'invitation') await deliverInvitationMail(ctx, mailer, cause);
        else await deliverClaimMail(ctx, mailer, { ...cause, job });
      }
    },
    pollMs,
    (error) => ctx.log.error({ err: error }, 'notification retries failed; trying again'),
  );
}
