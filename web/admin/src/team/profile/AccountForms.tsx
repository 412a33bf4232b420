import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ChangePasswordRequest, UpdateProfileRequest } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { Alert } from '@claims/ui/components';
import { meQuery } from '../../shared/session.js';
import { profileApi } from './profileApi.js';

/** The user's own name (needs `user:update`). */
export function NameForm({ name }: { name: string }) {
  const id = useId();
  const client = useQueryClient();
  const [value, setValue] = useState(name);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: profileApi.updateProfile,
    onSuccess: (me) => client.setQueryData(meQuery.queryKey, me),
  });
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = UpdateProfileRequest.safeParse({ name: value });
    setProblem(parsed.success ? null : 'Enter your name.');
    if (parsed.success) save.mutate(parsed.data);
  }
  return (
    <form className="card" onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
      <h2 id={`${id}-title`}>Your details</h2>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          maxLength={200}
          autoComplete="name"
          aria-invalid={problem !== null}
          aria-describedby={problem ? `${id}-problem` : undefined}
        />
        {problem ? (
          <p id={`${id}-problem`} className="field-error">
            {problem}
          </p>
        ) : null}
      </div>
      <div role="status">{save.isSuccess ? <p className="alert alert-success">Your name was saved.</p> : null}</div>
      {save.isError ? <Alert>{errorText(save.error)}</Alert> : null}
      <button type="submit" className="button button-primary" disabled={save.isPending}>
        Save name
      </button>
    </form>
  );
}

/** The user's own password: the current one, then the new one twice. */
export function PasswordForm() {
  const id = useId();
  const [fields, setFields] = useState({ currentPassword: '', newPassword: '', again: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const change = useMutation({
    mutationFn: profileApi.changePassword,
    onSuccess: () => setFields({ currentPassword: '', newPassword: '', again: '' }),
  });
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = ChangePasswordRequest.safeParse(fields);
    const found = !parsed.success
      ? (parsed.error.issues[0]?.message ?? 'Check the passwords.')
      : fields.again !== fields.newPassword
        ? 'The new password and its repetition differ.'
        : null;
    setProblem(found);
    if (parsed.success && !found) change.mutate(parsed.data);
  }
  const input = (key: keyof typeof fields, label: string, autoComplete: string) => (
    <div className="field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        type="password"
        value={fields[key]}
        autoComplete={autoComplete}
        maxLength={1_000}
        onChange={(e) => setFields((f) => ({ ...f, [key]: e.target.value }))}
      />
    </div>
  );
  return (
    <form className="card" onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
      <h2 id={`${id}-title`}>Change password</h2>
      {input('currentPassword', 'Current password', 'current-password')}
      {input('newPassword', 'New password', 'new-password')}
      {input('again', 'New password again', 'new-password')}
      {problem ? (
        <p role="alert" className="alert alert-danger">
          {problem}
        </p>
      ) : null}
      <div role="status">
        {change.isSuccess ? (
          <p className="alert alert-success">Your password was changed; your other sessions were signed out.</p>
        ) : null}
      </div>
      {change.isError ? <Alert>{errorText(change.error)}</Alert> : null}
      <button type="submit" className="button button-primary" disabled={change.isPending}>
        Change password
      </button>
    </form>
  );
}
