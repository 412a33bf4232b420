import { useId, useState, type FormEvent } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { formatLongDate } from '@claims/ui';
import {
  InviteMemberRequest, OWNER_ROLES, ROLES, ROLE_NAMES, RoleName, type MeResponse, type RoleGrant, type TeamMember,
} from '@claims/contracts';
import { errorText } from '@claims/ui';
import { api } from '../api.js';
import { can, storesWith, useMe } from '../session.js';
import { Alert, Page } from '@claims/ui/components';
import { Dialog } from '../components/Dialog.js';
import { Badge } from '../components/ui.js';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { StorePicker } from '../components/StorePicker.js';

export const StoreSearch = z.object({ store: z.uuid().optional().catch(undefined) });


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
function MemberRow({ member, storeId, storeName, self, onRemove, onDone }: {
  member: TeamMember; storeId: string; storeName: string; self: boolean; onRemove: (member: TeamMember) => void; onDone: (message: string) => void;
}) {
  const me = useMe();
  const id = useId();
  const client = useQueryClient();
  const roles = grantableRoles(me, storeId);
  const current = member.grants[0]?.role;
  const [role, setRole] = useState<RoleName | ''>(current && roles.includes(current) ? current : '');
  const internal = member.grants.some((g) => g.level === 'internal');
  const manageable = !self && !internal;
  const mayChange = manageable && can(me, 'team-member:change-role', storeId) && (!current || !isOwnerRole(current) || can(me, 'team-member:grant-ownership', storeId));
  const mayOwn = manageable && can(me, 'team-member:grant-ownership', storeId) && !member.grants.some((g) => isOwnerRole(g.role));
  const mayRemove = manageable && can(me, 'team-member:remove', storeId) && (!current || !isOwnerRole(current) || can(me, 'team-member:grant-ownership', storeId));
  const refresh = () => client.invalidateQueries({ queryKey: ['team', storeId] });
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
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (role) change.mutate(role);
  }
  const error = change.error ?? own.error;
  return (
    <tr>
      <th scope="row">{member.name}{self ? <span className="muted"> (you)</span> : null}</th>
      <td>{member.email}</td>
      <td><Badge tone={member.status === 'active' ? 'success' : 'info'}>{member.status}</Badge></td>
      <td>{member.grants.map(grantText).join(', ')}</td>
      <td>
        <div className="row-actions">
          {mayChange ? (
            <form className="inline-form" onSubmit={onSubmit}>
              <div className="field">
                <label htmlFor={`${id}-role`} className="visually-hidden">Role for {member.name}</label>
                <select id={`${id}-role`} value={role} onChange={(e) => { const parsed = RoleName.safeParse(e.target.value); setRole(parsed.success ? parsed.data : ''); }}>
                  <option value="">Choose a role</option>
                  {roles.map((r) => <option key={r} value={r}>{ROLES[r].label}</option>)}
                </select>
              </div>
              <button type="submit" className="button button-secondary" disabled={!role || role === current || change.isPending}>
                Change role<span className="visually-hidden"> of {member.name}</span>
              </button>
            </form>
          ) : null}
          {mayOwn ? (
            <button type="button" className="button button-secondary" onClick={() => own.mutate()} disabled={own.isPending}>
              Make owner<span className="visually-hidden"> of {storeName}: {member.name}</span>
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

/** What the inviter learns of an invitation: never its token, which only the invitee receives. */
interface Invited { email: string; pending: boolean; expiresAt: string }

function InviteForm({ storeId, onInvited }: { storeId: string; onInvited: (result: Invited) => void }) {
  const me = useMe();
  const id = useId();
  const client = useQueryClient();
  const roles = grantableRoles(me, storeId);
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<RoleName>(roles.includes('store_support') ? 'store_support' : roles[0] ?? 'store_user');
  const [problems, setProblems] = useState<string[]>([]);
  const invite = useMutation({
    mutationFn: (body: InviteMemberRequest) => api.inviteMember(storeId, body),
    onSuccess: async (answer) => {
      setEmail('');
      setName('');
      onInvited({ email: answer.member.email, pending: answer.pending, expiresAt: answer.expiresAt });
      await client.invalidateQueries({ queryKey: ['team', storeId] });
    },
  });
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = InviteMemberRequest.safeParse({ email, name, role });
    if (!parsed.success) {
      setProblems(parsed.error.issues.map((i) => (i.path[0] === 'email' ? 'Enter an email address.' : i.path[0] === 'name' ? 'Enter their name.' : i.message)));
      return;
    }
    setProblems([]);
    invite.mutate(parsed.data);
  }
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Invite a member</h2>
      <form className="inline-form" onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-email`}>Email</label>
          <input id={`${id}-email`} type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} maxLength={320} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input id={`${id}-name`} type="text" autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-role`}>Role</label>
          <select id={`${id}-role`} value={role} onChange={(e) => setRole(RoleName.parse(e.target.value))}>
            {roles.map((r) => <option key={r} value={r}>{ROLES[r].label}</option>)}
          </select>
        </div>
        <button type="submit" className="button button-primary" disabled={invite.isPending}>Send invitation</button>
      </form>
      {problems.length > 0 ? <div role="alert" className="alert alert-danger"><ul className="plain">{problems.map((p) => <li key={p}>{p}</li>)}</ul></div> : null}
      {invite.isError ? <Alert>{errorText(invite.error)}</Alert> : null}
    </section>
  );
}

/** `/admin/team`: a store's members; invite, change role, make owner, remove — each offered per permission. */
export function TeamPage() {
  const me = useMe();
  const navigate = useNavigate();
  const search = useSearch({ from: '/app/team' });
  const client = useQueryClient();
  const stores = storesWith(me, 'team-member:read');
  const store = stores.find((s) => s.id === search.store) ?? stores[0];
  const storeId = store?.id ?? '';
  const members = useQuery({ queryKey: ['team', storeId], queryFn: () => api.teamMembers(storeId), enabled: Boolean(store) });
  const [notice, setNotice] = useState<string | null>(null);
  const [invited, setInvited] = useState<Invited | null>(null);
  const [removing, setRemoving] = useState<TeamMember | null>(null);
  const remove = useMutation({
    mutationFn: (member: TeamMember) => api.removeMember(storeId, member.userId),
    onSuccess: async (_, member) => {
      setRemoving(null);
      setNotice(`${member.name} was removed from ${store?.name ?? 'the store'}.`);
      await client.invalidateQueries({ queryKey: ['team', storeId] });
    },
  });
  if (!store) {
    return <Page title="Team"><Alert tone="info">You have no store whose team you may see.</Alert></Page>;
  }
  return (
    <Page title={`Team of ${store.name}`}>
      <StorePicker stores={stores} value={storeId} onChange={(next) => void navigate({ to: '/team', search: { store: next } })} />
      <div role="status">{notice ? <p className="alert alert-success">{notice}</p> : null}</div>
      {can(me, 'team-member:invite', storeId) ? <InviteForm key={storeId} storeId={storeId} onInvited={(result) => { setNotice(null); setInvited(result); }} /> : null}
      {members.isPending ? <p role="status" className="muted">Loading the team…</p> : null}
      {members.isError ? <Alert>The team could not be loaded: {members.error.message}</Alert> : null}
      {members.data ? (
        <div className="table-wrap">
          <table className="claims-table">
            <caption className="visually-hidden">Members of {store.name}</caption>
            <thead>
              <tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Status</th><th scope="col">Roles</th><th scope="col">Actions</th></tr>
            </thead>
            <tbody>
              {members.data.data.map((member) => (
                <MemberRow key={`${member.userId}:${member.grants.map((g) => g.role).join(',')}`} member={member} storeId={storeId} storeName={store.name}
                  self={member.userId === me.user.id} onRemove={(m) => { remove.reset(); setRemoving(m); }} onDone={setNotice} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Dialog open={invited !== null} title="Invitation created" onClose={() => setInvited(null)}>
        {invited ? (invited.pending
          ? <p><strong>{invited.email}</strong> already has an account: the role takes effect once they accept it, signed in, before {formatLongDate(invited.expiresAt)}.</p>
          : <p><strong>{invited.email}</strong> gets a one-time invitation to set their password, good until {formatLongDate(invited.expiresAt)}. Only they receive it.</p>) : null}
        <div className="actions"><button type="button" className="button button-primary" onClick={() => setInvited(null)}>Done</button></div>
      </Dialog>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.name ?? 'member'}?`}
        confirmLabel="Remove member"
        busy={remove.isPending}
        onConfirm={() => { if (removing) remove.mutate(removing); }}
        onClose={() => setRemoving(null)}
      >
        <p>{removing?.name} ({removing?.email}) loses access to {store.name}{removing?.grants.some((g) => g.level === 'account') ? ' and the other stores of its account' : ''} at once.</p>
        {remove.isError ? <Alert>{errorText(remove.error)}</Alert> : null}
      </ConfirmDialog>
    </Page>
  );
}
