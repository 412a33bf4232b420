import type { DomainEvent, SopCommand, SopState } from '@claims/contracts';
import type { Decider } from '../decider.js';
import { fail, ok, type Result } from '../result.js';

/**
 * An SOP is written as a draft, published (active) for agents, and archived when retired. An active
 * SOP may go back to draft for a rewrite; an archived one is restored as a draft, never straight to active.
 */
export const SOP_TRANSITIONS: Record<SopState, readonly SopState[]> = {
  draft: ['active', 'archived'],
  active: ['draft', 'archived'],
  archived: ['draft'],
};

export interface SopAggregate {
  id: string;
  storeId: string;
  title: string;
  body: string;
  state: SopState;
  createdAt: string;
  updatedAt: string;
  deleted: boolean;
}

export function evolveSop(state: SopAggregate | null, event: DomainEvent): SopAggregate | null {
  switch (event.type) {
    case 'SopCreated': {
      const { sopId, createdAt, ...rest } = event.data;
      return { id: sopId, ...rest, createdAt, updatedAt: createdAt, deleted: false };
    }
    case 'SopUpdated':
      return state && { ...state, title: event.data.title, body: event.data.body, updatedAt: event.data.updatedAt };
    case 'SopStateChanged':
      return state && { ...state, state: event.data.to, updatedAt: event.data.changedAt };
    case 'SopDeleted':
      return state && { ...state, deleted: true, updatedAt: event.data.deletedAt };
    default:
      return state;
  }
}

const notFound = () => fail<DomainEvent[]>('not_found', 'No SOP matches that reference.');

export function decideSop(command: SopCommand, state: SopAggregate | null): Result<DomainEvent[]> {
  switch (command.type) {
    case 'CreateSop':
      if (state) return fail('version_conflict', 'An SOP with this id exists already.');
      return ok([
        {
          type: 'SopCreated',
          data: {
            sopId: command.sopId,
            storeId: command.storeId,
            ...command.sop,
            state: 'draft',
            createdAt: command.now,
          },
        },
      ]);
    case 'UpdateSop':
      if (!state || state.deleted) return notFound();
      if (state.state === 'archived')
        return fail('invalid_transition', 'An archived SOP is read-only; restore it as a draft first.');
      if (state.title === command.sop.title && state.body === command.sop.body) return ok([]);
      return ok([{ type: 'SopUpdated', data: { sopId: state.id, ...command.sop, updatedAt: command.now } }]);
    case 'SetSopState':
      if (!state || state.deleted) return notFound();
      if (state.state === command.state) return ok([]);
      if (!SOP_TRANSITIONS[state.state].includes(command.state)) {
        return fail('invalid_transition', `An SOP cannot move from ${state.state} to ${command.state}.`);
      }
      return ok([
        {
          type: 'SopStateChanged',
          data: { sopId: state.id, from: state.state, to: command.state, changedAt: command.now },
        },
      ]);
    case 'DeleteSop':
      if (!state || state.deleted) return notFound();
      return ok([{ type: 'SopDeleted', data: { sopId: state.id, deletedAt: command.now } }]);
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
}

export const sopDecider: Decider<SopAggregate | null, SopCommand> = {
  initialState: null,
  evolve: evolveSop,
  decide: decideSop,
};
