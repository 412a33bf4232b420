/** What other features use of the shopper's side: filing a claim and the draft session an order's claims start in. */
export { fileClaim } from './fileClaim.js';
export { sessionIdOf } from './draftSessions.js';
