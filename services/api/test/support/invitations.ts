import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Runtime } from '../../src/index.js';
import { sha256 } from '../../src/auth/passwords.js';

/**
 * The invitee's mailbox, until invitations are mailed: the token only the invitee would receive. The
 * inviter never sees it, so the test sets the one the mail would carry.
 */
export async function mailedInvitationToken(runtime: Runtime, email: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await sql`update team_invitations set token_hash = ${sha256(token)}
    where user_id = (select id from users where email_lower = ${email.toLowerCase()})`.execute(runtime.ctx.database.db);
  return token;
}
