import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorText } from '@claims/ui';
import { Alert, Page } from '@claims/ui/components';
import { api, isHttpError } from '../shared/api.js';
import { meQuery } from '../shared/session.js';
import { TextField } from '../shared/components/TextField.js';

/** The server's own minimum (contracts AcceptInvitationRequest). */
const MIN_PASSWORD = 12;

/** The one-time token of the invitation link: in the fragment, which browsers never send to a server. */
const tokenOfLink = () => decodeURIComponent(window.location.hash.replace(/^#/, '')).trim();

/**
 * The invitee's first visit: choose a name and a password with the invitation's token, then they are
 * signed in and land on the claim desk. A used or expired link says so and never reveals the account.
 */
export function AcceptInvitationPage() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const nameId = useId();
  const passwordId = useId();
  const [token] = useState(tokenOfLink);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problems, setProblems] = useState<{ password?: string; confirm?: string }>({});

  const accept = useMutation({
    mutationFn: async () => {
      const accepted = await api.acceptInvitation({ token, password, ...(name.trim() ? { name: name.trim() } : {}) });
      return api.login({ email: accepted.email, password });
    },
    onSuccess: async (me) => {
      client.clear();
      client.setQueryData(meQuery.queryKey, me);
      window.history.replaceState(null, '', window.location.pathname);
      await navigate({ to: '/', replace: true });
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: { password?: string; confirm?: string } = {};
    if (password.length < MIN_PASSWORD) found.password = `Use at least ${MIN_PASSWORD} characters.`;
    else if (confirm !== password) found.confirm = 'The two passwords are not the same.';
    setProblems(found);
    if (!found.password && !found.confirm) accept.mutate();
  }

  if (token.length < 20) {
    return (
      <main id="main" className="narrow" tabIndex={-1}>
        <Page title="Accept your invitation">
          <Alert>
            This link is not complete. Open the invitation link from your email again, or ask for a new invitation.
          </Alert>
        </Page>
      </main>
    );
  }

  const error = accept.error;
  const message = !error
    ? null
    : isHttpError(error, 404)
      ? 'This invitation is unknown, used or expired. Ask the person who invited you for a new one.'
      : errorText(error, 'Accepting the invitation failed. Check your connection and try again.');

  return (
    <main id="main" className="narrow" tabIndex={-1}>
      <Page title="Accept your invitation">
        <p>Choose the password you will sign in with. You will be signed in at once.</p>
        <form className="stack card" onSubmit={onSubmit} noValidate>
          <div className="field">
            <label htmlFor={nameId}>Your name (optional)</label>
            <input
              id={nameId}
              autoComplete="name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={200}
            />
          </div>
          <div className="field">
            <label htmlFor={passwordId}>Password</label>
            <input
              id={passwordId}
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-invalid={problems.password ? true : undefined}
              aria-describedby={`${passwordId}-hint`}
            />
            <p id={`${passwordId}-hint`} className={problems.password ? 'field-error' : 'hint'}>
              {problems.password ?? `At least ${MIN_PASSWORD} characters.`}
            </p>
          </div>
          <TextField
            label="Password again"
            problem={problems.confirm}
            type="password"
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
          />
          {message ? <Alert>{message}</Alert> : null}
          <button type="submit" className="button button-primary" disabled={accept.isPending}>
            {accept.isPending ? 'Accepting…' : 'Accept and sign in'}
          </button>
        </form>
      </Page>
    </main>
  );
}
