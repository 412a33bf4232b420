import { sql } from 'kysely';
import { DomainEvent, type MacroCommand, type SopCommand, type StreamType } from '@claims/contracts';
import { decideMacro, decideSop, evolveMacro, evolveSop, type MacroState, type Result, type SopAggregate } from '@claims/domain';
import { appendToStream, NO_STREAM, readStream } from '@claims/event-store';
import type { AppContext, RequestMeta } from '../context.js';
import { AppError } from '../platform/errors.js';
import { groupByStream } from '../commands/newEvents.js';

/** A small event-sourced thing of the back-office (a macro, an SOP): one stream each. */
export interface Aggregate<S extends { deleted: boolean }, C> {
  readonly streamType: StreamType;
  evolve(state: S | null, event: DomainEvent, occurredAt: string): S | null;
  decide(command: C, state: S | null): Result<DomainEvent[]>;
}

export const macroAggregate: Aggregate<MacroState, MacroCommand> = { streamType: 'macro', evolve: evolveMacro, decide: decideMacro };
export const sopAggregate: Aggregate<SopAggregate, SopCommand> = { streamType: 'sop', evolve: evolveSop, decide: decideSop };

export interface Loaded<S> {
  state: S | null;
  version: number;
}

function fold<S extends { deleted: boolean }>(aggregate: Aggregate<S, unknown>, events: ReadonlyArray<{ type: string; data: unknown; occurredAt: string }>): S | null {
  let state: S | null = null;
  for (const e of events) state = aggregate.evolve(state, DomainEvent.parse({ type: e.type, data: e.data }), e.occurredAt);
  return state;
}

/** One aggregate from its stream (a stream of another type folds to nothing). */
export async function loadAggregate<S extends { deleted: boolean }, C>(ctx: AppContext, aggregate: Aggregate<S, C>, id: string): Promise<Loaded<S>> {
  const { version, events } = await readStream(ctx.database.db, id);
  return { state: fold(aggregate, events), version };
}

/**
 * Every live aggregate of a type for one store (`null`: the global ones), folded from the streams in
 * one query — these are small collections (a store's macros and SOPs), so the streams are the read model.
 */
export async function listAggregates<S extends { deleted: boolean; createdAt: string }, C>(
  ctx: AppContext, aggregate: Aggregate<S, C>, storeId: string | null,
): Promise<Array<Loaded<S> & { state: S }>> {
  const { rows } = await sql<{ stream_id: string; stream_version: number; type: string; data: unknown; occurred_at: Date }>`
    select e.stream_id, e.stream_version, e.type, e.data, e.occurred_at
    from streams s join events e on e.stream_id = s.stream_id
    where s.stream_type = ${aggregate.streamType} and s.store_id is not distinct from ${storeId}::uuid
    order by e.stream_id, e.stream_version`.execute(ctx.database.db);
  const byStream = new Map<string, Array<{ type: string; data: unknown; occurredAt: string; version: number }>>();
  for (const row of rows) {
    const list = byStream.get(row.stream_id) ?? [];
    list.push({ type: row.type, data: row.data, occurredAt: new Date(row.occurred_at).toISOString(), version: Number(row.stream_version) });
    byStream.set(row.stream_id, list);
  }
  const live: Array<Loaded<S> & { state: S }> = [];
  for (const events of byStream.values()) {
    const state = fold(aggregate, events);
    if (state && !state.deleted) live.push({ state, version: events.at(-1)!.version });
  }
  return live.sort((a, b) => a.state.createdAt.localeCompare(b.state.createdAt));
}

/**
 * Decides on the stream's state and appends at that version: a caller's stale `expectedVersion` is a
 * 409, and so is a concurrent change (these are edited by people, so the second writer reloads).
 */
export async function executeAggregateCommand<S extends { deleted: boolean }, C>(
  ctx: AppContext, aggregate: Aggregate<S, C>, id: string, storeId: string | null, command: C, meta: RequestMeta, expectedVersion?: number,
): Promise<Loaded<S> & { state: S }> {
  const loaded = await loadAggregate(ctx, aggregate, id);
  if (expectedVersion !== undefined && expectedVersion !== loaded.version) {
    throw new AppError('version_conflict', `It changed since you loaded it (now version ${loaded.version}). Reload and try again.`);
  }
  const decision = aggregate.decide(command, loaded.state);
  if (!decision.ok) throw AppError.from(decision.error);
  if (decision.value.length > 0) {
    const [group] = groupByStream(decision.value, meta).values();
    const result = await appendToStream(ctx.database.db, {
      streamId: id, streamType: aggregate.streamType, storeId, expectedVersion: loaded.version === 0 ? NO_STREAM : loaded.version, events: group!.events,
    });
    if (!result.ok) throw new AppError('version_conflict', 'Someone else changed it at the same moment. Reload and try again.');
    ctx.notifyAppended();
  }
  const after = await loadAggregate(ctx, aggregate, id);
  if (!after.state) throw new AppError('not_found', 'Nothing matches that reference.');
  return { state: after.state, version: after.version };
}
