/** What other features use of automation: the screening a filing gets before it is decided. */
export { screenFiling } from './filingScreening.js';
