import type { DomainEvent } from '@claims/contracts';
import type { Decider } from '@claims/domain';
import {
  storedDomainEvent,
  appendToManyStreams,
  appendToStream,
  appendToStreams,
  NO_STREAM,
  readStream,
  readStreams,
  type Alongside,
  type NewEvent,
  type RecordedEvent,
  type StreamAppend,
  type StreamRead,
} from '@claims/event-store';
import type { AppContext, RequestMeta } from '../context.js';
import { AppError } from '../platform/errors.js';
import { groupByStream } from './newEvents.js';

/**
 * What to do when another writer appended to the stream between our read and our append:
 * `decide-again` folds the new events and decides once more (the command still means the same);
 * `refuse` answers 409 (a person decided on what they saw, so they must see the change first).
 */
export type ConflictPolicy = { kind: 'decide-again'; attempts: number } | { kind: 'refuse' };

export const DECIDE_AGAIN: ConflictPolicy = { kind: 'decide-again', attempts: 3 };
export const REFUSE: ConflictPolicy = { kind: 'refuse' };

export interface CommandRequest<State, Command> {
  decider: Decider<State, Command>;
  /** The aggregate's stream; events the decider emits for other streams create them (expected: no stream). */
  streamId: string;
  storeId: string | null;
  /** The command, or how to build it from the loaded state (a retry builds it again on the new state). */
  command: Command | ((loaded: Loaded<State>) => Command | Promise<Command>);
  meta: RequestMeta;
  /** The version the caller saw: a different one is a 409 whatever the policy. */
  expectedVersion?: number | undefined;
  /** Default: decide again when no `expectedVersion` was given, else refuse. */
  onConflict?: ConflictPolicy;
  /** Rows of the caller's own tables that must commit with the events. */
  alongside?: Alongside;
  /**
   * The stream as the caller read it for this request (to authorize, or to build the command): the first
   * attempt decides on it instead of reading it again; a stale one is a conflict like any other.
   */
  loaded?: Loaded<State>;
}

export interface Loaded<State> {
  state: State;
  version: number;
  events: RecordedEvent[];
}

export interface Handled<State> extends Loaded<State> {
  /** What this command decided (empty when it changed nothing). */
  decided: DomainEvent[];
}

const conflict = (version: number) =>
  new AppError('version_conflict', `It changed since you loaded it (now version ${version}). Reload and try again.`);

/** The state stored events make, from the decider's initial state (each event parsed by its type). */
export function foldRecorded<State>(
  decider: Pick<Decider<State, unknown>, 'initialState' | 'evolve'>,
  events: ReadonlyArray<{ type: string; data: unknown }>,
): State {
  let state = decider.initialState;
  for (const event of events) state = decider.evolve(state, storedDomainEvent(event));
  return state;
}

/** A stream already read, folded. */
export const foldStream = <State>(
  decider: Pick<Decider<State, unknown>, 'initialState' | 'evolve'>,
  { version, events }: StreamRead,
): Loaded<State> => ({ state: foldRecorded(decider, events), version, events });

/** Reads one stream and folds it (optionally only up to a version, for an "as of" view). */
export async function loadAggregate<State>(
  ctx: AppContext,
  decider: Pick<Decider<State, unknown>, 'initialState' | 'evolve'>,
  streamId: string,
  untilVersion?: number,
): Promise<Loaded<State>> {
  return foldStream(decider, await readStream(ctx.database.db, streamId, untilVersion));
}

/**
 * The one way a command is handled: load and fold the stream once, decide, append every decided
 * event to its own stream in one transaction (the aggregate's at the version decided on), and
 * answer the new state folded from the decision, without reading again. Projections and the relay
 * are woken by the store's own append hook.
 */
export async function handleCommand<State, Command>(
  ctx: AppContext,
  request: CommandRequest<State, Command>,
): Promise<Handled<State>> {
  const { decider, streamId, expectedVersion } = request;
  const policy = request.onConflict ?? (expectedVersion === undefined ? DECIDE_AGAIN : REFUSE);
  for (let attempt = 1; ; attempt++) {
    const loaded = attempt === 1 && request.loaded ? request.loaded : await loadAggregate(ctx, decider, streamId);
    if (expectedVersion !== undefined && expectedVersion !== loaded.version) throw conflict(loaded.version);
    const command =
      typeof request.command === 'function'
        ? await (request.command as (loaded: Loaded<State>) => Command | Promise<Command>)(loaded)
        : request.command;
    const decision = decider.decide(command, loaded.state);
    if (!decision.ok) throw AppError.from(decision.error);
    if (decision.value.length === 0) return { ...loaded, decided: [] };
    const appends: StreamAppend[] = [...groupByStream(decision.value, request.meta)].map(([id, group]) => ({
      streamId: id,
      streamType: group.streamType,
      storeId: request.storeId,
      expectedVersion: id === streamId ? loaded.version : NO_STREAM,
      events: group.events,
    }));
    // The aggregate's own stream first: it is the contended one (see appendToStreams).
    appends.sort((a, b) => Number(b.streamId === streamId) - Number(a.streamId === streamId));
    // One stream and no rows: one statement, no explicit transaction (see appendToStream).
    const [result] =
      appends.length === 1 && !request.alongside
        ? [await appendToStream(ctx.database.db, appends[0]!)]
        : await appendToStreams(ctx.database.db, appends, request.alongside);
    if (result?.ok) {
      const own = appends.find((a) => a.streamId === streamId);
      return {
        state: decision.value.reduce(decider.evolve, loaded.state),
        version: loaded.version + (own?.events.length ?? 0),
        events: loaded.events,
        decided: decision.value,
      };
    }
    if (policy.kind === 'refuse' || attempt >= policy.attempts) {
      const now = await readStream(ctx.database.db, streamId);
      throw conflict(now.version);
    }
  }
}

/** Streams read and folded in one query: what a batch decides on, by stream id. */
export async function loadAggregates<State>(
  ctx: AppContext,
  decider: Pick<Decider<State, unknown>, 'initialState' | 'evolve'>,
  streamIds: Iterable<string>,
): Promise<Map<string, Loaded<State>>> {
  const read = await readStreams(ctx.database.db, [...new Set(streamIds)]);
  return new Map([...read].map(([id, stream]) => [id, foldStream(decider, stream)]));
}

/** One command of a batch: its stream, and what it is to be decided on (the stream as the batch holds it). */
export interface BatchedCommand<Command> {
  streamId: string;
  storeId: string | null;
  command: Command;
  meta: RequestMeta;
  /** When its stream moved meanwhile, the command is handled alone with this policy (default: decide again). */
  onConflict?: ConflictPolicy;
}

export type BatchedOutcome<State> = { ok: true; handled: Handled<State> } | { ok: false; error: unknown };

/**
 * Many commands of one decider as one batch: the streams not in `held` read in one query, every command decided in the
 * order given (several on one stream each on the state the one before it left), and everything decided appended in one
 * statement (appendToManyStreams). A stream that moved meanwhile, and a command whose events reach another stream, is
 * handled alone afterwards by `handleCommand`, in order. An expected refusal is that command's outcome, not an error of
 * the batch. `held` is brought up to date with what was appended, so a later batch decides on it without reading again.
 */
export async function handleCommandsInBatch<State, Command>(
  ctx: AppContext,
  decider: Decider<State, Command>,
  commands: readonly BatchedCommand<Command>[],
  held: Map<string, Loaded<State>> = new Map(),
): Promise<BatchedOutcome<State>[]> {
  const unread = commands.map((c) => c.streamId).filter((id) => !held.has(id));
  for (const [id, loaded] of await loadAggregates(ctx, decider, unread)) held.set(id, loaded);
  interface Pending {
    loaded: Loaded<State>;
    state: State;
    storeId: string | null;
    streamType: string | null;
    events: NewEvent[];
    decided: Array<{ index: number; decided: DomainEvent[]; state: State; version: number }>;
    /** Commands handled alone, in order, once the batch is appended. */
    alone: number[];
  }
  const outcomes: BatchedOutcome<State>[] = new Array(commands.length);
  const streams = new Map<string, Pending>();
  for (const [index, request] of commands.entries()) {
    const loaded = held.get(request.streamId)!;
    let stream = streams.get(request.streamId);
    if (!stream) {
      stream = {
        loaded,
        state: loaded.state,
        storeId: request.storeId,
        streamType: null,
        events: [],
        decided: [],
        alone: [],
      };
      streams.set(request.streamId, stream);
    }
    if (stream.alone.length > 0) {
      stream.alone.push(index);
      continue;
    }
    const decision = decider.decide(request.command, stream.state);
    if (!decision.ok) {
      outcomes[index] = { ok: false, error: AppError.from(decision.error) };
      continue;
    }
    const groups = groupByStream(decision.value, request.meta);
    const own = groups.get(request.streamId);
    if (groups.size > (own ? 1 : 0)) {
      stream.alone.push(index);
      continue;
    }
    stream.state = decision.value.reduce(decider.evolve, stream.state);
    if (own) {
      stream.streamType = own.streamType;
      stream.events.push(...own.events);
    }
    stream.decided.push({
      index,
      decided: decision.value,
      state: stream.state,
      version: loaded.version + stream.events.length,
    });
  }
  const appending = [...streams].filter(([, s]) => s.events.length > 0);
  const results = await appendToManyStreams(
    ctx.database.db,
    appending.map(([streamId, s]) => ({
      streamId,
      streamType: s.streamType!,
      storeId: s.storeId,
      expectedVersion: s.loaded.version,
      events: s.events,
    })),
  );
  const conflicted = new Set(appending.filter((_, k) => !results[k]!.ok).map(([id]) => id));
  for (const [streamId, stream] of streams) {
    if (conflicted.has(streamId)) {
      stream.alone.unshift(...stream.decided.map((d) => d.index));
      continue;
    }
    for (const d of stream.decided)
      outcomes[d.index] = {
        ok: true,
        handled: { state: d.state, version: d.version, events: stream.loaded.events, decided: d.decided },
      };
    const last = stream.decided.at(-1);
    if (last) held.set(streamId, { state: last.state, version: last.version, events: stream.loaded.events });
  }
  for (const [streamId, stream] of streams) {
    for (const index of stream.alone) {
      const request = commands[index]!;
      try {
        const handled = await handleCommand(ctx, {
          decider,
          streamId,
          storeId: request.storeId,
          meta: request.meta,
          command: request.command,
          onConflict: request.onConflict ?? DECIDE_AGAIN,
        });
        outcomes[index] = { ok: true, handled };
        held.set(streamId, handled);
      } catch (error) {
        outcomes[index] = { ok: false, error };
      }
    }
  }
  return outcomes;
}
