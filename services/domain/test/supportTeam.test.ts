import { describe, it } from 'vitest';
import type { SupportRole } from '@claims/contracts';
import { supportTeamDecider, type RecordSupportChange, type SupportChangeInput } from '../src/index.js';
import { given, refused } from './support/givenWhenThen.js';

const userId = 'd1111111-1111-4111-8111-111111111111';
const scope = { userId, email: 'sam@orderprotection.test' };

/** A change of an active support admin, no other admin active unless said otherwise. */
function change(rules: Partial<SupportChangeInput>): RecordSupportChange {
  const input: SupportChangeInput = {
    change: 'change-role',
    targetRoles: ['orderprotection_support_admin'],
    targetActive: true,
    newRole: 'orderprotection_support',
    otherActiveAdmins: 0,
    ...rules,
  };
  const to: SupportRole = input.newRole ?? 'orderprotection_support';
  return {
    type: 'RecordSupportChange',
    rules: input,
    change:
      input.change === 'remove'
        ? { type: 'SupportUserRemoved', data: { ...scope, roles: [...input.targetRoles] } }
        : { type: 'SupportUserRoleChanged', data: { ...scope, from: [...input.targetRoles], to } },
  };
}

describe('the support team keeps an admin', () => {
  const team = given(supportTeamDecider, []);

  it('refuses to demote or remove the last active support admin', () => {
    team.when(change({})).then(refused('last_support_admin'));
    team.when(change({ change: 'remove', newRole: null })).then(refused('last_support_admin'));
  });

  it('lets an admin step down or leave when another is active, and keeps an admin an admin at any count', () => {
    team.when(change({ otherActiveAdmins: 1 })).thenMatches([{ type: 'SupportUserRoleChanged' }]);
    team
      .when(change({ change: 'remove', newRole: null, otherActiveAdmins: 1 }))
      .thenMatches([{ type: 'SupportUserRemoved' }]);
    team.when(change({ newRole: 'orderprotection_support_admin' })).thenMatches([{ type: 'SupportUserRoleChanged' }]);
  });

  it('counts neither an admin still invited nor a support member: both may go', () => {
    team
      .when(change({ targetActive: false, change: 'remove', newRole: null }))
      .thenMatches([{ type: 'SupportUserRemoved' }]);
    team
      .when(change({ targetRoles: ['orderprotection_support'], change: 'remove', newRole: null }))
      .thenMatches([{ type: 'SupportUserRemoved' }]);
  });
});
