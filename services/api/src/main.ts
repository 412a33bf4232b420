import cluster, { type Worker } from 'node:cluster';
import { loadConfig } from './config.js';
import { startRuntime, type Runtime } from './runtime.js';
import { serve, stopOnSignals } from './server.js';

/**
 * `npm start`: the portal, the back-office and the API on one port. With API_PROCESSES above 1, this
 * process becomes a cluster primary: it migrates, seeds and runs the background workers of WORKERS
 * without serving HTTP, and forks that many HTTP-only processes sharing the port, so requests use
 * every core (docs/decisions/processes-and-workers.md).
 */
const config = loadConfig();
const primary = config.apiProcesses > 1 && cluster.isPrimary;

/**
 * Forks the HTTP processes and replaces one that dies. Their appends wake this process's workers through PostgreSQL
 * (EVENTS_APPENDED_CHANNEL), as any other process's do.
 */
function superviseHttpProcesses(runtime: Runtime): () => Promise<void> {
  let stopping = false;
  const fork = (): Worker => cluster.fork({ WORKERS: 'none', SEED_DEMO: 'false' });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    runtime.ctx.log.error({ httpProcess: worker.process.pid, code, signal }, 'an HTTP process died; starting another');
    fork();
  });
  for (let i = 0; i < config.apiProcesses; i++) fork();
  return async () => {
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    await Promise.all(
      workers
        .filter((w) => !w.isDead())
        .map(
          (w) =>
            new Promise<void>((resolve) => {
              w.once('exit', () => resolve());
              w.kill('SIGTERM');
            }),
        ),
    );
  };
}

try {
  if (primary) {
    const runtime = await startRuntime(config, { listen: false });
    stopOnSignals(runtime, superviseHttpProcesses(runtime));
    runtime.ctx.log.info(
      { port: config.port, processes: config.apiProcesses },
      `ready on http://${config.host}:${config.port} with ${config.apiProcesses} HTTP processes`,
    );
  } else if (cluster.isWorker) {
    stopOnSignals(await startRuntime(config));
  } else {
    await serve(config);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
