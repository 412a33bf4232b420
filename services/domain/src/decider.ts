import type { DomainEvent } from '@claims/contracts';
import type { Result } from './result.js';

/**
 * An aggregate as three pure parts (the Decider pattern): where its state starts, how one event
 * changes it, and which events a command decides on it. The command handler loads, folds, decides
 * and appends for every aggregate through this one shape.
 */
export interface Decider<State, Command> {
  readonly initialState: State;
  evolve(state: State, event: DomainEvent): State;
  decide(command: Command, state: State): Result<DomainEvent[]>;
}

/** The state after `events`, from the decider's initial state. */
export const foldEvents = <State>(
  decider: Pick<Decider<State, unknown>, 'initialState' | 'evolve'>,
  events: readonly DomainEvent[],
  from: State = decider.initialState,
): State => events.reduce(decider.evolve, from);
