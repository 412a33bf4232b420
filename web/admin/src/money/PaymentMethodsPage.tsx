import { useId, useState, type FormEvent } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  PaymentMethod,
  type MeResponse,
  type PaymentMethodPurpose,
  type PaymentMethodsView,
  type Permission,
} from '@claims/contracts';
import { paymentMethodProblem } from '@claims/domain';
import { errorText } from '@claims/ui';
import { formatDateTime } from '@claims/format';
import { Alert, Page } from '@claims/ui/components';
import { billingApi } from '../shared/api.js';
import { can, useMe } from '../shared/session.js';
import { StorePicker } from '../shared/components/StorePicker.js';
import { untilShown } from './billing/readModel.js';
import './billing/billing.css';
import { paymentMethodQueries } from './queries.js';
import { Options } from '../shared/components/Options.js';
import { NoStorePage } from '../shared/components/NoStorePage.js';

type Kind = PaymentMethod['kind'];
/** Reading either method is enough to open the page; each card shows only what its reader may see. */
export const METHOD_READS: readonly Permission[] = ['billing-method:read', 'payment-method:read', 'payout-method:read'];
const KIND_LABELS: Record<Kind, string> = {
  card: 'Card',
  bank_account: 'Bank account',
  provider: 'Payment provider reference',
};

/** A method as a person recognises it, never more than its last four digits. */
function describe(method: PaymentMethod): string {
  switch (method.kind) {
    case 'card':
      return `${method.brand} card ending in ${method.last4}`;
    case 'bank_account':
      return `${method.bankName} account ending in ${method.last4}`;
    case 'provider':
      return `${method.provider}, reference ${method.reference}`;
    default: {
      const exhaustive: never = method;
      return exhaustive;
    }
  }
}

const PURPOSES: Record<
  PaymentMethodPurpose,
  { title: string; explains: (store: string) => string; update: (me: MeResponse, storeId: string) => boolean }
> = {
  billing: {
    title: 'Billing method',
    explains: (store) => `How ${store} pays what its invoices say it owes Order Protection.`,
    update: (me, storeId) => can(me, 'billing-method:update', storeId) && can(me, 'payment-method:update', storeId),
  },
  payout: {
    title: 'Payout method',
    explains: (store) => `How Order Protection pays ${store} what it owes (claims reimbursed).`,
    update: (me, storeId) => can(me, 'payout-method:update', storeId),
  },
};

type Field = 'brand' | 'bankName' | 'provider' | 'reference' | 'last4';
const FIELDS: Record<Kind, ReadonlyArray<{ field: Field; label: string; hint?: string }>> = {
  card: [
    { field: 'brand', label: 'Card brand' },
    {
      field: 'last4',
      label: 'Last four digits',
      hint: 'Only the last four digits are kept: never enter the full card number.',
    },
  ],
  bank_account: [
    { field: 'bankName', label: 'Bank' },
    {
      field: 'last4',
      label: 'Last four digits',
      hint: 'Only the last four digits are kept: never enter the full account number.',
    },
  ],
  provider: [
    { field: 'provider', label: 'Provider' },
    {
      field: 'reference',
      label: 'Reference at the provider',
      hint: "The provider's token or id for the method, never a card or account number.",
    },
  ],
};

function MethodForm({
  storeId,
  purpose,
  onSaved,
}: {
  storeId: string;
  purpose: PaymentMethodPurpose;
  onSaved: (text: string) => void;
}) {
  const id = useId();
  const client = useQueryClient();
  const [kind, setKind] = useState<Kind>('card');
  const [values, setValues] = useState<Partial<Record<Field, string>>>({});
  const [problems, setProblems] = useState<Partial<Record<Field | 'form', string>>>({});
  const save = useMutation({
    mutationFn: (method: PaymentMethod) => billingApi.setMethod(storeId, purpose, method),
    onSuccess: async ({ method }) => {
      const shown = await untilShown(
        () => billingApi.methods(storeId),
        (view) => JSON.stringify(view[purpose]?.method) === JSON.stringify(method),
      );
      client.setQueryData(paymentMethodQueries.of(storeId).queryKey, shown);
      setValues({});
      onSaved(`${PURPOSES[purpose].title} saved: ${describe(method)}.`);
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = PaymentMethod.safeParse({
      kind,
      ...Object.fromEntries(FIELDS[kind].map(({ field }) => [field, values[field] ?? ''])),
    });
    if (!parsed.success) {
      const found: typeof problems = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        found[field] ??=
          issue.code === 'too_small' ? 'Fill this in.' : `${issue.message[0]!.toUpperCase()}${issue.message.slice(1)}.`;
      }
      setProblems(found);
      return;
    }
    const problem = paymentMethodProblem(parsed.data);
    setProblems(problem ? { form: problem } : {});
    if (!problem) save.mutate(parsed.data);
  }

  return (
    <form
      className="stack"
      onSubmit={onSubmit}
      noValidate
      aria-label={`Set the ${PURPOSES[purpose].title.toLowerCase()}`}
    >
      <div className="field">
        <label htmlFor={`${id}-kind`}>Kind of method</label>
        <select
          id={`${id}-kind`}
          value={kind}
          onChange={(e) => {
            setKind(e.target.value as Kind);
            setProblems({});
          }}
        >
          <Options values={Object.keys(KIND_LABELS) as Kind[]} label={(k) => KIND_LABELS[k]} />
        </select>
      </div>
      {FIELDS[kind].map(({ field, label, hint }) => {
        const described = [hint ? `${id}-${field}-hint` : '', problems[field] ? `${id}-${field}-error` : '']
          .filter(Boolean)
          .join(' ');
        return (
          <div className="field" key={field}>
            <label htmlFor={`${id}-${field}`}>{label}</label>
            <input
              id={`${id}-${field}`}
              type="text"
              autoComplete="off"
              inputMode={field === 'last4' ? 'numeric' : undefined}
              className={field === 'last4' ? 'small-input' : undefined}
              value={values[field] ?? ''}
              onChange={(e) => setValues((v) => ({ ...v, [field]: e.target.value }))}
              aria-invalid={problems[field] ? true : undefined}
              aria-describedby={described || undefined}
            />
            {hint ? (
              <p className="hint" id={`${id}-${field}-hint`}>
                {hint}
              </p>
            ) : null}
            {problems[field] ? (
              <p className="field-error" id={`${id}-${field}-error`}>
                {problems[field]}
              </p>
            ) : null}
          </div>
        );
      })}
      {problems.form ? <Alert>{problems.form}</Alert> : null}
      {save.isError ? <Alert>{errorText(save.error)}</Alert> : null}
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          Save {PURPOSES[purpose].title.toLowerCase()}
        </button>
      </div>
    </form>
  );
}

function MethodCard({
  view,
  purpose,
  storeId,
  storeName,
  mayUpdate,
  onSaved,
}: {
  view: PaymentMethodsView;
  purpose: PaymentMethodPurpose;
  storeId: string;
  storeName: string;
  mayUpdate: boolean;
  onSaved: (text: string) => void;
}) {
  const id = useId();
  const stored = view[purpose];
  if (stored === undefined) return null;
  const { title, explains } = PURPOSES[purpose];
  return (
    <section className="card stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p className="hint">{explains(storeName)}</p>
      {stored ? (
        <p className="method-summary">
          {describe(stored.method)}{' '}
          <span className="muted">
            (set <time dateTime={stored.setAt}>{formatDateTime(stored.setAt)}</time>)
          </span>
        </p>
      ) : (
        <p className="method-summary">None set yet.</p>
      )}
      {mayUpdate ? <MethodForm key={storeId} storeId={storeId} purpose={purpose} onSaved={onSaved} /> : null}
    </section>
  );
}

/** `/admin/payment-methods`: how a store pays Order Protection and how it is paid, as far as the user may see and set them. */
export function PaymentMethodsPage() {
  const me = useMe();
  const navigate = useNavigate();
  const search = useSearch({ from: '/app/payment-methods' });
  const stores = me.stores.filter((s) => METHOD_READS.some((p) => s.permissions.includes(p)));
  const store = stores.find((s) => s.id === search.store) ?? stores[0];
  const storeId = store?.id ?? '';
  const methods = useQuery({ ...paymentMethodQueries.of(storeId), enabled: Boolean(store) });
  const [notice, setNotice] = useState<string | null>(null);
  if (!store) return <NoStorePage title="Payment methods" what="payment methods" />;
  return (
    <Page title={`Payment methods of ${store.name}`}>
      <StorePicker
        stores={stores}
        value={storeId}
        onChange={(next) => {
          setNotice(null);
          void navigate({ to: '/payment-methods', search: { store: next } });
        }}
      />
      <div role="status">{notice ? <p className="alert alert-success">{notice}</p> : null}</div>
      {methods.isPending ? <p className="muted">Loading the methods…</p> : null}
      {methods.isError ? (
        <Alert>{errorText(methods.error, 'The methods could not be loaded. Try again.')}</Alert>
      ) : null}
      {methods.data ? (
        <div className="method-grid">
          {(['billing', 'payout'] as const).map((purpose) => (
            <MethodCard
              key={purpose}
              view={methods.data}
              purpose={purpose}
              storeId={storeId}
              storeName={store.name}
              mayUpdate={PURPOSES[purpose].update(me, storeId)}
              onSaved={setNotice}
            />
          ))}
        </div>
      ) : null}
    </Page>
  );
}
