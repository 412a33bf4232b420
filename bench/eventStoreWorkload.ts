import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

/** One event as the workload produces it; each adapter maps it onto its store's shape. */
export interface BenchEvent {
  eventId: string;
  type: string;
  data: Record<string, unknown>;
  metadata: {
    actor: { type: 'system'; id: string };
    correlationId: string;
    causationId: string | null;
    schemaVersion: number;
  };
}

/**
 * A store under test. `expected` is null for "the stream must not exist yet", otherwise the version
 * token the previous append returned; resolves with the stream's new version token, rejects on conflict.
 */
export interface StoreAdapter<V = unknown> {
  append(streamId: string, events: BenchEvent[], expected: V | null): Promise<V>;
  close(): Promise<void>;
}

export interface WorkloadOptions {
  writers: number;
  /** Events per append (1 = a command's usual single event). */
  batch: number;
  /** Appends to a stream after the one that creates it, before the writer moves to a new stream. */
  updatesPerStream: number;
  warmupSeconds: number;
  seconds: number;
}

export interface WorkloadResult {
  appends: number;
  events: number;
  seconds: number;
  eventsPerSecond: number;
  appendsPerSecond: number;
  /** Per-append latencies (ms) of appends started in the measured window, ascending. */
  latenciesMs: Float64Array;
  errors: number;
  firstError: string | null;
}

const STORE_ID = '5f0c6f4e-8f53-4d0a-9a57-3c2d1b0e7a11';

function filedEvent(claimId: string, n: number): Pick<BenchEvent, 'type' | 'data'> {
  return {
    type: 'ClaimFiled',
    data: {
      claimId,
      claimNumber: `CLM-${100000 + n}`,
      tokenHash: 'b5bb9d8014a0f9b1d61e21e796d78dccdf1352f23cd32812f4850b878ae4944c',
      storeId: STORE_ID,
      orderId: randomUUID(),
      sourceOrderId: `gid://shopify/Order/${5000000000 + n}`,
      orderNumber: `#${1000 + n}`,
      currency: 'USD',
      isOta: false,
      claimType: 'lost',
      customer: { email: `customer${n}@example.com`, name: 'Jordan Example' },
      items: [
        { sourceItemId: `li-${n}-1`, name: 'Trail Running Shoe', sku: 'TRS-42-BLK', quantity: 1, unitPrice: 12999 },
        { sourceItemId: `li-${n}-2`, name: 'Wool Socks (3 pack)', sku: 'WS-3P', quantity: 2, unitPrice: 1899 },
      ],
      desiredMethod: 'reship',
      updatedShippingAddress: null,
      signature: { name: 'Jordan Example', signedAt: '2026-01-15T10:00:00.000Z' },
      policy: null,
      filedAt: '2026-01-15T10:00:00.000Z',
    },
  };
}

function updateEvent(claimId: string, n: number): Pick<BenchEvent, 'type' | 'data'> {
  return {
    type: 'ClaimStatusChanged',
    data: {
      claimId,
      from: 'submitted',
      to: 'in_review',
      note: `Reviewed by agent ${n % 17}: carrier scan shows no delivery.`,
    },
  };
}

function makeEvents(claimId: string, first: boolean, batch: number, correlationId: string, n: number): BenchEvent[] {
  const events: BenchEvent[] = [];
  for (let i = 0; i < batch; i++) {
    const body = first && i === 0 ? filedEvent(claimId, n) : updateEvent(claimId, n + i);
    events.push({
      eventId: randomUUID(),
      ...body,
      metadata: { actor: { type: 'system', id: 'bench' }, correlationId, causationId: null, schemaVersion: 1 },
    });
  }
  return events;
}

/**
 * Closed loop: each writer files a claim (a new stream, expected "no stream") and then appends
 * `updatesPerStream` times with the version it got back, then files the next claim. Only its own
 * streams, so there are no conflicts: this measures the append path, not contention.
 */
export async function runWorkload<V>(
  store: StoreAdapter<V>,
  options: WorkloadOptions,
  onWindow?: (edge: 'start' | 'end') => void,
): Promise<WorkloadResult> {
  const start = performance.now();
  if (onWindow) {
    setTimeout(() => onWindow('start'), options.warmupSeconds * 1000).unref();
    setTimeout(() => onWindow('end'), (options.warmupSeconds + options.seconds) * 1000).unref();
  }
  const windowStart = start + options.warmupSeconds * 1000;
  const windowEnd = windowStart + options.seconds * 1000;
  const latencies: number[] = [];
  let appends = 0;
  let events = 0;
  let errors = 0;
  let firstError: string | null = null;
  let counter = 0;

  async function writer(): Promise<void> {
    let streamId = '';
    let version: V | null = null;
    let appendsLeft = 0;
    let correlationId = '';
    for (;;) {
      const t0 = performance.now();
      if (t0 >= windowEnd) return;
      if (appendsLeft === 0) {
        streamId = randomUUID();
        version = null;
        appendsLeft = options.updatesPerStream + 1;
        correlationId = randomUUID();
      }
      const batch = makeEvents(streamId, version === null, options.batch, correlationId, counter++);
      try {
        version = await store.append(streamId, batch, version);
        appendsLeft--;
      } catch (error) {
        errors++;
        firstError ??= error instanceof Error ? error.message : String(error);
        appendsLeft = 0;
        continue;
      }
      const t1 = performance.now();
      if (t0 >= windowStart) latencies.push(t1 - t0);
      if (t1 >= windowStart && t1 <= windowEnd) {
        appends++;
        events += batch.length;
      }
    }
  }

  await Promise.all(Array.from({ length: options.writers }, () => writer()));
  return {
    appends,
    events,
    seconds: options.seconds,
    eventsPerSecond: events / options.seconds,
    appendsPerSecond: appends / options.seconds,
    latenciesMs: Float64Array.from(latencies).sort(),
    errors,
    firstError,
  };
}
