import { sql, type QueryExecutorProvider } from 'kysely';

/** Every row of the read models, in a stable order, for comparing live projections with a replay. */
export async function readModelSnapshot(db: QueryExecutorProvider) {
  const claims = await sql<Record<string, unknown>>`select * from claim_list order by claim_id`.execute(db);
  const timeline = await sql<
    Record<string, unknown>
  >`select * from claim_timeline order by claim_id, stream_version`.execute(db);
  return { claims: claims.rows, timeline: timeline.rows };
}

export async function eventCount(db: QueryExecutorProvider): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from events`.execute(db);
  return rows[0]!.n;
}
