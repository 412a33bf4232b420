import {
  EDITABLE_SETTINGS_GROUPS,
  SETTINGS_GROUP_LABELS,
  SettingsChangeInput,
  type DomainEvent,
  type EditableSettingsGroup,
  type StoreSettings,
  type StoreSettingsCommand,
} from '@claims/contracts';
import type { Decider } from '../decider.js';
import { fail, ok, type Result } from '../result.js';
import { sameJson } from '../sameJson.js';
import { settingsValuesOf, withSettingsChange } from './settingsGroups.js';

export interface StoreSettingsState {
  storeId: string;
  settings: StoreSettings;
  /** How many events are folded: the stream's version. */
  version: number;
  /** When the last version was recorded (a change is never dated before it). */
  at: string;
  /** The version that last set each group. */
  changedIn: Record<EditableSettingsGroup, number>;
}

const everyGroupAt = (version: number) =>
  Object.fromEntries(EDITABLE_SETTINGS_GROUPS.map((group) => [group, version])) as Record<
    EditableSettingsGroup,
    number
  >;

/** The first version: every group set at once. */
const firstVersion = (storeId: string, settings: StoreSettings, at: string): StoreSettingsState => ({
  storeId,
  settings,
  version: 1,
  at,
  changedIn: everyGroupAt(1),
});

export function evolveStoreSettings(state: StoreSettingsState | null, event: DomainEvent): StoreSettingsState | null {
  switch (event.type) {
    case 'StoreSettingsInitialized':
      return state ?? firstVersion(event.data.storeId, event.data.settings, event.data.initializedAt);
    case 'StoreSettingsChanged': {
      if (!state) return state;
      const version = state.version + 1;
      return {
        ...state,
        settings: withSettingsChange(state.settings, event.data.change),
        version,
        at: event.data.changedAt,
        changedIn: { ...state.changedIn, [event.data.change.group]: version },
      };
    }
    default:
      return state;
  }
}

/** The later of two ISO times: a clock behind the last version's does not date a change before it. */
const notBefore = (now: string, last: string) => (Date.parse(now) < Date.parse(last) ? last : now);

/** "returns.portalUrl: Enter a full http(s) address." for each problem, paths inside the group's value. */
const issuesOf = (error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }) =>
  error.issues
    .map(
      (issue) =>
        `${
          issue.path
            .filter((part, i) => i > 0 || part !== 'value')
            .map(String)
            .join('.') || 'value'
        }: ${issue.message}`,
    )
    .join(' ');

export function decideStoreSettings(
  command: StoreSettingsCommand,
  state: StoreSettingsState | null,
): Result<DomainEvent[]> {
  switch (command.type) {
    case 'InitializeStoreSettings':
      if (state) return ok([]);
      return ok([
        {
          type: 'StoreSettingsInitialized',
          data: { storeId: command.storeId, settings: command.settings, initializedAt: command.now },
        },
      ]);
    case 'ChangeStoreSettings': {
      const parsed = SettingsChangeInput.safeParse(command.change);
      if (!parsed.success) return fail('validation_failed', issuesOf(parsed.error));
      const change = parsed.data;
      const baseline: DomainEvent[] = state
        ? []
        : [
            {
              type: 'StoreSettingsInitialized',
              data: { storeId: command.storeId, settings: command.baseline, initializedAt: command.now },
            },
          ];
      const current = state ?? firstVersion(command.storeId, command.baseline, command.now);
      // A store with no version yet was edited from its baseline, which is what the editor saw.
      if (state && command.seenVersion !== undefined && state.changedIn[change.group] > command.seenVersion) {
        return fail(
          'version_conflict',
          `The ${SETTINGS_GROUP_LABELS[change.group].toLowerCase()} settings changed since you loaded them (now version ${state.version}). Reload and try again.`,
        );
      }
      if (sameJson(settingsValuesOf(current.settings)[change.group], change.value)) return ok([]);
      return ok([
        ...baseline,
        {
          type: 'StoreSettingsChanged',
          data: { storeId: current.storeId, change, changedAt: notBefore(command.now, current.at) },
        },
      ]);
    }
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
}

/** A store's settings stream (`store-settings:<storeId>`): null until its first version. */
export const storeSettingsDecider: Decider<StoreSettingsState | null, StoreSettingsCommand> = {
  initialState: null,
  evolve: evolveStoreSettings,
  decide: decideStoreSettings,
};
