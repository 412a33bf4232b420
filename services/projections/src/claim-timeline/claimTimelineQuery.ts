import { sql, type QueryExecutorProvider } from 'kysely';
import type { Actor, TimelineEntry } from '@claims/contracts';

/**
 * A claim's history, oldest first: its own events and its mail (a stream of its own, so mail never moves the claim's
 * version) merged in the order the store recorded them (global position).
 */
export async function claimTimeline(db: QueryExecutorProvider, claimId: string): Promise<TimelineEntry[]> {
  const result = await sql<{
    source: TimelineEntry['source'];
    stream_version: number;
    global_position: number;
    event_type: string;
    status: string | null;
    actor: Actor;
    summary: Record<string, unknown>;
    occurred_at: Date;
  }>`
    select 'claim' as source, stream_version, global_position, event_type, status, actor, summary, occurred_at
      from claim_timeline where claim_id = ${claimId}
    union all
    select 'notifications' as source, stream_version, global_position, event_type, null as status, actor, summary, occurred_at
      from claim_timeline_notifications where claim_id = ${claimId}
    order by global_position`.execute(db);
  return result.rows.map((r) => ({
    source: r.source,
    version: Number(r.stream_version),
    globalPosition: Number(r.global_position),
    eventType: r.event_type,
    status: r.status,
    actor: r.actor,
    summary: r.summary,
    occurredAt: new Date(r.occurred_at).toISOString(),
  }));
}
