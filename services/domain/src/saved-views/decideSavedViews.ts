import {
  MAX_SAVED_VIEWS_PER_USER,
  type ClaimAssignee,
  type DomainEvent,
  type QueueView,
  type SavedViewCommand,
} from '@claims/contracts';
import { fail, ok, type Result } from '../result.js';
import type { Decider } from '../decider.js';
import { sameJson } from '../sameJson.js';

export interface SavedViewState {
  id: string;
  owner: ClaimAssignee;
  name: string;
  filters: QueueView;
  shared: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A team's saved views, oldest first (a deleted view leaves the list; its events stay in the stream). */
export interface TeamViewsState {
  team: string;
  views: readonly SavedViewState[];
}

export function evolveSavedViews(state: TeamViewsState | null, event: DomainEvent): TeamViewsState | null {
  switch (event.type) {
    case 'SavedViewCreated': {
      const { team, viewId, createdAt, ...rest } = event.data;
      const views = state?.views ?? [];
      return { team, views: [...views, { id: viewId, ...rest, createdAt, updatedAt: createdAt }] };
    }
    case 'SavedViewUpdated': {
      const { viewId, updatedAt, name, filters, shared } = event.data;
      return (
        state && {
          ...state,
          views: state.views.map((v) => (v.id === viewId ? { ...v, name, filters, shared, updatedAt } : v)),
        }
      );
    }
    case 'SavedViewDeleted':
      return state && { ...state, views: state.views.filter((v) => v.id !== event.data.viewId) };
    default:
      return state;
  }
}

const notFound = () => fail<DomainEvent[]>('not_found', 'No saved view matches that reference.');
const sameName = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'accent' }) === 0;

/** Another view of the same owner already has this name (case aside): two would be told apart by nothing. */
function nameTaken(state: TeamViewsState | null, ownerId: string, name: string, except?: string): boolean {
  return (state?.views ?? []).some((v) => v.owner.id === ownerId && v.id !== except && sameName(v.name, name));
}

/**
 * Each person keeps their own views in their team's stream and may share one with the team; only its
 * owner renames, re-filters, shares or deletes it (teammates only open it).
 */
export function decideSavedViews(command: SavedViewCommand, state: TeamViewsState | null): Result<DomainEvent[]> {
  switch (command.type) {
    case 'CreateSavedView': {
      const { name, filters, shared } = command.view;
      if (state?.views.some((v) => v.id === command.viewId))
        return fail('version_conflict', 'A saved view with this id exists already.');
      if (nameTaken(state, command.owner.id, name))
        return fail('validation_failed', `You have a view named "${name}" already.`);
      const own = (state?.views ?? []).filter((v) => v.owner.id === command.owner.id).length;
      if (own >= MAX_SAVED_VIEWS_PER_USER)
        return fail(
          'validation_failed',
          `You can keep at most ${MAX_SAVED_VIEWS_PER_USER} saved views; delete one first.`,
        );
      return ok([
        {
          type: 'SavedViewCreated',
          data: {
            team: command.team,
            viewId: command.viewId,
            owner: command.owner,
            name,
            filters,
            shared,
            createdAt: command.now,
          },
        },
      ]);
    }
    case 'UpdateSavedView': {
      const view = state?.views.find((v) => v.id === command.viewId);
      if (!state || !view) return notFound();
      if (view.owner.id !== command.actorId)
        return fail('forbidden', `Only ${view.owner.name} can change the view "${view.name}".`);
      const { name, filters, shared } = command.view;
      if (name === view.name && shared === view.shared && sameJson(filters, view.filters)) return ok([]);
      if (nameTaken(state, view.owner.id, name, view.id))
        return fail('validation_failed', `You have a view named "${name}" already.`);
      return ok([
        {
          type: 'SavedViewUpdated',
          data: { team: state.team, viewId: view.id, name, filters, shared, updatedAt: command.now },
        },
      ]);
    }
    case 'DeleteSavedView': {
      const view = state?.views.find((v) => v.id === command.viewId);
      if (!state || !view) return notFound();
      if (view.owner.id !== command.actorId)
        return fail('forbidden', `Only ${view.owner.name} can delete the view "${view.name}".`);
      return ok([{ type: 'SavedViewDeleted', data: { team: state.team, viewId: view.id, deletedAt: command.now } }]);
    }
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
}

/** What a teammate sees of the team's views: their own, and those shared with the team. */
export const visibleViews = (state: TeamViewsState | null, userId: string): SavedViewState[] =>
  (state?.views ?? []).filter((v) => v.owner.id === userId || v.shared);

export const savedViewsDecider: Decider<TeamViewsState | null, SavedViewCommand> = {
  initialState: null,
  evolve: evolveSavedViews,
  decide: decideSavedViews,
};
