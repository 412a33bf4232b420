import { sql, type Kysely, type Transaction } from 'kysely';
import type { EventMetadata } from '@claims/contracts';
import type { EventStoreTables } from './tables.js';

/** `NO_STREAM`: the stream must not exist yet; `ANY`: no concurrency check. */
export const NO_STREAM = 0;
export const ANY = 'any' as const;
export type ExpectedVersion = number | typeof ANY;

export interface NewEvent {
  eventId: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

export interface StreamAppend {
  streamId: string;
  streamType: string;
  storeId: string | null;
  expectedVersion: ExpectedVersion;
  events: readonly NewEvent[];
}

export type AppendResult =
  | { ok: true; nextVersion: number; globalPositions: number[] }
  | { ok: false; conflict: { streamId: string; expectedVersion: ExpectedVersion; actualVersion: number | null } };

type Executor = Kysely<EventStoreTables> | Transaction<EventStoreTables>;

/**
 * One statement per stream: the stream row's version moves and the events are inserted together,
 * so a single-stream append costs one round trip and stays atomic without an explicit transaction.
 * A stale version matches no row, inserts nothing and comes back as a conflict.
 */
async function appendOne(db: Executor, append: StreamAppend): Promise<AppendResult> {
  const count = append.events.length;
  const streamUpsert =
    append.expectedVersion === ANY
      ? sql`insert into streams as s (stream_id, stream_type, version, store_id)
            values (${append.streamId}, ${append.streamType}, ${count}, ${append.storeId}::uuid)
            on conflict (stream_id) do update set version = s.version + ${count}, updated_at = now()
            returning s.version`
      : append.expectedVersion === NO_STREAM
        ? sql`insert into streams (stream_id, stream_type, version, store_id)
              values (${append.streamId}, ${append.streamType}, ${count}, ${append.storeId}::uuid)
              on conflict (stream_id) do nothing
              returning version`
        : sql`update streams set version = version + ${count}, updated_at = now()
              where stream_id = ${append.streamId} and version = ${append.expectedVersion}
              returning version`;
  const result = await sql<{ global_position: number; stream_version: number }>`
    with stream as (${streamUpsert})
    insert into events (event_id, stream_id, stream_type, stream_version, type, schema_version, store_id, data, metadata)
    select e.event_id, ${append.streamId}, ${append.streamType}, stream.version - ${count}::bigint + e.ord,
           e.type, e.schema_version, ${append.storeId}::uuid, e.data, e.metadata
    from stream,
         unnest(${append.events.map((e) => e.eventId)}::uuid[],
                ${append.events.map((e) => e.type)}::text[],
                ${append.events.map((e) => e.metadata.schemaVersion)}::int[],
                ${append.events.map((e) => JSON.stringify(e.data))}::jsonb[],
                ${append.events.map((e) => JSON.stringify(e.metadata))}::jsonb[])
           with ordinality as e(event_id, type, schema_version, data, metadata, ord)
    returning global_position, stream_version`.execute(db);
  if (result.rows.length !== count) {
    const actual = await db.selectFrom('streams').select('version').where('stream_id', '=', append.streamId).executeTakeFirst();
    return { ok: false, conflict: { streamId: append.streamId, expectedVersion: append.expectedVersion, actualVersion: actual?.version ?? null } };
  }
  const rows = [...result.rows].sort((a, b) => a.stream_version - b.stream_version);
  return { ok: true, nextVersion: rows.at(-1)!.stream_version, globalPositions: rows.map((r) => r.global_position) };
}

export class ConcurrencyConflict extends Error {
  constructor(readonly conflict: Extract<AppendResult, { ok: false }>['conflict']) {
    super(`Stream ${conflict.streamId} is at version ${conflict.actualVersion ?? 'none'}, not ${conflict.expectedVersion}`);
  }
}

/** Appends to one stream with optimistic concurrency. */
export function appendToStream(db: Kysely<EventStoreTables>, append: StreamAppend): Promise<AppendResult> {
  if (append.events.length === 0) throw new Error('appendToStream needs at least one event');
  return appendOne(db, append);
}

/**
 * Appends to several streams in one transaction: all or nothing. Put the contended stream first,
 * so the transaction takes its id only after it holds that stream's row (keeps per-stream read order).
 */
export async function appendToStreams(db: Kysely<EventStoreTables>, appends: readonly StreamAppend[]): Promise<AppendResult[]> {
  try {
    return await db.transaction().execute(async (trx) => {
      const results: AppendResult[] = [];
      for (const append of appends) {
        const result = await appendOne(trx, append);
        if (!result.ok) throw new ConcurrencyConflict(result.conflict);
        results.push(result);
      }
      return results;
    });
  } catch (error) {
    if (error instanceof ConcurrencyConflict) return [{ ok: false, conflict: error.conflict }];
    if (isUniqueViolation(error)) return [{ ok: false, conflict: { streamId: appends[0]!.streamId, expectedVersion: appends[0]!.expectedVersion, actualVersion: null } }];
    throw error;
  }
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && (error as { code: unknown }).code === '23505';
}
