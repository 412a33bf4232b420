import { useId, useState, type FormEvent } from 'react';
import { ROLES, type RoleName } from '@claims/contracts';
import { Options } from '../../shared/components/Options.js';

/** A member row's role picker and its Change role button; the current role, when offered, is preselected. */
export function RoleChangeForm<R extends RoleName>({
  memberName,
  roles,
  current,
  busy,
  onChange,
}: {
  memberName: string;
  roles: readonly R[];
  current: RoleName | undefined;
  busy: boolean;
  onChange: (role: R) => void;
}) {
  const id = useId();
  const [role, setRole] = useState<R | ''>(roles.find((r) => r === current) ?? '');
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (role) onChange(role);
  }
  return (
    <form className="inline-form" onSubmit={onSubmit}>
      <div className="field">
        <label htmlFor={`${id}-role`} className="visually-hidden">
          Role for {memberName}
        </label>
        <select id={`${id}-role`} value={role} onChange={(e) => setRole(roles.find((r) => r === e.target.value) ?? '')}>
          <option value="">Choose a role</option>
          <Options values={roles} label={(r) => ROLES[r].label} />
        </select>
      </div>
      <button type="submit" className="button button-secondary" disabled={!role || role === current || busy}>
        Change role<span className="visually-hidden"> of {memberName}</span>
      </button>
    </form>
  );
}
