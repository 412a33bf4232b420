/** What other features use of automation: the screening a filing gets before it is decided. */
export { screenFiling } from './filingScreening.js';
/** …and what the store's rules did or would have done on a claim, for the claim page. */
export { ruleActivity } from './ruleActivity.js';
