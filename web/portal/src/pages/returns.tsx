import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  isReturnable,
  RETURN_LABEL_STATUSES,
  RETURN_METHOD_LABELS,
  RETURN_REASON_LABELS,
  ReturnMethod,
  ReturnReason,
  type ClaimReturn,
} from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDateTime } from '@claims/format';
import { Alert, Page } from '@claims/ui/components';
import { BackToClaim, ClaimMissing } from '../components.js';
import { api } from '../api.js';
import { returnsApi } from '../returnsApi.js';
import { usePortal } from '../claimFlowState.js';
import { TOKEN_PATTERN } from '../router.js';
import '../returns.css';

const returnsKey = (token: string) => ['returns', token] as const;

export const useReturns = (token: string) =>
  useQuery({ queryKey: returnsKey(token), queryFn: () => returnsApi.list(token), enabled: Boolean(token) });

/** Whose label the shopper may print: handled here, neither arrived nor ended. */
export const hasLabel = (r: ClaimReturn) => r.handling === 'here' && RETURN_LABEL_STATUSES.includes(r.status);

/** The claim view's returns: each with its status and what to do next, and a way to start one. */
export function ClaimReturnsCard({ token }: { token: string }) {
  const returns = useReturns(token);
  return (
    <section className="card" aria-labelledby="returns-title">
      <h2 id="returns-title">Returns</h2>
      {returns.isError ? <Alert>Your returns could not be loaded.</Alert> : null}
      {returns.data && returns.data.length > 0 ? (
        <ul className="plain">
          {returns.data.map((r) => (
            <li key={r.id} className="return-row">
              <span className="choice-title">
                Return {r.code} · <span className="badge badge-info">{r.statusLabel}</span>
              </span>
              <span className="choice-help">
                {r.items.map((i) => `${i.name} × ${i.quantity}`).join(', ')} · started {formatDateTime(r.startedAt)}
              </span>
              {hasLabel(r) ? (
                <Link to="/print/$token" params={{ token }} search={{ return: r.id }}>
                  Print return label {r.code}
                </Link>
              ) : null}
              {r.handling === 'store_portal' && r.portalUrl ? (
                <a href={r.portalUrl} rel="noopener noreferrer">
                  Continue return {r.code} on the store's returns portal
                </a>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {returns.data?.length === 0 ? <p className="hint">No returns yet.</p> : null}
      <Link className="button button-secondary" to="/return/start" search={{ token }}>
        Start a return
      </Link>
    </section>
  );
}

/** Without a claim: the store's returns portal when the looked-up order's store runs one (the page as it was). */
function ReturnsWithoutClaim() {
  const order = usePortal((s) => s.order);
  const portalUrl = order?.settings.capabilities.returns ? order.settings.returns.portalUrl : null;
  return (
    <Page title="Start a return" subtitle="Returns start from your claim.">
      {portalUrl ? (
        <a className="button button-primary" href={portalUrl} rel="noopener noreferrer">
          Go to the returns portal
        </a>
      ) : (
        <p>
          Open your claim from the link in your email and choose "Start a return".{' '}
          <Link to="/claim-links">Get your claim links</Link>
        </p>
      )}
    </Page>
  );
}

type Quantities = Record<string, number>;

function StartReturnForm({ token }: { token: string }) {
  const claim = useQuery({ queryKey: ['claim', token], queryFn: () => api.getClaim(token) });
  const store = useQuery({
    queryKey: ['store', claim.data?.storeId],
    queryFn: () => api.getStore(claim.data!.storeId),
    enabled: Boolean(claim.data),
  });
  const returns = useReturns(token);
  const client = useQueryClient();
  const navigate = useNavigate();
  const reasonId = useId();
  const commentId = useId();
  const [quantities, setQuantities] = useState<Quantities>({});
  const [reason, setReason] = useState<ReturnReason | ''>('');
  const [method, setMethod] = useState<ReturnMethod | ''>('');
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [redirected, setRedirected] = useState<ClaimReturn | null>(null);
  const start = useMutation({
    mutationFn: () =>
      returnsApi.start(token, {
        items: Object.entries(quantities)
          .filter(([, q]) => q > 0)
          .map(([claimItemId, quantity]) => ({ claimItemId, quantity })),
        reason: reason as ReturnReason,
        method: method as ReturnMethod,
        ...(comment.trim() ? { comment: comment.trim() } : {}),
      }),
    onSuccess: async (started) => {
      await client.invalidateQueries({ queryKey: returnsKey(token) });
      if (started.handling === 'here')
        await navigate({ to: '/print/$token', params: { token }, search: { return: started.id } });
      else setRedirected(started);
    },
    onError: (e) => setError(errorText(e, 'Your return could not be started. Please try again.')),
  });

  if (claim.isPending) return <Page title="Loading your claim…" />;
  if (claim.isError) return <ClaimMissing error={claim.error} title="Start a return" />;
  const c = claim.data;
  if (!c.items.some((item) => isReturnable(item.claimType))) {
    return (
      <Page title="Start a return" subtitle={`Claim #${c.claimNumber} · Order #${c.orderNumber}`}>
        <p>Nothing in this claim can be returned: its items never reached you.</p>
        <p>
          <BackToClaim token={token} />
        </p>
      </Page>
    );
  }
  if (redirected) {
    return (
      <Page
        title="Continue on the store's returns portal"
        subtitle={`Return ${redirected.code} for claim #${c.claimNumber}`}
      >
        <p>
          {c.orderNumber ? `Order #${c.orderNumber}: ` : ''}this store handles its returns on its own returns portal.
          We've noted your return; finish it there.
        </p>
        {redirected.portalUrl ? (
          <a className="button button-primary" href={redirected.portalUrl} rel="noopener noreferrer">
            Go to the returns portal
          </a>
        ) : null}
        <p>
          <BackToClaim token={token} />
        </p>
      </Page>
    );
  }
  const portal = store.data?.capabilities.returns ? store.data.returns.portalUrl : null;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    if (!Object.values(quantities).some((q) => q > 0)) return setError('Choose at least one item to return.');
    if (!reason) return setError('Choose why you are returning it.');
    if (!method) return setError('Choose how you will send it back.');
    start.mutate();
  }

  // What other returns hold already (those not rejected, cancelled or sent to the store's portal).
  const held = new Map<string, number>();
  for (const r of returns.data ?? []) {
    if (r.status === 'REJECTED' || r.status === 'CANCELLED' || r.status === 'REDIRECTED') continue;
    for (const i of r.items) held.set(i.claimItemId, (held.get(i.claimItemId) ?? 0) + i.quantity);
  }
  return (
    <Page title="Start a return" subtitle={`Claim #${c.claimNumber} · Order #${c.orderNumber}`}>
      <p>
        {portal
          ? 'This store handles returns on its own returns portal: we note your return here, then take you there.'
          : 'Next you print a return label to stick on the parcel.'}
      </p>
      <form className="stack" onSubmit={onSubmit} noValidate>
        <fieldset className="field">
          <legend>Items to return</legend>
          {c.items
            .filter((item) => isReturnable(item.claimType))
            .map((item) => {
              const left = item.quantity - (held.get(item.id) ?? 0);
              const id = `return-qty-${item.id}`;
              return (
                <div key={item.id} className="return-item">
                  <label htmlFor={id}>
                    {item.name}
                    {left <= 0 ? ' (already being returned)' : ''}
                  </label>
                  <select
                    id={id}
                    value={quantities[item.id] ?? 0}
                    disabled={left <= 0}
                    onChange={(e) => setQuantities((all) => ({ ...all, [item.id]: Number(e.target.value) }))}
                  >
                    {Array.from({ length: Math.max(left, 0) + 1 }, (_, n) => (
                      <option key={n} value={n}>
                        {n === 0 ? 'None' : `${n} of ${item.quantity}`}
                      </option>
                    ))}
                  </select>
                </div>
              );
            })}
        </fieldset>
        <div className="field">
          <label htmlFor={reasonId}>Why are you returning it?</label>
          <select id={reasonId} value={reason} onChange={(e) => setReason(e.target.value as ReturnReason | '')}>
            <option value="">Select a reason</option>
            {ReturnReason.options.map((r) => (
              <option key={r} value={r}>
                {RETURN_REASON_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        <fieldset className="field">
          <legend>How will you send it back?</legend>
          {ReturnMethod.options.map((m) => (
            <label key={m} className="choice choice-compact">
              <input type="radio" name="return-method" value={m} checked={method === m} onChange={() => setMethod(m)} />
              <span>{RETURN_METHOD_LABELS[m]}</span>
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor={commentId}>Anything else we should know? (optional)</label>
          <textarea
            id={commentId}
            rows={3}
            maxLength={2000}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
          />
        </div>
        {error ? <Alert>{error}</Alert> : null}
        <div className="actions">
          <BackToClaim token={token} />
          <button type="submit" className="button button-primary" disabled={start.isPending}>
            {start.isPending ? 'Starting…' : 'Start return'}
          </button>
        </div>
      </form>
    </Page>
  );
}

/** /return and /return/start: with a claim's token (from its view page) the return form, else the store's portal (docs/product.md#returns). */
export function ReturnStartPage() {
  const search: { token?: unknown } = useSearch({ strict: false });
  const token = typeof search.token === 'string' && TOKEN_PATTERN.test(search.token) ? search.token : null;
  return token ? <StartReturnForm token={token} /> : <ReturnsWithoutClaim />;
}
