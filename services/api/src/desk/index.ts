/** What other features use of the claim desk: the agent's claim detail, answered after a command. */
export { afterCommand, toAdminClaimDetail } from './claimDetail.js';
