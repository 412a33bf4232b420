/**
 * Child process for one benchmark case: opens one store, runs the workload, sends the result back.
 * Each case gets a fresh process because Emmett's driver (dumbo) changes pg's global type parsers
 * (int8 -> BigInt, jsonb), which would change our store's behaviour inside a shared process.
 */
import { openStore, type StoreKind } from './eventStoreAdapters.js';
import { runWorkload, type WorkloadOptions } from './eventStoreWorkload.js';

export interface WorkerRequest extends WorkloadOptions {
  store: StoreKind;
  url: string;
  poolSize: number;
}

export interface WorkerReply {
  appends: number;
  events: number;
  seconds: number;
  eventsPerSecond: number;
  latenciesMs: number[];
  errors: number;
  firstError: string | null;
  cpuUserMs: number;
  cpuSystemMs: number;
}

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2]!) as WorkerRequest;
  const store = await openStore(request.store, request.url, request.poolSize);
  try {
    const cpu0 = process.cpuUsage();
    const result = await runWorkload(store, request);
    const cpu = process.cpuUsage(cpu0);
    const reply: WorkerReply = {
      appends: result.appends,
      events: result.events,
      seconds: result.seconds,
      eventsPerSecond: result.eventsPerSecond,
      latenciesMs: Array.from(result.latenciesMs),
      errors: result.errors,
      firstError: result.firstError,
      cpuUserMs: cpu.user / 1000,
      cpuSystemMs: cpu.system / 1000,
    };
    await new Promise<void>((resolve, reject) => process.send!(reply, (error: Error | null) => (error ? reject(error) : resolve())));
  } finally {
    await store.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
