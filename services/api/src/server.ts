import type { Config } from './config.js';
import { startRuntime, type Runtime, type RuntimeOptions } from './runtime.js';

/** How long a process told to stop lets requests and work in flight finish (README "Stopping"). */
export const DRAIN_MS = 5_000;
/** After the drain: how long closing the database may take before the process leaves regardless. */
const CLOSE_MS = 1_500;

const timeout = (ms: number) => new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), ms).unref());

/**
 * On SIGTERM or SIGINT: `beforeStop` (what the caller runs beside it), then the runtime, for at most DRAIN_MS; what is
 * still running then (a request, a mail send, a consumer leaving) is logged and abandoned, the connections are cut,
 * the database closed, and the process exits. A second signal exits at once.
 */
export function stopOnSignals(runtime: Runtime, beforeStop: () => Promise<void> = async () => undefined): void {
  const { log } = runtime.ctx;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      log.warn({ signal, pending: runtime.pendingStop() }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal, drainMs: DRAIN_MS }, 'shutting down');
    const stopped = beforeStop()
      .then(() => runtime.stop())
      .then(() => 'stopped' as const);
    try {
      if ((await Promise.race([stopped, timeout(DRAIN_MS)])) === 'stopped') process.exit(0);
      log.error({ pending: runtime.pendingStop() }, `still running ${DRAIN_MS / 1000} s after ${signal}; abandoned`);
      await Promise.race([runtime.abandonStop(), timeout(CLOSE_MS)]);
    } catch (error) {
      log.error({ err: error }, 'shutdown failed');
    }
    process.exit(1);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/**
 * Serves the portal, the back-office and the API on one port until SIGTERM or SIGINT, then stops `alsoStop` (what
 * the caller started beside it) and the runtime.
 */
export async function serve(
  config: Config,
  alsoStop: () => Promise<void> = async () => undefined,
  options: RuntimeOptions = {},
): Promise<Runtime> {
  const runtime = await startRuntime(config, options);
  const { log } = runtime.ctx;
  log.info(
    { port: config.port, database: runtime.ctx.database.kind, kafka: Boolean(config.kafkaBrokers) },
    `ready on http://${config.host}:${config.port} (portal /, back-office /admin/, API docs /api/docs)`,
  );
  stopOnSignals(runtime, alsoStop);
  return runtime;
}
