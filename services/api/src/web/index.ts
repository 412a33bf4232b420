/** What other features use of the served apps: where the portal's build is (the mail logo reads its files). */
export { PORTAL_DIST } from './portalFiles.js';
