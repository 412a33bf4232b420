import type { DomainEvent, MacroCommand, MacroKind, MacroResolutionPreset } from '@claims/contracts';
import { fail, ok, type Result } from '../result.js';
import type { Decider } from '../decider.js';
import { sameJson } from '../sameJson.js';

/** A macro as its stream makes it; `deleted` macros stay in the stream but leave every list. */
export interface MacroState {
  id: string;
  storeId: string | null;
  name: string;
  kind: MacroKind;
  body: string;
  resolution: MacroResolutionPreset | null;
  createdAt: string;
  updatedAt: string;
  deleted: boolean;
}

export function evolveMacro(state: MacroState | null, event: DomainEvent): MacroState | null {
  switch (event.type) {
    case 'MacroCreated': {
      const { macroId, createdAt, ...rest } = event.data;
      return { id: macroId, ...rest, createdAt, updatedAt: createdAt, deleted: false };
    }
    case 'MacroUpdated': {
      const { macroId: _id, updatedAt, ...rest } = event.data;
      return state && { ...state, ...rest, updatedAt };
    }
    case 'MacroDeleted':
      return state && { ...state, deleted: true, updatedAt: event.data.deletedAt };
    default:
      return state;
  }
}

const notFound = () => fail<DomainEvent[]>('not_found', 'No macro matches that reference.');

export function decideMacro(command: MacroCommand, state: MacroState | null): Result<DomainEvent[]> {
  switch (command.type) {
    case 'CreateMacro':
      if (state) return fail('version_conflict', 'A macro with this id exists already.');
      return ok([
        {
          type: 'MacroCreated',
          data: { macroId: command.macroId, storeId: command.storeId, ...command.macro, createdAt: command.now },
        },
      ]);
    case 'UpdateMacro': {
      if (!state || state.deleted) return notFound();
      const { name, kind, body, resolution } = command.macro;
      if (name === state.name && kind === state.kind && body === state.body && sameJson(resolution, state.resolution))
        return ok([]);
      return ok([
        { type: 'MacroUpdated', data: { macroId: state.id, name, kind, body, resolution, updatedAt: command.now } },
      ]);
    }
    case 'DeleteMacro':
      if (!state || state.deleted) return notFound();
      return ok([{ type: 'MacroDeleted', data: { macroId: state.id, deletedAt: command.now } }]);
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
}

export const macroDecider: Decider<MacroState | null, MacroCommand> = {
  initialState: null,
  evolve: evolveMacro,
  decide: decideMacro,
};
