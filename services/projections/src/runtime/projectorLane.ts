import type { EventEnvelope } from '@claims/contracts';
import type { Logger } from 'pino';
import { handledBy, type Projection } from './projection.js';
import { RetryLater, type FaultPolicy, type ProjectorGuard, type ProjectorStatus } from './projectionFaults.js';

/** A message of the topic, parsed once for every projection of the process. */
export interface ParsedMessage {
  offset: bigint;
  event: EventEnvelope;
}

interface Delivery {
  partition: number;
  /** The offset after the delivery's last message: where the projection stands once it is applied. */
  next: bigint;
  events: EventEnvelope[];
}

/**
 * Events a lane holds unapplied before the shared consumer waits for it: a projection backing off on a poison
 * event, or held by an in-place replay, lets the others go on for that long, then holds the consumer back.
 */
export const MAX_LANE_BACKLOG = 10_000;

/**
 * One projection's share of the shared Kafka consumer: the messages it handles, queued per partition and
 * applied in order in batches of whatever has queued meanwhile, each batch in its own transaction through its
 * guard (retries, parking). It knows, per partition, the offset it has applied up to and the one it has
 * accepted up to, and drops messages below them (redeliveries) before any database work.
 */
export class ProjectorLane {
  private readonly applied = new Map<number, bigint>();
  private readonly accepted = new Map<number, bigint>();
  private queue: Delivery[] = [];
  private inFlight: Delivery[] = [];
  private backlog = 0;
  private running: Promise<void> | null = null;
  private stopping = false;
  private readonly roomWaiters: (() => void)[] = [];
  private wakeBackoff: (() => void) | null = null;

  constructor(
    readonly projection: Projection,
    private readonly guard: Pick<ProjectorGuard<unknown>, 'apply' | 'status'>,
    private readonly policy: FaultPolicy,
    private readonly log: Logger,
    /** Called after a batch is applied, so the consumer commits the new positions. */
    private readonly onApplied: () => void,
  ) {}

  get name(): string {
    return this.projection.name;
  }

  status(): ProjectorStatus {
    return this.guard.status();
  }

  /** Where the lane has applied everything before, on the partition; undefined before it knows. */
  position(partition: number): bigint | undefined {
    return this.applied.get(partition);
  }

  /** The position read back from the group's commit after (re)joining; never moves a position back. */
  restore(partition: number, offset: bigint): void {
    if ((this.accepted.get(partition) ?? -1n) < offset) this.accepted.set(partition, offset);
    if ((this.applied.get(partition) ?? -1n) < offset && !this.pending(partition)) this.applied.set(partition, offset);
  }

  /** Where the lane wants the partition read from: the first offset it has not accepted. */
  resumeAt(partition: number): bigint | undefined {
    return this.accepted.get(partition);
  }

  offer(partition: number, messages: readonly ParsedMessage[], next: bigint): void {
    const from = this.accepted.get(partition) ?? -1n;
    if (next <= from) return;
    this.accepted.set(partition, next);
    const events = messages
      .filter((m) => m.offset >= from && handledBy(this.projection, m.event.type))
      .map((m) => m.event);
    if (events.length === 0 && !this.pending(partition)) {
      this.applied.set(partition, next);
      return;
    }
    this.queue.push({ partition, next, events });
    this.backlog += events.length;
    this.running ??= this.drain().finally(() => {
      this.running = null;
    });
  }

  hasRoom(): boolean {
    return this.backlog < MAX_LANE_BACKLOG || this.stopping;
  }

  /** Resolves once the lane holds fewer than MAX_LANE_BACKLOG unapplied events. */
  room(): Promise<void> {
    if (this.hasRoom()) return Promise.resolve();
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  /** Finishes the batch in flight (a backoff is cut short) and applies nothing more. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeBackoff?.();
    this.release();
    await this.running;
  }

  private pending(partition: number): boolean {
    return this.queue.some((d) => d.partition === partition) || this.inFlight.some((d) => d.partition === partition);
  }

  private release(): void {
    for (const resolve of this.roomWaiters.splice(0)) resolve();
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.stopping) {
      this.inFlight = this.queue;
      this.queue = [];
      const events = this.inFlight.flatMap((d) => d.events);
      if (!(await this.applyUntilDone(events))) return;
      this.backlog -= events.length;
      for (const d of this.inFlight) this.applied.set(d.partition, d.next);
      this.inFlight = [];
      if (this.backlog < MAX_LANE_BACKLOG) this.release();
      this.onApplied();
    }
  }

  /** False when stopped before the events went in. */
  private async applyUntilDone(events: readonly EventEnvelope[]): Promise<boolean> {
    for (;;) {
      if (this.stopping) return false;
      try {
        if (events.length > 0) await this.guard.apply(events);
        return true;
      } catch (error) {
        const delayMs = error instanceof RetryLater ? error.delayMs : this.policy.baseDelayMs;
        if (!(error instanceof RetryLater))
          this.log.error({ err: error, projection: this.name }, 'projection batch failed; retrying');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delayMs);
          this.wakeBackoff = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wakeBackoff = null;
      }
    }
  }
}
