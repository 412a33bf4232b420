import { sql, type QueryExecutorProvider } from 'kysely';
import type { QuarantinedEvent } from '@claims/contracts';

interface QuarantineRow {
  event_id: string;
  global_position: string;
  stream_id: string;
  type: string;
  bytes: number;
  error: string;
  quarantined_at: Date | string;
}

/** The events the broker refused for good, oldest first: what an operator has to look at. */
export async function listQuarantined(db: QueryExecutorProvider): Promise<QuarantinedEvent[]> {
  const { rows } = await sql<QuarantineRow>`
    select event_id, global_position::text, stream_id, type, bytes, error, quarantined_at from relay_quarantine order by global_position`.execute(
    db,
  );
  return rows.map((r) => ({
    eventId: r.event_id,
    globalPosition: Number(r.global_position),
    streamId: r.stream_id,
    type: r.type,
    bytes: r.bytes,
    error: r.error,
    quarantinedAt: new Date(r.quarantined_at).toISOString(),
  }));
}
