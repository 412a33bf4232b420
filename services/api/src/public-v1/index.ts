/** What other features use of the public API: the principal an API token signs in as. */
export { findTokenPrincipal } from './apiTokens.js';
