import { SUPPORT_ADMIN_ROLE, type EventOf, type RoleName, type SupportRole } from '@claims/contracts';
import type { Decider } from '../decider.js';
import { fail, ok, type Result } from '../result.js';

/** The facts a change of a support member is judged on, read from the rows for each attempt. */
export interface SupportChangeInput {
  change: 'change-role' | 'remove';
  /** The support roles the member holds now. */
  targetRoles: readonly RoleName[];
  /** The member has set their password (an invitation not yet accepted makes nobody an admin). */
  targetActive: boolean;
  newRole: SupportRole | null;
  /** Active support admins other than the member. */
  otherActiveAdmins: number;
}

/** Support always keeps an admin: the last active support admin is neither removed nor demoted, by anyone (themselves included). */
export function checkSupportChange(input: SupportChangeInput): Result<null> {
  const isAdmin = input.targetActive && input.targetRoles.includes(SUPPORT_ADMIN_ROLE);
  const staysAdmin = input.change === 'change-role' && input.newRole === SUPPORT_ADMIN_ROLE;
  if (isAdmin && !staysAdmin && input.otherActiveAdmins === 0) {
    return fail('last_support_admin', 'This is the last support admin: make someone else a support admin first.');
  }
  return ok(null);
}

export type SupportTeamEvent = EventOf<
  'SupportUserInvited' | 'SupportInvitationAccepted' | 'SupportUserRoleChanged' | 'SupportUserRemoved'
>;

/** A support-team change as decided: the facts read from the rows (null when only the invitee acts) and the change to record. */
export interface RecordSupportChange {
  type: 'RecordSupportChange';
  rules: SupportChangeInput | null;
  change: SupportTeamEvent;
}

/**
 * The support team's audit stream. Its state is nothing: its version alone serialises the changes, so two
 * admins demoting each other at once cannot both pass on the same count (the second decides again).
 */
export const supportTeamDecider: Decider<null, RecordSupportChange> = {
  initialState: null,
  evolve: () => null,
  decide(command) {
    if (command.rules) {
      const verdict = checkSupportChange(command.rules);
      if (!verdict.ok) return verdict;
    }
    return ok([command.change]);
  },
};
