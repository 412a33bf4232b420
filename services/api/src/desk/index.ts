/** What other features use of the claim desk: the agent's claim detail, answered after a command. */
export { afterCommand, commandOnClaim, toAdminClaimDetail } from './claimDetail.js';
