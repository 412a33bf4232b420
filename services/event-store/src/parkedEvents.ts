import type { ParkedEvent } from '@claims/contracts';

/**
 * The columns every reader's table of parked events has (projection_parked, reaction_parked), with `stream_version`
 * selected as text (a bigint).
 */
export interface ParkedEventRow {
  event_id: string;
  stream_id: string;
  stream_version: string;
  type: string;
  error: string;
  attempts: number;
  parked_at: Date | string;
}

/** A parked event as the operations API shows it, but for the name of the reader that parked it. */
export const parkedEventOf = (row: ParkedEventRow): Omit<ParkedEvent, 'projection'> => ({
  eventId: row.event_id,
  streamId: row.stream_id,
  streamVersion: Number(row.stream_version),
  type: row.type,
  error: row.error,
  attempts: row.attempts,
  parkedAt: new Date(row.parked_at).toISOString(),
});
