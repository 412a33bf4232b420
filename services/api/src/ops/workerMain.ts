import { loadConfig } from '../config.js';
import { startRuntime } from '../runtime.js';
import { stopOnSignals } from '../server.js';

/**
 * `npm run worker`: the background workers of `WORKERS` (default all: relay, projectors, reactions,
 * delivery, timers) without the HTTP server, as processes of their own beside API processes
 * (started with `WORKERS=none`) on a shared PostgreSQL.
 */
const runtime = await startRuntime({ ...loadConfig(), seedDemo: false }, { listen: false });
runtime.ctx.log.info('worker ready');
stopOnSignals(runtime);
