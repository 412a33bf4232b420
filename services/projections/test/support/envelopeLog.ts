import { randomUUID } from 'node:crypto';
import { streamOf, type Actor, type DomainEvent, type EventEnvelope } from '@claims/contracts';

/**
 * Events wrapped in envelopes the way the event store numbers them: each a version of its own stream and the next
 * global position. What the stories of these tests hand the projections.
 */
export class EnvelopeLog {
  readonly envelopes: EventEnvelope[] = [];
  private readonly versions = new Map<string, number>();

  append(event: DomainEvent, storeId: string, occurredAt: string, actor: Actor): void {
    const { streamId } = streamOf(event);
    const streamVersion = (this.versions.get(streamId) ?? 0) + 1;
    this.versions.set(streamId, streamVersion);
    this.envelopes.push({
      eventId: randomUUID(),
      type: event.type,
      data: event.data,
      streamId,
      streamVersion,
      globalPosition: this.envelopes.length + 1,
      storeId,
      occurredAt,
      metadata: { actor, correlationId: randomUUID(), causationId: null, schemaVersion: 1 },
    });
  }
}
