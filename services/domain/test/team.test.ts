import { describe, it } from 'vitest';
import fc from 'fast-check';
import { OWNER_ROLES, ROLE_NAMES, ROLES, type Permission, type RoleName } from '@claims/contracts';
import { teamDecider, type RecordTeamChange, type TeamChangeInput, type TeamEvent } from '../src/index.js';
import { given, refused } from './support/givenWhenThen.js';

const accountId = 'a1111111-1111-4111-8111-111111111111';
const storeId = 'b1111111-1111-4111-8111-111111111111';
const me = 'c1111111-1111-4111-8111-111111111111';
const them = 'd1111111-1111-4111-8111-111111111111';
const scope = { accountId, storeId, userId: them, email: 'sam@example.com' };
const owner = new Set<Permission>([
  'team-member:change-role',
  'team-member:grant-ownership',
  'team-member:invite',
  'team-member:remove',
]);
const admin = new Set<Permission>(['team-member:change-role', 'team-member:invite', 'team-member:remove']);

/** The event recording a change of `them`, who holds `from`, to `to` (null for a removal). */
function changeOf(from: RoleName[], to: RoleName | null): TeamEvent {
  if (to === null) return { type: 'TeamMemberRemoved', data: { ...scope, roles: from } };
  if (OWNER_ROLES.includes(to)) return { type: 'TeamOwnershipGranted', data: { ...scope, from, role: to } };
  return { type: 'TeamMemberRoleChanged', data: { ...scope, from, to } };
}

/** `me` changes `them` (a store user unless said otherwise), another owner remaining, as an owner of the store. */
function change(rules: Partial<TeamChangeInput>): RecordTeamChange {
  const input: TeamChangeInput = {
    change: 'change-role',
    callerId: me,
    callerPermissions: owner,
    callerHasAccountScope: false,
    targetUserId: them,
    targetRoles: ['store_user'],
    newRole: null,
    otherOwners: 1,
    ...rules,
  };
  return {
    type: 'RecordTeamChange',
    rules: input,
    change: changeOf([...input.targetRoles], input.change === 'remove' ? null : input.newRole),
  };
}

const team = given(teamDecider);
const recorded = (command: RecordTeamChange) => team.when(command).then([command.change]);

describe('team changes', () => {
  it('records a change nobody judges (an invitee accepting)', () => {
    recorded({ type: 'RecordTeamChange', rules: null, change: { type: 'TeamInvitationAccepted', data: scope } });
  });

  it('lets only owners give or take ownership', () => {
    team
      .when(change({ callerPermissions: admin, newRole: 'store_owner' }))
      .then(refused('forbidden', 'grant-ownership'));
    recorded(change({ newRole: 'store_owner' }));
    team
      .when(change({ callerPermissions: admin, targetRoles: ['store_owner'], newRole: 'store_user' }))
      .then(refused('forbidden', 'grant-ownership'));
  });

  it('keeps account roles for account-level callers, internal roles out of reach, and nobody changes themselves', () => {
    team.when(change({ newRole: 'account_admin' })).then(refused('forbidden', 'account-level'));
    recorded(change({ callerHasAccountScope: true, newRole: 'account_admin' }));
    team
      .when(change({ callerHasAccountScope: true, newRole: 'orderprotection_admin' }))
      .then(refused('forbidden', 'Order Protection'));
    team
      .when(change({ targetRoles: ['orderprotection_support'], change: 'remove' }))
      .then(refused('forbidden', 'Order Protection'));
    team.when(change({ targetUserId: me, newRole: 'store_admin' })).then(refused('cannot_change_self'));
  });

  it('never leaves a store without an owner: the last owner is neither removed nor demoted, but may be made an owner again (property)', () => {
    const storeRoles = ROLE_NAMES.filter((r) => ROLES[r].level !== 'internal');
    const roles = fc.subarray(storeRoles, { minLength: 1 });
    const decision = fc.oneof(
      fc.constant({ change: 'remove' as const, newRole: null }),
      fc.constantFrom(...storeRoles).map((newRole) => ({
        change: OWNER_ROLES.includes(newRole) ? ('grant-ownership' as const) : ('change-role' as const),
        newRole,
      })),
    );
    fc.assert(
      fc.property(roles, decision, fc.nat(3), (targetRoles, { change: kind, newRole }, otherOwners) => {
        const command = change({ change: kind, newRole, targetRoles, otherOwners, callerHasAccountScope: true });
        const lastOwner = targetRoles.some((r) => OWNER_ROLES.includes(r)) && otherOwners === 0;
        const staysOwner = newRole !== null && OWNER_ROLES.includes(newRole);
        if (lastOwner && !staysOwner) team.when(command).then(refused('last_owner'));
        else recorded(command);
      }),
    );
  });
});
