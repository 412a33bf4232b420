/** What other features use of A/B tests: the credit bonus a test offered a claim's shopper. */
export { offeredCreditOf } from './offeredCredit.js';
