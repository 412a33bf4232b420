import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ROLES, SUPPORT_ADMIN_ROLE, SUPPORT_ROLES, type SupportRole, type TeamMember } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { Alert, Page } from '@claims/ui/components';
import { api } from '../shared/api.js';
import { holdsInternally, useMe } from '../shared/session.js';
import { InvitationCreatedDialog, type Invited } from './members/InvitationCreatedDialog.js';
import { InviteMemberForm } from './members/InviteMemberForm.js';
import { MemberCells, MembersTable } from './members/MembersTable.js';
import { RoleChangeForm } from './members/RoleChangeForm.js';
import { RemoveMemberDialog, useMemberRemoval } from './members/MemberRemoval.js';
import { teamQueries } from './queries.js';

const rolesText = (member: TeamMember) => member.grants.map((g) => ROLES[g.role].label).join(', ');
const isActiveAdmin = (member: TeamMember) =>
  member.status === 'active' && member.grants.some((g) => g.role === SUPPORT_ADMIN_ROLE);

/** A support member's row: change between the two support roles and remove, except for the last support admin (the server refuses both). */
function SupportUserRow({
  member,
  self,
  lastAdmin,
  onRemove,
  onDone,
}: {
  member: TeamMember;
  self: boolean;
  lastAdmin: boolean;
  onRemove: (member: TeamMember) => void;
  onDone: (message: string) => void;
}) {
  const me = useMe();
  const client = useQueryClient();
  const change = useMutation({
    mutationFn: (role: SupportRole) => api.changeSupportRole(member.userId, role),
    onSuccess: async (updated) => {
      onDone(`${updated.name} is now ${rolesText(updated)}.`);
      await client.invalidateQueries({ queryKey: teamQueries.supportUsers().queryKey });
    },
  });
  const mayChange = !lastAdmin && holdsInternally(me, 'support-user:update');
  const mayRemove = !lastAdmin && holdsInternally(me, 'support-user:delete');
  return (
    <tr>
      <MemberCells member={member} self={self} roles={rolesText(member)} />
      <td>
        <div className="row-actions">
          {mayChange ? (
            <RoleChangeForm
              memberName={member.name}
              roles={SUPPORT_ROLES}
              current={member.grants[0]?.role}
              busy={change.isPending}
              onChange={(role) => change.mutate(role)}
            />
          ) : null}
          {mayRemove ? (
            <button type="button" className="button button-link" onClick={() => onRemove(member)}>
              Remove<span className="visually-hidden"> {member.name}</span>
            </button>
          ) : null}
          {lastAdmin ? <span className="muted">The last support admin stays one</span> : null}
          {!mayChange && !mayRemove && !lastAdmin ? <span className="muted">—</span> : null}
        </div>
        {change.isError ? <Alert>{errorText(change.error)}</Alert> : null}
      </td>
    </tr>
  );
}

function SupportUsers() {
  const me = useMe();
  const client = useQueryClient();
  const members = useQuery(teamQueries.supportUsers());
  const [notice, setNotice] = useState<string | null>(null);
  const [invited, setInvited] = useState<Invited | null>(null);
  const removal = useMemberRemoval({
    remove: (member) => api.removeSupportUser(member.userId),
    queryKey: teamQueries.supportUsers().queryKey,
    onRemoved: (member) => setNotice(`${member.name} is no longer a support member.`),
  });
  const activeAdmins = members.data?.data.filter(isActiveAdmin).length ?? 0;
  return (
    <Page title="Support users">
      <p>Order Protection&rsquo;s support staff work claims on every store; support admins also manage this list.</p>
      <div role="status">{notice ? <p className="alert alert-success">{notice}</p> : null}</div>
      {holdsInternally(me, 'support-user:create') ? (
        <InviteMemberForm
          title="Invite a support member"
          roles={SUPPORT_ROLES}
          initialRole="orderprotection_support"
          onInvite={async (body) => {
            const answer = await api.inviteSupportUser(body);
            setNotice(null);
            setInvited({ email: answer.member.email, pending: answer.pending, expiresAt: answer.expiresAt });
            await client.invalidateQueries({ queryKey: teamQueries.supportUsers().queryKey });
          }}
        />
      ) : null}
      {members.isPending ? (
        <p role="status" className="muted">
          Loading the support staff…
        </p>
      ) : null}
      {members.isError ? <Alert>The support staff could not be loaded: {members.error.message}</Alert> : null}
      {members.data ? (
        <MembersTable caption="Support users">
          {members.data.data.map((member) => (
            <SupportUserRow
              key={`${member.userId}:${member.grants.map((g) => g.role).join(',')}`}
              member={member}
              self={member.userId === me.user.id}
              lastAdmin={isActiveAdmin(member) && activeAdmins === 1}
              onRemove={removal.ask}
              onDone={setNotice}
            />
          ))}
        </MembersTable>
      ) : null}
      <InvitationCreatedDialog invited={invited} onClose={() => setInvited(null)} />
      <RemoveMemberDialog removal={removal} confirmLabel="Remove support member">
        {(member) => (
          <p>
            {member.name} ({member.email}) loses their support role at once
            {member.userId === me.user.id ? ', and with it this page' : ''}.
          </p>
        )}
      </RemoveMemberDialog>
    </Page>
  );
}

/** `/admin/support-users`: Order Protection's support staff; invite, change between the support roles, remove (`support-user:*`). */
export function SupportUsersPage() {
  const me = useMe();
  if (!holdsInternally(me, 'support-user:read')) {
    return (
      <Page title="Support users">
        <Alert tone="info">Support users are managed by Order Protection&rsquo;s support admins.</Alert>
      </Page>
    );
  }
  return <SupportUsers />;
}
