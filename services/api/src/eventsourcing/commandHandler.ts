import type { DomainEvent } from '@claims/contracts';
import type { Decider } from '@claims/domain';
import {
  storedDomainEvent,
  appendToStream,
  appendToStreams,
  NO_STREAM,
  readStream,
  type Alongside,
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
