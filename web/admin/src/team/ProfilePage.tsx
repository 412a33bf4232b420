import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TEAM_NOTIFICATION_LABELS, type StoreNotificationSettings, type TeamNotificationKind } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { Alert, Page } from '@claims/ui/components';
import { api } from '../shared/api.js';
import { useMe } from '../shared/session.js';
import { NameForm, PasswordForm } from './profile/AccountForms.js';
import { teamQueries } from './queries.js';

const HELP: Record<TeamNotificationKind, string> = {
  new_claim: 'An email for each claim filed at this store.',
  customer_reply: 'An email each time a customer writes on one of its claims.',
};

/** One store's mail choices: a checkbox per kind, saved together. */
function StoreSettingsForm({ entry }: { entry: StoreNotificationSettings }) {
  const id = useId();
  const client = useQueryClient();
  const [choices, setChoices] = useState(() => new Map(entry.settings.map((s) => [s.kind, s.enabled])));
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: () =>
      api.setNotificationSettings(entry.store.id, {
        settings: [...choices].map(([kind, enabled]) => ({ kind, enabled })),
      }),
    onSuccess: async (updated) => {
      client.setQueryData(
        teamQueries.notificationSettings().queryKey,
        (old) => old && { data: old.data.map((e) => (e.store.id === updated.store.id ? updated : e)) },
      );
      setSaved(true);
    },
  });
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    save.mutate();
  }
  return (
    <form className="card" onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{entry.store.name}</h2>
      <fieldset>
        <legend>Email me about</legend>
        {entry.settings.map((setting) => (
          <div key={setting.kind} className="field field-check">
            <input
              id={`${id}-${setting.kind}`}
              type="checkbox"
              checked={choices.get(setting.kind) ?? false}
              aria-describedby={`${id}-${setting.kind}-help`}
              onChange={(e) => {
                setSaved(false);
                setChoices((current) => new Map(current).set(setting.kind, e.target.checked));
              }}
            />
            <label htmlFor={`${id}-${setting.kind}`}>{TEAM_NOTIFICATION_LABELS[setting.kind]}</label>
            <p id={`${id}-${setting.kind}-help`} className="muted">
              {HELP[setting.kind]}
              {setting.chosen ? '' : " (Your role's default: owners and admins get it.)"}
            </p>
          </div>
        ))}
      </fieldset>
      <div role="status">
        {saved ? <p className="alert alert-success">Saved your email settings for {entry.store.name}.</p> : null}
      </div>
      {save.isError ? <Alert>{errorText(save.error)}</Alert> : null}
      <button type="submit" className="button button-primary" disabled={save.isPending}>
        Save<span className="visually-hidden"> email settings for {entry.store.name}</span>
      </button>
    </form>
  );
}

/** `/admin/profile`: who is signed in, and which claim mail they get from each store they belong to. */
export function ProfilePage() {
  const me = useMe();
  const settings = useQuery(teamQueries.notificationSettings());
  return (
    <Page title="Your profile" subtitle={`${me.user.name} · ${me.user.email}`}>
      {me.permissions.includes('user:update') ? <NameForm name={me.user.name} /> : null}
      <PasswordForm />
      <h2>Email notifications</h2>
      {settings.isPending ? (
        <p role="status" className="muted">
          Loading your settings…
        </p>
      ) : null}
      {settings.isError ? <Alert>Your email settings could not be loaded: {errorText(settings.error)}</Alert> : null}
      {settings.data && settings.data.data.length === 0 ? (
        <Alert tone="info">You belong to no store's team, so no store mails you about its claims.</Alert>
      ) : null}
      {settings.data?.data.map((entry) => (
        <StoreSettingsForm key={entry.store.id} entry={entry} />
      ))}
    </Page>
  );
}
