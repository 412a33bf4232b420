import { loadConfig } from './config.js';
import { startRuntime } from './runtime.js';

/** `npm start`: one process serving the portal, the back-office and the API on one port. */
const config = loadConfig();
try {
  const runtime = await startRuntime(config);
  const { log } = runtime.ctx;
  log.info(
    { port: config.port, database: runtime.ctx.database.kind, kafka: Boolean(config.kafkaBrokers) },
    `ready on http://${config.host}:${config.port} (portal /, back-office /admin/, API docs /api/docs)`,
  );
  const shutdown = (signal: string) => {
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    runtime.stop().then(() => process.exit(0), (error: unknown) => {
      log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
