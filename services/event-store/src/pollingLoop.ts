export interface PollingLoop {
  /** Runs the step soon; wakes arriving while one is already queued are folded into it. */
  wake(): void;
  /** Resolves after a step that started after this call has finished. */
  runNow(): Promise<void>;
  /** Stops scheduling and waits for the running step. */
  stop(): Promise<void>;
}

/**
 * Runs `step` one at a time: every `pollMs`, and early when woken (after this process appends).
 * A failing step is reported and retried on the next round, never left to crash the process.
 */
export function startPollingLoop(
  step: () => Promise<void>,
  pollMs: number,
  onError: (error: unknown) => void,
): PollingLoop {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let queued: Promise<void> | null = null;

  function runNow(): Promise<void> {
    queued ??= running
      .then(async () => {
        queued = null;
        if (!stopped) await step();
      })
      .catch(onError);
    running = queued;
    return queued;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => void runNow().then(schedule), pollMs);
  }
  schedule();

  return {
    wake: () => void runNow(),
    runNow,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
