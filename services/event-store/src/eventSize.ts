import type { NewEvent } from './appendToStream.js';

/**
 * The largest event the store accepts, as the JSON of its data and metadata. The relay publishes
 * one Kafka message per event, so this bound (plus the envelope's few ids) is what keeps every
 * message far below the topic's `max.message.bytes` (1 MiB, ensureTopic): an event that could never
 * be published is refused at the door instead of stopping the relay later.
 */
export const MAX_EVENT_BYTES = 256 * 1024;

export class EventTooLargeError extends Error {
  constructor(
    readonly streamId: string,
    readonly eventType: string,
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(
      `${eventType} of stream ${streamId} is ${Math.ceil(bytes / 1024)} KB; an event may be at most ${limit / 1024} KB`,
    );
  }
}

export const eventBytes = (event: NewEvent): number =>
  Buffer.byteLength(JSON.stringify(event.data)) + Buffer.byteLength(JSON.stringify(event.metadata));

export function assertEventsFit(streamId: string, events: readonly NewEvent[], limit = MAX_EVENT_BYTES): void {
  for (const event of events) {
    const bytes = eventBytes(event);
    if (bytes > limit) throw new EventTooLargeError(streamId, event.type, bytes, limit);
  }
}
