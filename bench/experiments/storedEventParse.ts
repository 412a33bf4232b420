/**
 * What re-validating stored events costs on a command's read: folding a claim's stream with
 * `DomainEvent.parse` on each event (as commandHandler.ts did) against the typed cast `storedDomainEvent`.
 * The events are the ones commandRoundTrips.ts left in its database (filed, messaged and resolved claims);
 * each is folded into a claim as `loadClaim` does, stream by stream, many times over.
 *
 * Usage: npx tsx bench/experiments/storedEventParse.ts   (after commandRoundTrips.ts; BENCH_ROUNDS=20)
 */
import os from 'node:os';
import pg from 'pg';
import { DomainEvent } from '@claims/contracts';
import { claimDecider } from '@claims/domain';
import { storedDomainEvent, toRecordedEvent, type RecordedEvent, type StoredEventRow } from '@claims/event-store';
import { benchDatabaseUrl, withDatabase } from '../postgres.js';

const url = withDatabase(benchDatabaseUrl(), 'claims_round_trips');
const rounds = Number(process.env.BENCH_ROUNDS ?? 20);
const pool = new pg.Pool({ connectionString: url, max: 1 });
const { rows } = await pool.query<StoredEventRow>(`
  select global_position, transaction_id::text as transaction_id, event_id, stream_id, stream_version, type, store_id, data, metadata, occurred_at
  from events where stream_type = 'claim' order by stream_id, stream_version`);
await pool.end();
const streams = new Map<string, RecordedEvent[]>();
for (const event of rows.map(toRecordedEvent))
  streams.set(event.streamId, [...(streams.get(event.streamId) ?? []), event]);

type Typing = (event: RecordedEvent) => DomainEvent;
const parse: Typing = (event) => DomainEvent.parse({ type: event.type, data: event.data });
const cast: Typing = storedDomainEvent;

function fold(typing: Typing): number {
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    for (const events of streams.values()) {
      let state = claimDecider.initialState;
      for (const event of events) state = claimDecider.evolve(state, typing(event));
    }
  }
  return performance.now() - started;
}

fold(parse);
fold(cast);
const parsed = [fold(parse), fold(parse), fold(parse)].sort((a, b) => a - b)[1]!;
const casted = [fold(cast), fold(cast), fold(cast)].sort((a, b) => a - b)[1]!;
const folds = streams.size * rounds;
console.log(
  `${streams.size} claim streams, ${rows.length} events (${(rows.length / streams.size).toFixed(1)} per stream), folded ${rounds} times; load average ${os.loadavg()[0]!.toFixed(2)}\n`,
);
console.log('| typing | µs per claim load (fold only) | µs per event |');
console.log('|---|---:|---:|');
console.log(
  `| DomainEvent.parse | ${((parsed * 1000) / folds).toFixed(1)} | ${((parsed * 1000) / (rows.length * rounds)).toFixed(2)} |`,
);
console.log(
  `| storedDomainEvent (cast) | ${((casted * 1000) / folds).toFixed(1)} | ${((casted * 1000) / (rows.length * rounds)).toFixed(2)} |`,
);
