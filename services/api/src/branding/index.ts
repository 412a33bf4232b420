/** What other features use of branding: a store's current branding and its revision. */
export { readBrandingStream, withRevision } from './brandingStream.js';
