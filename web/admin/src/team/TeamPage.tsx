import { useState } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  OWNER_ROLES,
  ROLES,
  ROLE_NAMES,
  type MeResponse,
  type RoleGrant,
  type RoleName,
  type TeamMember,
} from '@claims/contracts';
import { errorText } from '@claims/ui';
import { api } from '../shared/api.js';
import { can, storesWith, useMe } from '../shared/session.js';
import { Alert, Page } from '@claims/ui/components';
import { InvitationCreatedDialog, type Invited } from './members/InvitationCreatedDialog.js';
import { InviteMemberForm } from './members/InviteMemberForm.js';
import { RoleChangeForm } from './members/RoleChangeForm.js';
import { MemberCells, MembersTable } from './members/MembersTable.js';
import { RemoveMemberDialog, useMemberRemoval } from './members/MemberRemoval.js';
import { StorePicker } from '../shared/components/StorePicker.js';
import { teamQueries } from './queries.js';
import { NoStorePage } from '../shared/components/NoStorePage.js';

const isOwnerRole = (role: RoleName) => OWNER_ROLES.includes(role);

/** The roles this user may give on this store: merchant roles; owner roles need grant-ownership, account roles an account-wide grant. */
export function grantableRoles(me: MeResponse, storeId: string): RoleName[] {
  const accountWide = me.grants.some((g) => g.level === 'account' || g.level === 'internal');
  const mayOwn = can(me, 'team-member:grant-ownership', storeId);
  return ROLE_NAMES.filter((role) => {
    const level = ROLES[role].level;
    if (level === 'internal') return false;
    if (level === 'account' && !accountWide) return false;
    return !isOwnerRole(role) || mayOwn;
  });
}

function grantText(grant: RoleGrant): string {
  return `${ROLES[grant.role].label}${grant.level === 'account' ? ' (whole account)' : ''}`;
}

/** A member's row: their roles and, per permission, change role, make owner and remove. */
function MemberRow({
  member,
  storeId,
  storeName,
  self,
  onRemove,
  onDone,
}: {
  member: TeamMember;
  storeId: string;
  storeName: string;
  self: boolean;
  onRemove: (member: TeamMember) => void;
  onDone: (message: string) => void;
}) {
  const me = useMe();
  const client = useQueryClient();
  const roles = grantableRoles(me, storeId);
  const current = member.grants[0]?.role;
  const internal = member.grants.some((g) => g.level === 'internal');
  const manageable = !self && !internal;
  const mayChange =
    manageable &&
    can(me, 'team-member:change-role', storeId) &&
    (!current || !isOwnerRole(current) || can(me, 'team-member:grant-ownership', storeId));
  const mayOwn =
    manageable && can(me, 'team-member:grant-ownership', storeId) && !member.grants.some((g) => isOwnerRole(g.role));
  const mayRemove =
    manageable &&
    can(me, 'team-member:remove', storeId) &&
    (!current || !isOwnerRole(current) || can(me, 'team-member:grant-ownership', storeId));
  const refresh = () => client.invalidateQueries({ queryKey: teamQueries.members(storeId).queryKey });
  const change = useMutation({
    mutationFn: (next: RoleName) => api.changeRole(storeId, member.userId, next),
    onSuccess: async (updated) => {
      onDone(`${updated.name} is now ${updated.grants.map(grantText).join(', ')}.`);
      await refresh();
    },
  });
  const own = useMutation({
    mutationFn: () => api.grantOwnership(storeId, member.userId, 'store'),
    onSuccess: async (updated) => {
      onDone(`${updated.name} is now an owner of ${storeName}.`);
      await refresh();
    },
  });
  const error = change.error ?? own.error;
  return (
    <tr>
      <MemberCells member={member} self={self} roles={member.grants.map(grantText).join(', ')} />
      <td>
        <div className="row-actions">
          {mayChange ? (
            <RoleChangeForm
              memberName={member.name}
              roles={roles}
              current={current}
              busy={change.isPending}
              onChange={(next) => change.mutate(next)}
            />
          ) : null}
          {mayOwn ? (
            <button
              type="button"
              className="button button-secondary"
              onClick={() => own.mutate()}
              disabled={own.isPending}
            >
              Make owner
              <span className="visually-hidden">
                {' '}
                of {storeName}: {member.name}
              </span>
            </button>
          ) : null}
          {mayRemove ? (
            <button type="button" className="button button-link" onClick={() => onRemove(member)}>
              Remove<span className="visually-hidden"> {member.name}</span>
            </button>
          ) : null}
          {!mayChange && !mayOwn && !mayRemove ? <span className="muted">—</span> : null}
        </div>
        {error ? <Alert>{errorText(error)}</Alert> : null}
      </td>
    </tr>
  );
}

function InviteForm({ storeId, onInvited }: { storeId: string; onInvited: (result: Invited) => void }) {
  const me = useMe();
  const client = useQueryClient();
  const roles = grantableRoles(me, storeId);
  return (
    <InviteMemberForm
      title="Invite a member"
      roles={roles}
      initialRole={roles.includes('store_support') ? 'store_support' : (roles[0] ?? 'store_user')}
      onInvite={async (body) => {
        const answer = await api.inviteMember(storeId, body);
        onInvited({ email: answer.member.email, pending: answer.pending, expiresAt: answer.expiresAt });
        await client.invalidateQueries({ queryKey: teamQueries.members(storeId).queryKey });
      }}
    />
  );
}

/** `/admin/team`: a store's members; invite, change role, make owner, remove — each offered per permission. */
export function TeamPage() {
  const me = useMe();
  const navigate = useNavigate();
  const search = useSearch({ from: '/app/team' });
  const stores = storesWith(me, 'team-member:read');
  const store = stores.find((s) => s.id === search.store) ?? stores[0];
  const storeId = store?.id ?? '';
  const members = useQuery({ ...teamQueries.members(storeId), enabled: Boolean(store) });
  const [notice, setNotice] = useState<string | null>(null);
  const [invited, setInvited] = useState<Invited | null>(null);
  const removal = useMemberRemoval({
    remove: (member) => api.removeMember(storeId, member.userId),
    queryKey: teamQueries.members(storeId).queryKey,
    onRemoved: (member) => setNotice(`${member.name} was removed from ${store?.name ?? 'the store'}.`),
  });
  if (!store) return <NoStorePage title="Team" what="team" />;
  return (
    <Page title={`Team of ${store.name}`}>
      <StorePicker
        stores={stores}
        value={storeId}
        onChange={(next) => void navigate({ to: '/team', search: { store: next } })}
      />
      <div role="status">{notice ? <p className="alert alert-success">{notice}</p> : null}</div>
      {can(me, 'team-member:invite', storeId) ? (
        <InviteForm
          key={storeId}
          storeId={storeId}
          onInvited={(result) => {
            setNotice(null);
            setInvited(result);
          }}
        />
      ) : null}
      {members.isPending ? (
        <p role="status" className="muted">
          Loading the team…
        </p>
      ) : null}
      {members.isError ? <Alert>The team could not be loaded: {members.error.message}</Alert> : null}
      {members.data ? (
        <MembersTable caption={`Members of ${store.name}`}>
          {members.data.data.map((member) => (
            <MemberRow
              key={`${member.userId}:${member.grants.map((g) => g.role).join(',')}`}
              member={member}
              storeId={storeId}
              storeName={store.name}
              self={member.userId === me.user.id}
              onRemove={removal.ask}
              onDone={setNotice}
            />
          ))}
        </MembersTable>
      ) : null}
      <InvitationCreatedDialog invited={invited} onClose={() => setInvited(null)} />
      <RemoveMemberDialog removal={removal} confirmLabel="Remove member">
        {(member) => (
          <p>
            {member.name} ({member.email}) loses access to {store.name}
            {member.grants.some((g) => g.level === 'account') ? ' and the other stores of its account' : ''} at once.
          </p>
        )}
      </RemoveMemberDialog>
    </Page>
  );
}
