import type { Config } from './config.js';
import { startRuntime, type Runtime } from './runtime.js';

/**
 * Serves the portal, the back-office and the API on one port until SIGTERM or SIGINT, then stops the runtime and
 * `alsoStop` (what the caller started beside it).
 */
export async function serve(config: Config, alsoStop: () => Promise<void> = async () => undefined): Promise<Runtime> {
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
    Promise.all([runtime.stop(), alsoStop()]).then(() => process.exit(0), (error: unknown) => {
      log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  return runtime;
}
