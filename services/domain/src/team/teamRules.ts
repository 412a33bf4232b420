import { OWNER_ROLES, ROLES, type EventOf, type Permission, type RoleName } from '@claims/contracts';
import type { Decider } from '../decider.js';
import { fail, ok, type Result } from '../result.js';

export type TeamChange = 'invite' | 'change-role' | 'remove' | 'grant-ownership';

/** The permission each team change needs on the store (ownership also needs `grant-ownership`). */
export const TEAM_CHANGE_PERMISSION: Record<TeamChange, Permission> = {
  invite: 'team-member:invite',
  'change-role': 'team-member:change-role',
  remove: 'team-member:remove',
  'grant-ownership': 'team-member:grant-ownership',
};

export interface TeamChangeInput {
  change: TeamChange;
  callerId: string;
  /** What the caller holds on the store. */
  callerPermissions: ReadonlySet<Permission>;
  /** The caller holds the change's permission through an account grant of the store's account, or an internal one. */
  callerHasAccountScope: boolean;
  /** The member changed (null for a new invitee) and the roles they hold in this account now. */
  targetUserId: string | null;
  targetRoles: readonly RoleName[];
  /** The role given, when one is. */
  newRole: RoleName | null;
  /** Owners reaching the store other than the target, read in the change's own transaction window. */
  otherOwners: number;
}

/**
 * Who may change whom, beyond the base permission (checked by the route): Order Protection roles are
 * never given or taken here; account roles (and account members) need an account-level caller;
 * anything touching an owner needs `team-member:grant-ownership`; nobody changes or removes themselves.
 */
export function checkTeamChange(input: TeamChangeInput): Result<null> {
  const { newRole, targetRoles } = input;
  if (newRole && ROLES[newRole].level === 'internal')
    return fail('forbidden', "Order Protection roles are not given from a store's team.");
  if (targetRoles.some((r) => ROLES[r].level === 'internal'))
    return fail('forbidden', "Order Protection staff are not managed from a store's team.");
  if (input.targetUserId !== null && input.targetUserId === input.callerId && input.change !== 'invite') {
    return fail('cannot_change_self', 'You cannot change or remove your own membership; ask another owner.');
  }
  const accountLevel =
    (newRole !== null && ROLES[newRole].level === 'account') || targetRoles.some((r) => ROLES[r].level === 'account');
  if (accountLevel && !input.callerHasAccountScope) {
    return fail('forbidden', 'Account roles and account members are managed by an account-level owner or admin.');
  }
  const targetIsOwner = targetRoles.some((r) => OWNER_ROLES.includes(r));
  const staysOwner = input.change !== 'remove' && newRole !== null && OWNER_ROLES.includes(newRole);
  if (targetIsOwner && !staysOwner && input.otherOwners === 0) {
    return fail('last_owner', 'This is the last owner: make someone else an owner first.');
  }
  const touchesOwner = (newRole !== null && OWNER_ROLES.includes(newRole)) || targetIsOwner;
  if (touchesOwner && !input.callerPermissions.has('team-member:grant-ownership')) {
    return fail('forbidden', 'Only an owner can give, change or take away ownership (team-member:grant-ownership).');
  }
  return ok(null);
}

export type TeamEvent = EventOf<
  | 'TeamMemberInvited'
  | 'TeamInvitationAccepted'
  | 'TeamMemberRoleChanged'
  | 'TeamMemberRemoved'
  | 'TeamOwnershipGranted'
>;

/**
 * A team change as decided: users and grants are rows, so the command carries the facts read from
 * them (`rules`, null when only the invitee acts) and the change to record.
 */
export interface RecordTeamChange {
  type: 'RecordTeamChange';
  rules: TeamChangeInput | null;
  change: TeamEvent;
}

/**
 * The account's team audit stream (stream id = the account id). Its state is nothing: its version
 * alone serialises the account's team changes, so two owners removing each other cannot both pass.
 */
export const teamDecider: Decider<null, RecordTeamChange> = {
  initialState: null,
  evolve: () => null,
  decide(command) {
    if (command.rules) {
      const verdict = checkTeamChange(command.rules);
      if (!verdict.ok) return verdict;
    }
    return ok([command.change]);
  },
};
