import { EVENT_REGISTRY, EVENT_TYPES, type EventOf, type EventType, type StreamType } from './events.js';

type EventRegistry = typeof EVENT_REGISTRY;

/** The type of stream an event type is appended to. */
export type StreamTypeOf<T extends EventType> = EventRegistry[T]['streamType'];

/** Every event type appended to streams of the types `S`: what a reader of those streams must decide on. */
export type EventTypeIn<S extends StreamType> = { [T in EventType]: StreamTypeOf<T> extends S ? T : never }[EventType];

/** What a reader of the store does with an event type of the streams it reads: handle it, or leave it alone on purpose. */
export type EventDecision = 'handle' | 'ignore';

/**
 * A reader's decision on every event type of the streams it reads. A type added to one of those streams without a
 * decision here is a type error, so no reader can miss a new event (docs/decisions/every-reader-decides.md).
 */
export type EventDecisions<S extends StreamType> = { readonly [T in EventTypeIn<S>]: EventDecision };

/** The types a reader's decisions handle. */
export type HandledIn<D> = { [K in keyof D]: D[K] extends 'handle' ? K : never }[keyof D] & EventType;

/** A reader of the store: the streams it reads, its decision on each of their event types, and the types it handles. */
export interface EventReader<T extends EventType = EventType> {
  readonly streams: readonly StreamType[];
  readonly decisions: Readonly<Partial<Record<EventType, EventDecision>>>;
  /** The types it is given (derived from `decisions`): the others are neither read nor parsed. */
  readonly handles: readonly T[];
}

/** The event types appended to streams of the given types. */
export const eventTypesIn = (streams: readonly StreamType[]): EventType[] =>
  EVENT_TYPES.filter((type) => streams.includes(EVENT_REGISTRY[type].streamType));

const handledTypes = <D extends Partial<Record<EventType, EventDecision>>>(decisions: D): HandledIn<D>[] =>
  EVENT_TYPES.filter((type): type is HandledIn<D> => decisions[type] === 'handle');

/** A reader of the streams `S` that decides on every one of their event types. */
export function readerOf<const S extends StreamType, const D extends EventDecisions<S>>(
  streams: readonly S[],
  decisions: D,
): EventReader<HandledIn<D>> {
  return { streams, decisions, handles: handledTypes(decisions) };
}

/**
 * The claim's events in groups that readers take together, so that a reader's decisions say what it reads a claim for
 * (docs/decisions/every-reader-decides.md). A type added to a group is decided for every reader that names the group:
 * add one only where each such reader would decide it the same way.
 */
export const CLAIM_EVENT_GROUPS = {
  /** The claim's money decision: a resolution, and taking it back. */
  decisions: ['ClaimResolved', 'ClaimResolutionReversed'],
  /** What the shopper and the store say on the claim: its messages, and the shopper's review. */
  conversation: ['ClaimMessageSent', 'ClaimReviewed'],
  /** The desk's own marks on the claim: internal notes, labels and metadata (never published, never the shopper's). */
  deskMarks: ['ClaimNoteAdded', 'ClaimLabelAdded', 'ClaimLabelRemoved', 'ClaimMetadataSet'],
  /** A return of the claim's items: started, then moved through its statuses. */
  returns: ['ReturnStarted', 'ReturnStatusChanged'],
} as const satisfies Record<string, readonly EventTypeIn<'claim'>[]>;
export type ClaimEventGroup = keyof typeof CLAIM_EVENT_GROUPS;

type GroupDecisions<G extends ClaimEventGroup, D extends EventDecision> = {
  readonly [T in (typeof CLAIM_EVENT_GROUPS)[G][number]]: D;
};

const decidingAll = <G extends ClaimEventGroup, D extends EventDecision>(
  decision: D,
  groups: readonly G[],
): GroupDecisions<G, D> =>
  Object.fromEntries(
    groups.flatMap((group) => CLAIM_EVENT_GROUPS[group].map((type) => [type, decision])),
  ) as GroupDecisions<G, D>;

/** A reader's decision to handle every claim event of the groups: spread among its other decisions. */
export const handling = <const G extends ClaimEventGroup>(...groups: G[]) => decidingAll('handle', groups);

/** A reader's decision to leave every claim event of the groups alone: spread among its other decisions. */
export const ignoring = <const G extends ClaimEventGroup>(...groups: G[]) => decidingAll('ignore', groups);

/**
 * A decision per event type that also says how: a function of the event (the mails, the webhook mapping), or 'ignore'.
 * The table is the reader's one place: what it handles is derived from it.
 */
export type DecisionTable<S extends StreamType, R> = {
  readonly [T in EventTypeIn<S>]: ((event: EventOf<T>) => R) | 'ignore';
};

/** The decisions a table makes, as an {@link EventReader}'s. */
export function readerOfTable<const S extends StreamType, R>(
  streams: readonly S[],
  table: DecisionTable<S, R>,
): EventReader<EventTypeIn<S>> {
  const decisions: Partial<Record<EventType, EventDecision>> = Object.fromEntries(
    Object.entries(table).map(([type, how]) => [type, how === 'ignore' ? 'ignore' : 'handle']),
  );
  return { streams, decisions, handles: handledTypes(decisions) as EventTypeIn<S>[] };
}

/** What the table does with an event: its function's answer, or null when the table ignores the type (or it is of another stream). */
export function decideBy<S extends StreamType, R>(
  table: DecisionTable<S, R>,
  event: { type: EventType; data: unknown },
): R | null {
  const how: unknown = (table as Partial<Record<EventType, unknown>>)[event.type];
  // The table pairs each type with a function of that type's event, which an index by a runtime type cannot express.
  return typeof how === 'function' ? (how as (e: typeof event) => R)(event) : null;
}

/** An event type as the registry places it: what {@link undecidedTypes} checks a reader against. */
export interface RegisteredType {
  readonly type: string;
  readonly streamType: StreamType;
}

export const REGISTERED_TYPES: readonly RegisteredType[] = EVENT_TYPES.map((type) => ({
  type,
  streamType: EVENT_REGISTRY[type].streamType,
}));

/** The event types of the streams a reader reads that it has no decision on (a new type added to the registry, say). */
export function undecidedTypes(
  reader: Pick<EventReader, 'streams' | 'decisions'>,
  registered: readonly RegisteredType[] = REGISTERED_TYPES,
): string[] {
  const decided = reader.decisions as Readonly<Record<string, EventDecision | undefined>>;
  return registered
    .filter((t) => reader.streams.includes(t.streamType) && decided[t.type] === undefined)
    .map((t) => t.type);
}
