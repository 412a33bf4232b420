import { ROLES, type DomainEvent, type RoleName, type TeamNotificationKind } from '@claims/contracts';
import type { Decider } from '../decider.js';
import { ok } from '../result.js';

/** Who gets a team mail without choosing: the owners and admins, who answer for the store (decisions: team mail). */
export const MAIL_BY_DEFAULT_ROLES: readonly RoleName[] = [
  'account_owner',
  'account_admin',
  'store_owner',
  'store_admin',
];

/** The members' own choices at one store: per user, per kind, the latest choice (none: the role's default applies). */
export type MemberPreferences = ReadonlyMap<string, Readonly<Partial<Record<TeamNotificationKind, boolean>>>>;

export interface SetNotificationPreferences {
  type: 'SetNotificationPreferences';
  storeId: string;
  userId: string;
  settings: ReadonlyArray<{ kind: TeamNotificationKind; enabled: boolean }>;
  now: string;
}

/** Whether a member's roles at a store give them this mail when they have not chosen. */
export const mailedByDefault = (roles: readonly RoleName[]): boolean =>
  roles.some((role) => MAIL_BY_DEFAULT_ROLES.includes(role));

/** Whether a member gets this mail: their own latest choice, else their roles' default; never without claim:read there. */
export function memberGetsMail(
  preferences: MemberPreferences,
  userId: string,
  roles: readonly RoleName[],
  kind: TeamNotificationKind,
): boolean {
  if (!roles.some((role) => ROLES[role].permissions.includes('claim:read'))) return false;
  return preferences.get(userId)?.[kind] ?? mailedByDefault(roles);
}

const evolve = (state: MemberPreferences, event: DomainEvent): MemberPreferences => {
  if (event.type !== 'NotificationPreferenceSet') return state;
  const { userId, kind, enabled } = event.data;
  return new Map([...state, [userId, { ...state.get(userId), [kind]: enabled }]]);
};

/**
 * A member's mail choices at a store (stream `notification-preferences:<store id>`). A choice is recorded when it
 * differs from the member's last one, so saving pins the choice (a later change of role does not flip it) and
 * saving the same again records nothing.
 */
export const memberPreferencesDecider: Decider<MemberPreferences, SetNotificationPreferences> = {
  initialState: new Map(),
  evolve,
  decide(command, state) {
    const current = state.get(command.userId);
    return ok(
      command.settings
        .filter(({ kind, enabled }) => current?.[kind] !== enabled)
        .map(({ kind, enabled }) => ({
          type: 'NotificationPreferenceSet' as const,
          data: { storeId: command.storeId, userId: command.userId, kind, enabled, setAt: command.now },
        })),
    );
  },
};
