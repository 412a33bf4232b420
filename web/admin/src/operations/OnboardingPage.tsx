import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CreateAccountRequest,
  CreateStoreRequest,
  ONBOARDING_STAGE_LABELS,
  ONBOARDING_STEP_LABELS,
  ONBOARDING_STEP_PERMISSION,
  type AccountView,
  type OnboardingStep,
  type StoreOnboardingView,
} from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDateTime } from '@claims/format';
import { Alert, Page } from '@claims/ui/components';
import { onboardingApi } from './onboarding/onboardingApi.js';
import { StepLink } from './onboarding/StepLink.js';
import './onboarding/onboarding.css';
import { holdsInternally, meQuery, useMe } from '../shared/session.js';
import { Badge, type BadgeTone } from '../shared/components/ui.js';
import { onboardingQueries } from './queries.js';
import { ProblemList } from '../shared/components/ProblemList.js';
import { TextField } from '../shared/components/TextField.js';

const STAGE_TONES: Record<StoreOnboardingView['stage'], BadgeTone> = {
  created: 'neutral',
  branded: 'info',
  in_review: 'warning',
  approved: 'success',
  rejected: 'danger',
  deployed: 'success',
};

/** The path every store takes, in order: the checklist's rows (a rejection sends it back to branding). */
const CHECKLIST: readonly Exclude<OnboardingStep, 'reject'>[] = [
  'create',
  'brand-create',
  'review',
  'approve',
  'deploy',
];

/** The steps a rejection undoes. */
const REVIEWED: readonly OnboardingStep[] = ['review', 'approve', 'deploy'];

/** The button of each step, by the action it takes. */
const STEP_BUTTONS: Record<Exclude<OnboardingStep, 'create' | 'reject'>, string> = {
  'brand-create': 'Mark branding created',
  review: 'Send for review',
  approve: 'Approve',
  deploy: 'Deploy',
};

const issuesText = (issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>) =>
  issues.map((i) => `${String(i.path[0] ?? '')}: ${i.message}`);

/**
 * An onboarding card that creates something: its form (or, while it cannot be used, why), then why it was not sent or
 * why creating failed.
 */
function CreateForm({
  title,
  submit,
  create,
  problems,
  onSubmit,
  unavailable,
  children,
}: {
  title: string;
  submit: string;
  create: { isPending: boolean; error: Error | null };
  problems: string[];
  onSubmit: (event: FormEvent) => void;
  unavailable?: string | undefined;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {unavailable ? (
        <p className="hint">{unavailable}</p>
      ) : (
        <form className="onboarding-form" onSubmit={onSubmit} noValidate>
          {children}
          <div className="onboarding-form-actions">
            <button type="submit" className="button button-primary" disabled={create.isPending}>
              {submit}
            </button>
          </div>
        </form>
      )}
      <ProblemList problems={problems} />
      {create.error ? <Alert>{errorText(create.error)}</Alert> : null}
    </section>
  );
}

function NewAccountForm({ onDone }: { onDone: (message: string) => void }) {
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [problems, setProblems] = useState<string[]>([]);
  const create = useMutation({
    mutationFn: onboardingApi.createAccount,
    onSuccess: async (account) => {
      setName('');
      setSlug('');
      onDone(`The account ${account.name} was created.`);
      await client.invalidateQueries({ queryKey: onboardingQueries.accounts().queryKey });
    },
  });
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = CreateAccountRequest.safeParse({ name, slug });
    if (!parsed.success) return setProblems(issuesText(parsed.error.issues));
    setProblems([]);
    create.mutate(parsed.data);
  }
  return (
    <CreateForm title="New account" submit="Create account" create={create} problems={problems} onSubmit={onSubmit}>
      <TextField
        label="Account name"
        type="text"
        value={name}
        onChange={(e) => setName(e.target.value)}
        maxLength={120}
        autoComplete="off"
      />
      <TextField
        label="Account slug"
        hint="Lowercase letters, digits and hyphens."
        type="text"
        value={slug}
        onChange={(e) => setSlug(e.target.value)}
        maxLength={60}
        autoComplete="off"
      />
    </CreateForm>
  );
}

function NewStoreForm({ accounts, onDone }: { accounts: AccountView[]; onDone: (message: string) => void }) {
  const id = useId();
  const client = useQueryClient();
  const [fields, setFields] = useState({ accountId: '', name: '', slug: '', currency: 'USD', domain: '' });
  const [problems, setProblems] = useState<string[]>([]);
  const set = (key: keyof typeof fields) => (value: string) => setFields((f) => ({ ...f, [key]: value }));
  const create = useMutation({
    mutationFn: onboardingApi.createStore,
    onSuccess: async (store) => {
      setFields((f) => ({ ...f, name: '', slug: '', domain: '' }));
      onDone(`The store ${store.storeName} was created: its onboarding starts below.`);
      await client.invalidateQueries({ queryKey: onboardingQueries.stores().queryKey });
      await client.invalidateQueries({ queryKey: onboardingQueries.accounts().queryKey });
      // The new store is one more store of the signed-in staff member's.
      await client.invalidateQueries({ queryKey: meQuery.queryKey });
    },
  });
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = CreateStoreRequest.safeParse({
      ...fields,
      accountId: fields.accountId || accounts[0]?.id,
      domain: fields.domain.trim() || null,
    });
    if (!parsed.success) return setProblems(issuesText(parsed.error.issues));
    setProblems([]);
    create.mutate(parsed.data);
  }
  const input = (key: 'name' | 'slug' | 'currency' | 'domain', label: string, max: number) => (
    <TextField
      label={label}
      type="text"
      value={fields[key]}
      onChange={(e) => set(key)(e.target.value)}
      maxLength={max}
      autoComplete="off"
    />
  );
  return (
    <CreateForm
      title="New store"
      submit="Create store"
      create={create}
      problems={problems}
      onSubmit={onSubmit}
      unavailable={accounts.length === 0 ? 'Create an account first: every store belongs to one.' : undefined}
    >
      <div className="field">
        <label htmlFor={`${id}-account`}>Account</label>
        <select
          id={`${id}-account`}
          value={fields.accountId || accounts[0]?.id}
          onChange={(e) => set('accountId')(e.target.value)}
        >
          {accounts.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      </div>
      {input('name', 'Store name', 120)}
      {input('slug', 'Store slug', 60)}
      {input('currency', 'Currency', 3)}
      {input('domain', 'Custom domain (optional)', 253)}
    </CreateForm>
  );
}

/** One store's checklist: each step of the path done (when, by whom) or still to come, and the actions the user may take next. */
function StoreChecklist({ store, onDone }: { store: StoreOnboardingView; onDone: (message: string) => void }) {
  const me = useMe();
  const id = useId();
  const client = useQueryClient();
  const [reason, setReason] = useState('');
  const refresh = async (view: StoreOnboardingView, message: string) => {
    client.setQueryData(
      onboardingQueries.stores().queryKey,
      (list) => list && { data: list.data.map((s) => (s.storeId === view.storeId ? view : s)) },
    );
    onDone(message);
    await client.invalidateQueries({ queryKey: onboardingQueries.stores().queryKey });
  };
  const advance = useMutation({
    mutationFn: (body: { step: Exclude<OnboardingStep, 'create'>; note: string }) =>
      onboardingApi.step(store.storeId, { ...body, expectedVersion: store.version }),
    onSuccess: (view, body) => {
      setReason('');
      return refresh(view, `${view.storeName}: ${ONBOARDING_STEP_LABELS[body.step].toLowerCase()}.`);
    },
  });
  const activate = useMutation({
    mutationFn: () => onboardingApi.activate(store.storeId),
    onSuccess: (view) => refresh(view, `${view.storeName} is active: its shoppers can file claims.`),
  });
  const last = (step: OnboardingStep) => store.steps.findLast((s) => s.step === step);
  // A rejection undoes the review: a review and what follows it count only when taken after the last rejection.
  const rejectedAt = store.steps.findLastIndex((s) => s.step === 'reject');
  const doneSince = (step: OnboardingStep) =>
    store.steps.some((s, i) => s.step === step && (i > rejectedAt || !REVIEWED.includes(step)));
  const may = (step: OnboardingStep) => me.permissions.includes(ONBOARDING_STEP_PERMISSION[step]);
  const offered = store.nextSteps.filter(
    (s): s is Exclude<OnboardingStep, 'create' | 'reject'> => s !== 'reject' && s !== 'create' && may(s),
  );
  const rejectable = store.nextSteps.includes('reject') && may('reject');
  const rejection = rejectedAt >= 0 ? store.steps[rejectedAt] : undefined;
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{store.storeName}</h2>
      <p className="hint">
        {store.accountName} · {store.slug} ·{' '}
        <Badge tone={STAGE_TONES[store.stage]}>{ONBOARDING_STAGE_LABELS[store.stage]}</Badge>{' '}
        {store.active ? <Badge tone="success">Active</Badge> : <Badge tone="neutral">Not active</Badge>}
      </p>
      {rejection && store.stage !== 'deployed' && store.stage !== 'approved' ? (
        <p>
          Rejected {formatDateTime(rejection.at)} by {rejection.actor.name ?? rejection.actor.id}: {rejection.note}
        </p>
      ) : null}
      <ol className="onboarding-steps" aria-label={`Onboarding checklist of ${store.storeName}`}>
        {CHECKLIST.map((step, index) => {
          const done = doneSince(step) ? last(step) : undefined;
          return (
            <li key={step} className={done ? 'onboarding-step onboarding-step-done' : 'onboarding-step'}>
              <span className="onboarding-step-marker" aria-hidden="true">
                {done ? '✓' : index + 1}
              </span>
              <div className="onboarding-step-body">
                <span className="onboarding-step-text">
                  {ONBOARDING_STEP_LABELS[step]}
                  <span className="hint">
                    {done ? ` — ${formatDateTime(done.at)} by ${done.actor.name ?? done.actor.id}` : ' — to do'}
                  </span>
                </span>
                <StepLink step={step} store={store} />
              </div>
            </li>
          );
        })}
        <li className={store.active ? 'onboarding-step onboarding-step-done' : 'onboarding-step'}>
          <span className="onboarding-step-marker" aria-hidden="true">
            {store.active ? '✓' : CHECKLIST.length + 1}
          </span>
          <div className="onboarding-step-body">
            <span className="onboarding-step-text">
              Activated
              {store.active ? null : <span className="hint"> — to do</span>}
            </span>
            <StepLink step="activate" store={store} />
          </div>
        </li>
      </ol>
      <div className="onboarding-actions">
        {offered.map((step) => (
          <button
            key={step}
            type="button"
            className="button button-primary"
            disabled={advance.isPending}
            onClick={() => advance.mutate({ step, note: '' })}
          >
            {STEP_BUTTONS[step]}
          </button>
        ))}
        {store.activatable && me.permissions.includes('store:activate') ? (
          <button
            type="button"
            className="button button-primary"
            disabled={activate.isPending}
            onClick={() => activate.mutate()}
          >
            Activate store
          </button>
        ) : null}
      </div>
      {rejectable ? (
        <form
          className="onboarding-form"
          onSubmit={(e) => {
            e.preventDefault();
            advance.mutate({ step: 'reject', note: reason });
          }}
        >
          <div className="field">
            <label htmlFor={`${id}-reason`}>Reason for rejecting</label>
            <input
              id={`${id}-reason`}
              type="text"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              maxLength={2_000}
              required
            />
          </div>
          <div className="onboarding-form-actions">
            <button
              type="submit"
              className="button button-secondary"
              disabled={advance.isPending || reason.trim() === ''}
            >
              Reject
            </button>
          </div>
        </form>
      ) : null}
      {advance.isError ? <Alert>{errorText(advance.error)}</Alert> : null}
      {activate.isError ? <Alert>{errorText(activate.error)}</Alert> : null}
    </section>
  );
}

/** `/admin/onboarding`: Order Protection staff create accounts and stores and take each new store through onboarding. */
export function OnboardingPage() {
  const me = useMe();
  const [notice, setNotice] = useState<string | null>(null);
  const mayCreateAccount = holdsInternally(me, 'account:create');
  const mayCreateStore = holdsInternally(me, 'admin-stores:create') || holdsInternally(me, 'implementation:create');
  const accounts = useQuery({
    ...onboardingQueries.accounts(),
    enabled: mayCreateStore && holdsInternally(me, 'account:read'),
  });
  const stores = useQuery(onboardingQueries.stores());
  return (
    <Page
      title="Store onboarding"
      subtitle="Every store created here, where its onboarding stands, and what comes next."
    >
      <div role="status">{notice ? <p className="alert alert-success">{notice}</p> : null}</div>
      {mayCreateAccount ? <NewAccountForm onDone={setNotice} /> : null}
      {mayCreateStore && accounts.data ? <NewStoreForm accounts={accounts.data.data} onDone={setNotice} /> : null}
      {stores.isError ? <Alert>{errorText(stores.error)}</Alert> : null}
      {stores.data?.data.length === 0 ? <p>No store has been created here yet.</p> : null}
      {stores.data?.data.map((store) => (
        <StoreChecklist key={store.storeId} store={store} onDone={setNotice} />
      ))}
    </Page>
  );
}
