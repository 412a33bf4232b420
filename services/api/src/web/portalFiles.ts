import path from 'node:path';

/** The built customer portal (`npm run build -w web/portal`). */
export const PORTAL_DIST = path.resolve(import.meta.dirname, '../../../../web/portal/dist');
