import { loadConfig } from '../config.js';
import { startRuntime } from '../runtime.js';

/**
 * `npm run seed`: migrates the database and seeds `fixtures/demo.json` (missing rows only, as SEED_DEMO does on start),
 * without serving or running workers; the server's reactions mail the seeded claims when it next runs. Refused with
 * NODE_ENV=production (the demo users' password is published). With PGlite, stop the server first: one process per data folder.
 */
try {
  const runtime = await startRuntime(loadConfig({ ...process.env, SEED_DEMO: 'true' }), {
    listen: false,
    workers: false,
  });
  await runtime.stop();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
