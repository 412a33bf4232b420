/** What other features use of mail: an invitation's mail status beside the invitation. */
export { withInvitationMail } from './invitationMailStatus.js';
