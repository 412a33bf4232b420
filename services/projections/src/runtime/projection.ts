import type { QueryExecutorProvider } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { EventEnvelope, EventOf, EventReader, EventType } from '@claims/contracts';

export type EventsByType = { [K in EventType]: EventOf<K> };

/**
 * An event as a projection receives it: the envelope, its data typed by its type (one of `T`).
 * Indexed rather than `Extract`ed, so a projection of a few types is still a `Projection` of all.
 */
export type ProjectedEvent<T extends EventType = EventType> = Omit<EventEnvelope, 'type' | 'data'> & EventsByType[T];

/**
 * A read model: its tables, its decision on every event type of the streams it reads (`readerOf`: the types it handles
 * are the only ones `applyBatch` is given; the runtime neither parses nor passes any other), and how a batch of them
 * changes the tables.
 */
export interface Projection<T extends EventType = EventType> extends EventReader<T> {
  readonly name: string;
  readonly migrations: Record<string, Migration>;
  /**
   * Tables a rebuild builds beside the live ones (in a schema of its own) and then swaps in. Empty for a
   * projection whose rows are history rather than a derived view (the webhook outbox): it is replayed in place.
   */
  readonly tables: readonly string[];
  /**
   * Secondary indexes a rebuild creates once its rows are loaded, instead of updating them row by row (a
   * trigram GIN index held a million-claim rebuild of the claim search to ~185 events/s). Only indexes `applyBatch` never reads through.
   */
  readonly indexedAfterLoad?: readonly string[];
  /**
   * Applies events in their order (each stream's in its version order, none twice: the runtime has
   * dropped what the offsets say is applied), folding them in memory and writing in a few bulk
   * statements. The result must equal applying them one by one, in any split into batches
   * (test/batchSplits.test.ts): one round trip per event is what made projections slow (docs/benchmarks.md).
   */
  applyBatch(trx: QueryExecutorProvider, events: readonly ProjectedEvent<T>[]): Promise<void>;
}

/** Infers a projection's handled types from its decisions, so `applyBatch` sees exactly those. */
export const defineProjection = <const T extends EventType>(projection: Projection<T>): Projection<T> => projection;

/** Whether the projection handles an event type (a type it does not know, from a newer producer, included). */
export const handledBy = <T extends EventType>(projection: Projection<T>, type: string): type is T =>
  (projection.handles as readonly string[]).includes(type);
