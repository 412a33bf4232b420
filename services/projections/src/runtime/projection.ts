import type { QueryExecutorProvider } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DomainEvent, EventEnvelope } from '@claims/contracts';

/** An event as a projection receives it: the envelope, its data typed by its type. */
export type ProjectedEvent = Omit<EventEnvelope, 'type' | 'data'> & DomainEvent;

/** A read model: its tables, and how one event changes them. */
export interface Projection {
  readonly name: string;
  readonly handles: ReadonlySet<DomainEvent['type']>;
  readonly migrations: Record<string, Migration>;
  /** Tables emptied before a rebuild. */
  readonly tables: readonly string[];
  apply(trx: QueryExecutorProvider, event: ProjectedEvent): Promise<void>;
}
