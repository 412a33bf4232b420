import { sql, type QueryExecutorProvider } from 'kysely';

/** A text to look for in the events' data, in those that occurred at or after `since` (an ISO instant). */
export interface TextSince {
  text: string;
  since: string;
}

/**
 * Which of the texts some event's data names (as a substring of its JSON), each among the events that occurred at or
 * after its `since`: the store's own answer to "does any event still refer to this?", so that a reader that keeps
 * references inside event data (an upload's key in an item's image URL) never scans `events` itself.
 */
export async function textsNamedInEvents(db: QueryExecutorProvider, texts: readonly TextSince[]): Promise<Set<string>> {
  if (texts.length === 0) return new Set();
  const { rows } = await sql<{ text: string }>`
    select t.text from jsonb_to_recordset(${JSON.stringify(texts)}::jsonb) as t(text text, since timestamptz)
    where exists (select 1 from events e where e.occurred_at >= t.since and position(t.text in e.data::text) > 0)`.execute(
    db,
  );
  return new Set(rows.map((row) => row.text));
}
