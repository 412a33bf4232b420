import { useState, type FormEvent } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorText } from '@claims/ui';
import { formatDateTime } from '@claims/format';
import { api, isHttpError } from '../shared/api.js';
import { meQuery } from '../shared/session.js';
import { Alert, Page } from '@claims/ui/components';
import { TextField } from '../shared/components/TextField.js';

function lockoutMessage(seconds: number | null): string {
  const until =
    seconds !== null && seconds > 0 ? ` after ${formatDateTime(Date.now() + seconds * 1000)}` : ' in 15 minutes';
  return `Too many failed sign-ins for this email. For your security it is locked for now: try again${until}, or ask your account owner to help.`;
}

/** Sign in with email and password; errors and the lockout are announced. */
export function SignInPage() {
  const search = useSearch({ from: '/sign-in' });
  const navigate = useNavigate();
  const client = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({});
  const login = useMutation({
    mutationFn: () => api.login({ email: email.trim(), password }),
    onSuccess: async (me) => {
      client.clear();
      client.setQueryData(meQuery.queryKey, me);
      await navigate({ href: search.redirect ?? '/', replace: true });
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const errors: { email?: string; password?: string } = {};
    if (!/^\S+@\S+$/.test(email.trim())) errors.email = 'Enter your email address.';
    if (!password) errors.password = 'Enter your password.';
    setFieldErrors(errors);
    if (errors.email || errors.password) return;
    login.mutate();
  }

  const error = login.error;
  let message: string | null = null;
  if (error) {
    if (isHttpError(error, 429)) message = lockoutMessage(error.retryAfterSeconds);
    else if (isHttpError(error, 401)) message = 'The email or password is not right.';
    else message = errorText(error, 'Signing in failed. Check your connection and try again.');
  }

  return (
    <main id="main" className="narrow" tabIndex={-1}>
      <Page title="Sign in to the claim desk">
        {search.signedOut ? <Alert tone="success">You have signed out.</Alert> : null}
        <form className="stack card" onSubmit={onSubmit} noValidate>
          <TextField
            label="Email"
            problem={fieldErrors.email}
            type="email"
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <TextField
            label="Password"
            problem={fieldErrors.password}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          {message ? <Alert>{message}</Alert> : null}
          {fieldErrors.email || fieldErrors.password ? <Alert>Fill in your email and password.</Alert> : null}
          <button type="submit" className="button button-primary" disabled={login.isPending}>
            {login.isPending ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
      </Page>
    </main>
  );
}
