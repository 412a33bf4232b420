import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.js';

/**
 * Hands a new invitee their one-time token. Nothing mails it yet (notifications do not exist), so the
 * token is kept nowhere readable (only its SHA-256) and never logged — except on a development server
 * with the demo data (not production, SEED_DEMO on), which logs the acceptance link so `make dev`
 * stays usable (decision in docs/decisions.md). No inviter ever sees it: it is the invitee's password.
 */
export function deliverInvitation(ctx: AppContext, log: FastifyBaseLogger, invitation: { token: string; expiresAt: string }): void {
  if (ctx.config.production || !ctx.config.seedDemo) return;
  // The token rides in the fragment, which browsers never send: it stays out of every access log.
  log.warn(
    { acceptAt: `${ctx.config.publicUrl}/admin/accept-invitation#${invitation.token}`, expiresAt: invitation.expiresAt },
    'development only (SEED_DEMO): the invitee sets a password at this link',
  );
}
