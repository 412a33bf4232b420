import { randomUUID } from 'node:crypto';
import { EVENT_SCHEMA_VERSIONS, streamOf, type DomainEvent, type StreamType } from '@claims/contracts';
import type { NewEvent } from '@claims/event-store';
import type { RequestMeta } from '../context.js';

/** Stamps decided events with ids and metadata, grouped by the stream each belongs to, in order. */
export function groupByStream(
  events: readonly DomainEvent[],
  meta: RequestMeta,
): Map<string, { streamType: StreamType; events: NewEvent[] }> {
  const groups = new Map<string, { streamType: StreamType; events: NewEvent[] }>();
  for (const event of events) {
    const { streamId, streamType } = streamOf(event);
    const group = groups.get(streamId) ?? { streamType, events: [] };
    group.events.push({
      eventId: randomUUID(),
      type: event.type,
      data: event.data,
      metadata: { ...meta, schemaVersion: EVENT_SCHEMA_VERSIONS[event.type] },
    });
    groups.set(streamId, group);
  }
  return groups;
}
