import { invitationMailStreamOf, type TeamMember } from '@claims/contracts';
import { readStream, storedDomainEvent } from '@claims/event-store';
import { latestInvitationMail } from '@claims/domain';
import type { AppContext } from '../context.js';

/** Invited members with how their invitation mail went (sent, or failed and when it is tried again), from their mail stream. */
export function withInvitationMail(ctx: AppContext, members: readonly TeamMember[]): Promise<TeamMember[]> {
  return Promise.all(
    members.map(async (member) => {
      if (member.status !== 'invited') return member;
      const { events } = await readStream(ctx.database.db, invitationMailStreamOf(member.userId));
      return { ...member, invitationMail: latestInvitationMail(events.map(storedDomainEvent)) };
    }),
  );
}
