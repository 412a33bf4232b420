import type { Config } from './config.js';
import { startRuntime, type Runtime, type RuntimeOptions } from './runtime.js';

/** On SIGTERM or SIGINT: `beforeStop` (what the caller runs beside it), then the runtime; forced out after 15 s. */
export function stopOnSignals(runtime: Runtime, beforeStop: () => Promise<void> = async () => undefined): void {
  const { log } = runtime.ctx;
  const shutdown = (signal: string) => {
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    beforeStop().then(() => runtime.stop()).then(() => process.exit(0), (error: unknown) => {
      log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

/**
 * Serves the portal, the back-office and the API on one port until SIGTERM or SIGINT, then stops `alsoStop` (what
 * the caller started beside it) and the runtime.
 */
export async function serve(config: Config, alsoStop: () => Promise<void> = async () => undefined, options: RuntimeOptions = {}): Promise<Runtime> {
  const runtime = await startRuntime(config, options);
  const { log } = runtime.ctx;
  log.info(
    { port: config.port, database: runtime.ctx.database.kind, kafka: Boolean(config.kafkaBrokers) },
    `ready on http://${config.host}:${config.port} (portal /, back-office /admin/, API docs /api/docs)`,
  );
  stopOnSignals(runtime, alsoStop);
  return runtime;
}
