import { loadConfig } from './config.js';
import { serve } from './server.js';

/** `npm start`: one process serving the portal, the back-office and the API on one port. */
try {
  await serve(loadConfig());
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
