import { expect } from 'vitest';
import type { DomainEvent, ErrorCode } from '@claims/contracts';
import { foldEvents, type Decider, type Result } from '../../src/index.js';

/**
 * A refusal a test expects: its error code and, when the test cares, what its message says (a string
 * the message contains, or a pattern it matches). Any refusal must carry some message.
 */
export interface Refusal {
  refused: ErrorCode;
  message?: string | RegExp;
}

export const refused = (code: ErrorCode, message?: string | RegExp): Refusal => ({ refused: code, message });

/** An expected event by the parts a test names; the rest of it may be anything. */
export interface EventShape {
  type?: DomainEvent['type'];
  data?: object;
}

export interface Decision {
  /** The decided events equal these (asymmetric matchers allowed); returns them. */
  then(expected: readonly DomainEvent[]): DomainEvent[];
  /** The command is refused with this code (and message). */
  then(expected: Refusal): void;
  /** As many events are decided as shapes are given, each matching its shape; returns them. */
  thenMatches(expected: readonly EventShape[]): DomainEvent[];
}

export interface Given<State, Command> {
  /** The decider's state after the given events. */
  readonly state: State;
  when(command: Command): Decision;
}

/** One outcome for either kind of result, so a mismatch shows as one diff: events where a refusal was expected, or the other way. */
const outcomeOf = (result: Result<DomainEvent[]>) =>
  result.ok ? { decided: result.value } : { refused: result.error.code, message: result.error.message };

const messageMatcher = (message: string | RegExp | undefined) =>
  message === undefined
    ? expect.stringMatching(/\S/)
    : typeof message === 'string'
      ? expect.stringContaining(message)
      : expect.stringMatching(message);

const eventsOf = (result: Result<DomainEvent[]>) => (result.ok ? result.value : []);

/**
 * Given the events a stream holds, when a command is decided, then these events (or this refusal):
 * `given(claimDecider, filing).when(command).then([...])`. The state is folded with the decider's own
 * `evolve` from its `initialState`, as the command handler does.
 */
export function given<State, Command extends { type: string }>(
  decider: Decider<State, Command>,
  events: readonly DomainEvent[] = [],
): Given<State, Command> {
  const state = foldEvents(decider, events);
  const history = events.length ? events.map((e) => e.type).join(', ') : 'no events';
  return {
    state,
    when(command) {
      const result = decider.decide(command, state);
      const scene = `given ${history}, when ${command.type}`;
      const then = (expected: readonly DomainEvent[] | Refusal) => {
        // The decision has a `then`, so it looks like a promise: awaiting it would call `then` with callbacks.
        if (typeof expected === 'function')
          throw new TypeError('A decision is not a promise: call then(events) or then(refused(code)).');
        if (Array.isArray(expected)) {
          expect(outcomeOf(result), scene).toEqual({ decided: expected });
          return eventsOf(result);
        }
        const refusal = expected as Refusal;
        expect(outcomeOf(result), scene).toEqual({
          refused: refusal.refused,
          message: messageMatcher(refusal.message),
        });
        return undefined;
      };
      return {
        then: then as Decision['then'],
        thenMatches(expected) {
          expect(outcomeOf(result), scene).toMatchObject({ decided: expected });
          return eventsOf(result);
        },
      };
    },
  };
}
