import type { AppContext } from '../context.js';

export interface PeriodicTask {
  stop(): Promise<void>;
}

/**
 * Runs `run` once soon after start and then every `intervalMs`, never two at once; a failure is
 * logged and tried again at the next tick. `stop` waits for a run in flight.
 */
export function startPeriodicTask(
  ctx: AppContext,
  name: string,
  intervalMs: number,
  run: (now: string) => Promise<unknown>,
): PeriodicTask {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (stopped || running) return;
    running = run(ctx.now())
      .catch((error: unknown) =>
        ctx.log.error({ err: error, task: name }, 'periodic task failed; trying again next tick'),
      )
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(tick, 0);
  const timer = setInterval(tick, intervalMs);
  first.unref();
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
