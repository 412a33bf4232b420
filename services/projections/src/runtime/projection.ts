import type { QueryExecutorProvider } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { EventEnvelope, EventOf, EventType } from '@claims/contracts';

export type EventsByType = { [K in EventType]: EventOf<K> };

/**
 * An event as a projection receives it: the envelope, its data typed by its type (one of `T`).
 * Indexed rather than `Extract`ed, so a projection of a few types is still a `Projection` of all.
 */
export type ProjectedEvent<T extends EventType = EventType> = Omit<EventEnvelope, 'type' | 'data'> & EventsByType[T];

/** A read model: its tables, the event types it handles, and how one of them changes the tables. */
export interface Projection<T extends EventType = EventType> {
  readonly name: string;
  /** The only types `apply` is given; the runtime neither parses nor passes any other. */
  readonly handles: readonly T[];
  readonly migrations: Record<string, Migration>;
  /** Tables emptied before a rebuild. */
  readonly tables: readonly string[];
  apply(trx: QueryExecutorProvider, event: ProjectedEvent<T>): Promise<void>;
}

/** Infers a projection's handled types from its `handles`, so `apply` sees exactly those. */
export const defineProjection = <const T extends EventType>(projection: Projection<T>): Projection<T> => projection;

/** Whether the projection handles an event type (a type it does not know, from a newer producer, included). */
export const handledBy = <T extends EventType>(projection: Projection<T>, type: string): type is T =>
  (projection.handles as readonly string[]).includes(type);
