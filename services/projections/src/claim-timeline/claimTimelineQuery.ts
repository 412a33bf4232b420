import { sql, type QueryExecutorProvider } from 'kysely';
import type { Actor } from '@claims/contracts';

export interface TimelineEntry {
  version: number;
  globalPosition: number;
  eventType: string;
  status: string | null;
  actor: Actor;
  summary: Record<string, unknown>;
  occurredAt: string;
}

/** A claim's history, oldest first. */
export async function claimTimeline(db: QueryExecutorProvider, claimId: string): Promise<TimelineEntry[]> {
  const result = await sql<{
    stream_version: number; global_position: number; event_type: string; status: string | null;
    actor: Actor; summary: Record<string, unknown>; occurred_at: Date;
  }>`select * from claim_timeline where claim_id = ${claimId} order by stream_version`.execute(db);
  return result.rows.map((r) => ({
    version: Number(r.stream_version),
    globalPosition: Number(r.global_position),
    eventType: r.event_type,
    status: r.status,
    actor: r.actor,
    summary: r.summary,
    occurredAt: new Date(r.occurred_at).toISOString(),
  }));
}
