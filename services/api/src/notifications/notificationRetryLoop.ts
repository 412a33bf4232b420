import { startPollingLoop, type PollingLoop } from '@claims/event-store';
import type { AppContext } from '../context.js';
import { mailInStreamOrder, type Mailer } from './mailer.js';
import { deliverClaimMails, type ClaimMailJob } from './deliverClaimMail.js';
import { leaseDueRetries } from './notificationRetries.js';
import { LEASE_MS } from './retrySchedule.js';
import { deliverClaimLinks } from './sendClaimLinks.js';
import { deliverInvitationMail } from './deliverInvitationMail.js';

/**
 * Sends the mail whose retry is due, every `pollMs`: claim mail to shoppers and team members (as one batch, as the
 * reactions send it), claim-link answers and invitations (over the mailer's connections at once).
 */
export function startNotificationRetries(ctx: AppContext, mailer: Mailer, pollMs = 1_000): PollingLoop {
  return startPollingLoop(
    async () => {
      const now = ctx.now();
      const due = await leaseDueRetries(ctx.database.db, now, new Date(Date.parse(now) + LEASE_MS).toISOString(), 50);
      const claimMail: ClaimMailJob[] = [];
      const others: typeof due = [];
      for (const cause of due) {
        const { job } = cause;
        if (job.kind === 'shopper' || job.kind === 'member') claimMail.push({ cause: { ...cause, job } });
        else others.push(cause);
      }
      await deliverClaimMails(ctx, mailer, claimMail);
      await mailInStreamOrder(mailer, others, (cause) =>
        cause.job.kind === 'claim-links'
          ? deliverClaimLinks(ctx, mailer, cause)
          : deliverInvitationMail(ctx, mailer, cause),
      );
    },
    pollMs,
    (error) => ctx.log.error({ err: error }, 'notification retries failed; trying again'),
  );
}
