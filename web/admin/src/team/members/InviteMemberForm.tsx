import { useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { InviteMemberRequest, ROLES, type RoleName } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { Alert } from '@claims/ui/components';
import { ProblemList } from '../../shared/components/ProblemList.js';
import { Options } from '../../shared/components/Options.js';

/** A team's invitation form (a store's team, Order Protection's support staff): email, name and one of `roles`. */
export function InviteMemberForm<R extends RoleName>({
  title,
  roles,
  initialRole,
  onInvite,
}: {
  title: string;
  roles: readonly R[];
  initialRole: R;
  onInvite: (body: { email: string; name: string; role: R }) => Promise<void>;
}) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<R>(initialRole);
  const [problems, setProblems] = useState<string[]>([]);
  const invite = useMutation({
    mutationFn: onInvite,
    onSuccess: () => {
      setEmail('');
      setName('');
    },
  });
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = InviteMemberRequest.safeParse({ email, name, role });
    if (!parsed.success) {
      setProblems(
        parsed.error.issues.map((i) =>
          i.path[0] === 'email' ? 'Enter an email address.' : i.path[0] === 'name' ? 'Enter their name.' : i.message,
        ),
      );
      return;
    }
    setProblems([]);
    invite.mutate({ email: parsed.data.email, name: parsed.data.name, role });
  }
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <form className="inline-form" onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-email`}>Email</label>
          <input
            id={`${id}-email`}
            type="email"
            autoComplete="off"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            maxLength={320}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            type="text"
            autoComplete="off"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={200}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-role`}>Role</label>
          <select
            id={`${id}-role`}
            value={role}
            onChange={(e) => {
              const next = roles.find((r) => r === e.target.value);
              if (next) setRole(next);
            }}
          >
            <Options values={roles} label={(r) => ROLES[r].label} />
          </select>
        </div>
        <button type="submit" className="button button-primary" disabled={invite.isPending}>
          Send invitation
        </button>
      </form>
      <ProblemList problems={problems} />
      {invite.isError ? <Alert>{errorText(invite.error)}</Alert> : null}
    </section>
  );
}
