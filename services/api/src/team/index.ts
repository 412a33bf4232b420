/** What other features use of teams: members, invitation links and the sweep of expired invitations. */
export { deleteExpiredPendingGrants, issueInvitationLink, listMembers } from './teamRepository.js';
