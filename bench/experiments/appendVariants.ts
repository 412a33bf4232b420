/**
 * Experimental copies of services/event-store's single-stream append, to measure what would make it
 * faster. Same tables (the store's own migrations), same statement shape unless the variant says
 * otherwise; they run on a plain pg.Pool instead of Kysely. Not used by the application.
 */
import os from 'node:os';
import pg from 'pg';
import type { StoreAdapter } from '../eventStoreWorkload.js';

export type EventsSource = 'arrays' | 'json' | 'scalar' | 'function';

export interface VariantOptions {
  /** Named (server-side prepared) statements instead of unnamed ones. */
  prepared: boolean;
  /** How the events reach the statement: five parallel arrays (as today), one jsonb array, or plain parameters for a single event. */
  source: EventsSource;
}

export const VARIANTS: Record<string, VariantOptions> = {
  /** The store's statement, verbatim, without Kysely. */
  'v-raw': { prepared: false, source: 'arrays' },
  'v-prepared': { prepared: true, source: 'arrays' },
  'v-json': { prepared: false, source: 'json' },
  'v-json-prepared': { prepared: true, source: 'json' },
  /** Plain parameters when the append has one event (the usual command), jsonb array otherwise. */
  'v-scalar-prepared': { prepared: true, source: 'scalar' },
  'v-scalar': { prepared: false, source: 'scalar' },
  /** A plpgsql function (created by the variant, as a migration would) that PostgreSQL plans once per session; events as one jsonb. */
  'v-fn': { prepared: false, source: 'function' },
  'v-fn-prepared': { prepared: true, source: 'function' },
};

/** What a migration would add for the 'function' variant. */
const APPEND_FUNCTION = `
create or replace function bench_append(
  p_stream_id text, p_stream_type text, p_store_id uuid, p_expected bigint, p_events jsonb
) returns table (out_position bigint, out_version bigint)
language plpgsql as $$
declare
  v_count int := jsonb_array_length(p_events);
  v_version bigint;
begin
  if p_expected = 0 then
    insert into streams (stream_id, stream_type, version, store_id)
    values (p_stream_id, p_stream_type, v_count, p_store_id)
    on conflict (stream_id) do nothing
    returning version into v_version;
  else
    update streams set version = version + v_count, updated_at = now()
    where stream_id = p_stream_id and version = p_expected
    returning version into v_version;
  end if;
  if v_version is null then
    return;
  end if;
  return query
    insert into events (event_id, stream_id, stream_type, stream_version, type, schema_version, store_id, data, metadata)
    select (x.ev->>'i')::uuid, p_stream_id, p_stream_type, v_version - v_count + x.ord, x.ev->>'t', (x.ev->>'v')::int,
           p_store_id, x.ev->'d', x.ev->'m'
    from jsonb_array_elements(p_events) with ordinality as x(ev, ord)
    returning global_position, stream_version;
end;
$$`;

type Mode = 'new' | 'expected';

function eventsFrom(source: EventsSource, first: number): string {
  switch (source) {
    case 'arrays':
      return `unnest($${first}::uuid[], $${first + 1}::text[], $${first + 2}::int[], $${first + 3}::jsonb[], $${first + 4}::jsonb[])
              with ordinality as e(event_id, type, schema_version, data, metadata, ord)`;
    case 'json':
      return `(select (x.ev->>'i')::uuid as event_id, x.ev->>'t' as type, (x.ev->>'v')::int as schema_version,
                      x.ev->'d' as data, x.ev->'m' as metadata, x.ord
               from jsonb_array_elements($${first}::jsonb) with ordinality as x(ev, ord)) as e`;
    case 'function':
      throw new Error('the function variant has no events source');
    case 'scalar':
      return `(select $${first}::uuid as event_id, $${first + 1}::text as type, $${first + 2}::int as schema_version,
                      $${first + 3}::jsonb as data, $${first + 4}::jsonb as metadata, 1::bigint as ord) as e`;
  }
}

function statement(mode: Mode, source: EventsSource): string {
  const stream =
    mode === 'new'
      ? `insert into streams (stream_id, stream_type, version, store_id)
         values ($1, $2, $3, $4::uuid)
         on conflict (stream_id) do nothing
         returning version`
      : `update streams set version = version + $3, updated_at = now()
         where stream_id = $1 and version = $5
         returning version`;
  const first = mode === 'new' ? 5 : 6;
  return `with stream as (${stream})
    insert into events (event_id, stream_id, stream_type, stream_version, type, schema_version, store_id, data, metadata)
    select e.event_id, $1, $2, stream.version - $3::bigint + e.ord, e.type, e.schema_version, $4::uuid, e.data, e.metadata
    from stream, ${eventsFrom(source, first)}
    returning global_position, stream_version`;
}

interface EventLike {
  eventId: string;
  type: string;
  data: unknown;
  metadata: { schemaVersion: number };
}

function eventParams(source: EventsSource, events: readonly EventLike[]): unknown[] {
  switch (source) {
    case 'arrays':
      return [
        events.map((e) => e.eventId),
        events.map((e) => e.type),
        events.map((e) => e.metadata.schemaVersion),
        events.map((e) => JSON.stringify(e.data)),
        events.map((e) => JSON.stringify(e.metadata)),
      ];
    case 'json':
    case 'function':
      return [
        JSON.stringify(
          events.map((e) => ({ i: e.eventId, t: e.type, v: e.metadata.schemaVersion, d: e.data, m: e.metadata })),
        ),
      ];
    case 'scalar': {
      const e = events[0]!;
      return [e.eventId, e.type, e.metadata.schemaVersion, JSON.stringify(e.data), JSON.stringify(e.metadata)];
    }
  }
}

export async function openVariant(name: string, url: string, poolSize: number): Promise<StoreAdapter<number>> {
  const variant = VARIANTS[name];
  if (!variant) throw new Error(`unknown variant ${name}`);
  // Importing the store sets pg's int8 parser to Number, as in the application.
  const { openDatabase, migrate, eventStoreMigrations } = await import('@claims/event-store');
  const database = await openDatabase({ databaseUrl: url, dataDir: os.tmpdir() });
  await migrate(database, eventStoreMigrations);
  await database.close();
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  if (variant.source === 'function') await pool.query(APPEND_FUNCTION);
  const storeId = '5f0c6f4e-8f53-4d0a-9a57-3c2d1b0e7a11';
  return {
    async append(streamId, events, expected) {
      if (variant.source === 'function') {
        const text = 'select out_position, out_version from bench_append($1, $2, $3, $4, $5::jsonb)';
        const values = [streamId, 'claim', storeId, expected ?? 0, ...eventParams('function', events)];
        const result = await pool.query<{ out_position: number; out_version: number }>(
          variant.prepared ? { name: 'bench_append_fn', text, values } : { text, values },
        );
        if (result.rows.length !== events.length) throw new Error(`conflict on ${streamId}`);
        let max = 0;
        for (const row of result.rows) if (row.out_version > max) max = row.out_version;
        return max;
      }
      const mode: Mode = expected === null ? 'new' : 'expected';
      const source: EventsSource = variant.source === 'scalar' && events.length > 1 ? 'json' : variant.source;
      const head =
        mode === 'new'
          ? [streamId, 'claim', events.length, storeId]
          : [streamId, 'claim', events.length, storeId, expected];
      const text = statement(mode, source);
      const values = [...head, ...eventParams(source, events)];
      const result = await pool.query<{ global_position: number; stream_version: number }>(
        variant.prepared ? { name: `bench_append_${mode}_${source}`, text, values } : { text, values },
      );
      if (result.rows.length !== events.length) throw new Error(`conflict on ${streamId}`);
      let max = 0;
      for (const row of result.rows) if (row.stream_version > max) max = row.stream_version;
      return max;
    },
    close: () => pool.end(),
  };
}
