/** Resolving a claim, shared by the desk and the public API: the command a request means, and the store's terms now. */
export { resolveCommand, storeTermsOf } from './resolveCommand.js';
