import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Runtime } from '../../src/index.js';
import { sha256 } from '../../src/platform/secrets.js';

/**
 * The invitee's mailbox, for tests that do not read the mail itself (invitationMail.it.test.ts does): a link to
 * the user's open invitation, issued as its mail issues one.
 */
export async function mailedInvitationToken(runtime: Runtime, email: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await sql`insert into team_invitation_links (token_hash, user_id, invitation_id, issued_at)
    select ${sha256(token)}, i.user_id, i.invitation_id, now() from team_invitations i join users u on u.id = i.user_id
    where u.email_lower = ${email.toLowerCase()}`.execute(runtime.ctx.database.db);
  return token;
}
