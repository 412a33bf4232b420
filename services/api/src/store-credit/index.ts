/** What other features use of store credit: a claim's credits and the lines a decision issues. */
export { claimStoreCredits } from './claimStoreCredits.js';
export { storeCreditLinesOf, type StoredEvent } from './storeCreditLines.js';
