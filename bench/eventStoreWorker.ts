/**
 * Child process holding one store open for one benchmark case. The parent sends `run` messages (one time
 * slice of the workload each) and finally `close`. A process per store, because Emmett's driver (dumbo)
 * changes pg's global type parsers (int8 -> BigInt, jsonb), which would change our store's behaviour
 * inside a shared process.
 */
import { startCpuSample, type CpuShare } from './cpuSampler.js';
import { openStore, type StoreKind } from './eventStoreAdapters.js';
import { runWorkload, type WorkloadOptions } from './eventStoreWorkload.js';

export interface WorkerStart {
  store: StoreKind;
  url: string;
  poolSize: number;
}

export type WorkerCommand = { type: 'run'; workload: WorkloadOptions } | { type: 'close' };

export interface SliceReply {
  type: 'slice';
  appends: number;
  events: number;
  seconds: number;
  latenciesMs: number[];
  errors: number;
  firstError: string | null;
  cpuUserMs: number;
  cpuSystemMs: number;
  /** Machine CPU during the measured window (null off Linux). */
  cpu: CpuShare | null;
}

export type WorkerMessage = { type: 'ready' } | SliceReply | { type: 'closed' };

function send(message: WorkerMessage): Promise<void> {
  return new Promise((resolve, reject) =>
    process.send!(message, (error: Error | null) => (error ? reject(error) : resolve())),
  );
}

async function runSlice(store: Awaited<ReturnType<typeof openStore>>, workload: WorkloadOptions): Promise<SliceReply> {
  let cpu0 = process.cpuUsage();
  let cpu = process.cpuUsage(cpu0);
  let stopSample: (() => CpuShare | null) | undefined;
  let share: CpuShare | null = null;
  let ended = false;
  const onWindow = (edge: 'start' | 'end'): void => {
    if (edge === 'start') {
      cpu0 = process.cpuUsage();
      stopSample = startCpuSample();
    } else if (!ended) {
      ended = true;
      cpu = process.cpuUsage(cpu0);
      share = stopSample?.() ?? null;
    }
  };
  const result = await runWorkload(store, workload, onWindow);
  onWindow('end');
  return {
    type: 'slice',
    appends: result.appends,
    events: result.events,
    seconds: result.seconds,
    latenciesMs: Array.from(result.latenciesMs),
    errors: result.errors,
    firstError: result.firstError,
    cpuUserMs: cpu.user / 1000,
    cpuSystemMs: cpu.system / 1000,
    cpu: share,
  };
}

async function main(): Promise<void> {
  const start = JSON.parse(process.argv[2]!) as WorkerStart;
  const store = await openStore(start.store, start.url, start.poolSize);
  let queue = Promise.resolve();
  process.on('message', (command: WorkerCommand) => {
    queue = queue
      .then(async () => {
        if (command.type === 'run') {
          await send(await runSlice(store, command.workload));
        } else {
          await store.close();
          await send({ type: 'closed' });
          process.exit(0);
        }
      })
      .catch((error: unknown) => {
        console.error(error);
        process.exit(1);
      });
  });
  await send({ type: 'ready' });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
