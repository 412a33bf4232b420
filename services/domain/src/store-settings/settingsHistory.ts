import {
  EDITABLE_SETTINGS_GROUPS,
  type Actor,
  type DomainEvent,
  type SettingsFieldChange,
  type SettingsHistoryEntry,
  type SettingsScalar,
} from '@claims/contracts';
import { evolveStoreSettings, type StoreSettingsState } from './decideStoreSettings.js';
import { settingsValuesOf } from './settingsGroups.js';

/** When a settings event was recorded (its data's time); other events have none. */
export function settingsEventTime(event: DomainEvent): string | null {
  switch (event.type) {
    case 'StoreSettingsInitialized':
      return event.data.initializedAt;
    case 'StoreSettingsChanged':
      return event.data.changedAt;
    default:
      return null;
  }
}

/**
 * The settings as they were at `at`: the stream's events up to the last one recorded at or before
 * it (the decider never dates a version before the one it follows); null before the first version.
 */
export function settingsAsOf(events: readonly DomainEvent[], at: string): StoreSettingsState | null {
  const limit = Date.parse(at);
  let state: StoreSettingsState | null = null;
  for (const event of events) {
    const time = settingsEventTime(event);
    if (time === null || Date.parse(time) > limit) break;
    state = evolveStoreSettings(state, event);
  }
  return state;
}

/** A group's value as `path → scalar`, e.g. `credit.bonus → 10` (what the history compares and the settings page lists). */
export function settingsLeaves(
  value: unknown,
  prefix = '',
  into = new Map<string, SettingsScalar>(),
): Map<string, SettingsScalar> {
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) settingsLeaves(inner, prefix ? `${prefix}.${key}` : key, into);
  } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null) {
    into.set(prefix, value);
  }
  return into;
}

/** The fields that differ between two values of a group (null stands for "not set"), in a stable order. */
export function settingsFieldChanges(before: unknown, after: unknown): SettingsFieldChange[] {
  const from = settingsLeaves(before);
  const to = settingsLeaves(after);
  const fields = [...new Set([...from.keys(), ...to.keys()])];
  return fields
    .map((field) => ({ field, from: from.get(field) ?? null, to: to.get(field) ?? null }))
    .filter((change) => change.from !== change.to);
}

/** One stored settings event with what the history shows of it: its version and who recorded it. */
export interface SettingsRecord {
  version: number;
  event: DomainEvent;
  actor: Actor;
}

/**
 * Every version of every group, oldest first: the first version lists each group's fields as set
 * (from null); a change lists the fields it moved, against the value just before it.
 */
export function settingsHistory(records: readonly SettingsRecord[]): SettingsHistoryEntry[] {
  const items: SettingsHistoryEntry[] = [];
  let state: StoreSettingsState | null = null;
  for (const { version, event, actor } of records) {
    const before = state && settingsValuesOf(state.settings);
    state = evolveStoreSettings(state, event);
    const at = settingsEventTime(event);
    if (!state || at === null) continue;
    const after = settingsValuesOf(state.settings);
    if (event.type === 'StoreSettingsInitialized') {
      for (const group of EDITABLE_SETTINGS_GROUPS) {
        items.push({
          version,
          group,
          kind: 'initialized',
          at,
          actor,
          changes: settingsFieldChanges(null, after[group]),
        });
      }
    } else if (event.type === 'StoreSettingsChanged') {
      const { group } = event.data.change;
      items.push({
        version,
        group,
        kind: 'changed',
        at,
        actor,
        changes: settingsFieldChanges(before?.[group] ?? null, after[group]),
      });
    }
  }
  return items;
}
