import { useId, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  CUSTOMER_RESOLUTION_LABELS,
  type CustomerOrder,
  type CustomerResolution,
  type FileClaimRequest,
} from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatCreditBonus } from '@claims/format';
import { api, isRateLimited, rateLimitedText } from '../api.js';
import { AddressModal } from '../address.js';
import { Alert, Page } from '@claims/ui/components';
import { BackLink, StepFooter, StepNeeds, issueLabel, useStepForm } from '../components.js';
import { SignatureField, type SignatureHandle } from '../signature.js';
import {
  emptyClaim,
  finishedFulfillments,
  flushSessionSave,
  getState,
  removeIssue,
  setState,
  settleSubmission,
  submissionKey,
  usePortal,
} from '../claimFlowState.js';

interface Option {
  method: CustomerResolution;
  title: string;
  help: string;
  badge?: string;
}

/**
 * The resolution choices (docs/product.md#resolutions), filtered by what the store offers (docs/product.md#store-capabilities); `credit` is the offer's
 * store-credit bonus when an A/B test gave this session another one.
 */
export function resolutionOptions(
  order: CustomerOrder,
  offer: Pick<CustomerOrder['settings']['credit'], 'bonus' | 'bonusType'> | null = null,
): Option[] {
  const { capabilities } = order.settings;
  const credit = { ...order.settings.credit, ...(offer ?? {}) };
  const options: Option[] = [];
  if (capabilities.reship)
    options.push({
      method: 'RESHIP',
      title: 'Reship them to me',
      badge: 'Fastest',
      help: 'Items will be shipped immediately',
    });
  if (capabilities.refund) options.push({ method: 'REFUND', title: 'I want a refund', help: 'Up to 5 business days' });
  if (capabilities.credit && credit.enabled) {
    options.push({
      method: 'STORE_CREDIT',
      title: 'I want store credit',
      help:
        credit.bonus > 0
          ? `Get a ${formatCreditBonus(credit.bonus, credit.bonusType, order.currency, order.exchangeRate)} bonus on your store credit`
          : 'Use it on your next order',
    });
  }
  return options;
}

export function ResolutionPage() {
  const order = usePortal((s) => s.order);
  const claim = usePortal((s) => s.claim);
  const demo = usePortal((s) => s.demo);
  const navigate = useNavigate();
  // The offer of an A/B test (docs/decisions/ab-tests.md): asked once per order; the store's own bonus until it answers or if it fails.
  const offer = useQuery({
    queryKey: ['offer', order?.systemOrderId],
    queryFn: () => api.offer(order!.systemOrderId, order!.customerEmail),
    enabled: Boolean(order) && !demo && Boolean(order?.settings.capabilities.credit),
    retry: false,
    staleTime: Infinity,
  });
  const options = order ? resolutionOptions(order, offer.data?.credit ?? null) : [];
  // A draft's choice the store no longer offers (its settings changed since) is no choice.
  const chosen = options.find((o) => o.method === claim.resolution.desiredMethod)?.method ?? null;
  const { error, onSubmit } = useStepForm(
    chosen ? null : 'Choose how we can fix this for you.',
    () => void navigate({ to: '/resolution/review' }),
  );
  if (!order) return null;
  if (finishedFulfillments(claim).length === 0)
    return (
      <StepNeeds title="How can we fix this for you?" missing="Add an issue to your claim first." back="/issues" />
    );

  return (
    <Page title="How can we fix this for you?">
      <form className="stack" onSubmit={onSubmit} noValidate>
        <fieldset>
          <legend className="visually-hidden">Preferred resolution</legend>
          <ul className="choices">
            {options.map((o) => (
              <li key={o.method}>
                <label className="choice">
                  <input
                    type="radio"
                    name="resolution"
                    value={o.method}
                    checked={chosen === o.method}
                    onChange={() =>
                      setState((s) => ({
                        claim: { ...s.claim, resolution: { ...s.claim.resolution, desiredMethod: o.method } },
                      }))
                    }
                  />
                  <span className="shipment">
                    <span className="choice-title">
                      {o.title} {o.badge ? <span className="badge badge-success">{o.badge}</span> : null}
                    </span>
                    <span className="choice-help">{o.help}</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <StepFooter error={error} back="/issues" />
      </form>
    </Page>
  );
}

/** Review-step wording, word for word (docs/product.md#portal-screens). */
export const CONFIRM_ADDRESS_TEXT =
  'I confirm this address is accurate and understand items cannot be reshipped multiple times if incorrect.';
export const CONFIRM_ADDRESS_ERROR = 'Please confirm your shipping address.';

export function ReviewPage() {
  const order = usePortal((s) => s.order);
  const claim = usePortal((s) => s.claim);
  const demo = usePortal((s) => s.demo);
  const navigate = useNavigate();
  const confirmId = useId();
  const signatureRef = useRef<SignatureHandle>(null);
  const [confirmed, setConfirmed] = useState(false);
  const [editing, setEditing] = useState(false);
  const [errors, setErrors] = useState<{ confirm?: string; sign?: string; submit?: string }>({});

  const submit = useMutation({
    mutationFn: async (body: FileClaimRequest) => {
      if (!order) throw new Error('No order is loaded.');
      await flushSessionSave();
      return api.fileClaim(order.orderId, body, submissionKey(body));
    },
    onSuccess: (filed) => {
      settleSubmission();
      const s = getState();
      // The server closes the draft itself once the claim is stored (a reaction to ClaimFiled).
      setState({
        submitted: { claimNumber: filed.claimNumber, token: filed.token },
        claim: emptyClaim(s.claim.customer.email, s.claim.customer.sourceOrderId),
        currentShipmentId: null,
        selectedShipments: [],
      });
      void navigate({ to: '/claim-received' });
    },
    onError: (error) => {
      settleSubmission(error);
      setErrors({
        submit: isRateLimited(error)
          ? rateLimitedText(error)
          : errorText(error, 'Your claim could not be submitted. Please try again.'),
      });
    },
  });

  if (!order) return null;
  const finished = finishedFulfillments(claim);
  const method = claim.resolution.desiredMethod;
  const itemsById = new Map(
    order.fulfillments.flatMap((f) => f.items.map((l) => [l.item.sourceItemId, l.item] as const)),
  );
  const address = claim.resolution.updatedShippingAddress ?? order.shippingAddress;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const signed = signatureRef.current?.read() ?? { error: 'Please sign your claim by typing your full name.' };
    const next = {
      ...(confirmed ? {} : { confirm: CONFIRM_ADDRESS_ERROR }),
      ...('error' in signed ? { sign: signed.error } : {}),
    };
    setErrors(next);
    if (next.confirm || !('signature' in signed) || !method || finished.length === 0) return;
    // The same signature given again keeps the time it was first given: a retried submission is then
    // the same request, and its Idempotency-Key still applies.
    const previous = getState().claim.signature;
    const signature =
      previous?.kind === signed.signature.kind && previous.value === signed.signature.value
        ? previous
        : signed.signature;
    setState((s) => ({ claim: { ...s.claim, signature } }));
    if (demo) {
      setErrors({ submit: 'This is a sample order for demos, so nothing was submitted.' });
      return;
    }
    submit.mutate({
      email: order!.customerEmail,
      fulfillmentIssues: finished.map((f) => ({
        sourceFulfillmentId: f.id,
        issues: f.issues.flatMap((i) =>
          i.claimType && i.quantity
            ? [
                {
                  sourceItemId: i.sourceItemId,
                  claimType: i.claimType,
                  quantity: i.quantity,
                  details: i.details ?? '',
                  images: i.images,
                },
              ]
            : [],
        ),
      })),
      resolution: {
        desiredMethod: method,
        customerSignature: signature,
        updatedShippingAddress: claim.resolution.updatedShippingAddress ?? null,
      },
    });
  }

  if (!method) {
    return (
      <StepNeeds
        title="Review and complete your claim."
        subtitle={`Order #${order.orderNumber}`}
        missing="Choose how we can fix this for you first."
        back="/resolution"
      />
    );
  }

  return (
    <Page title="Review and complete your claim." subtitle={`Order #${order.orderNumber}`}>
      <form className="stack" onSubmit={onSubmit} noValidate>
        <section className="card" aria-labelledby="my-claim">
          <h2 id="my-claim">My Claim</h2>
          {finished.length === 0 ? <Alert>Your claim has no issues yet.</Alert> : null}
          <ul className="plain">
            {finished.flatMap((f) =>
              f.issues.map((issue) => {
                const item = itemsById.get(issue.sourceItemId);
                return (
                  <li key={issue.id} className="item-row">
                    <span className="shipment">
                      <span className="choice-title">
                        {item?.productName ?? issue.sourceItemId} × {issue.quantity}
                      </span>
                      <span className="choice-help">
                        {issueLabel(issue.claimType)}
                        {issue.details ? ` · ${issue.details}` : ''}
                      </span>
                      {issue.images.length > 0 ? (
                        <span className="choice-help">
                          {issue.images.length === 1 ? '1 photo' : `${issue.images.length} photos`}
                        </span>
                      ) : null}
                    </span>
                    <span className="row-actions">
                      <Link
                        to={f.shipmentIssue ? '/issues/shipment/details' : '/issues/items'}
                        className="button button-link"
                        onClick={() =>
                          setState({ currentShipmentId: f.id, selectedShipments: f.shipmentIssue ? [f.id] : [] })
                        }
                      >
                        Edit<span className="visually-hidden"> {item?.productName}</span>
                      </Link>
                      <button type="button" className="button button-link" onClick={() => removeIssue(f.id, issue.id)}>
                        Remove<span className="visually-hidden"> {item?.productName}</span>
                      </button>
                    </span>
                  </li>
                );
              }),
            )}
          </ul>
        </section>
        <section className="card" aria-labelledby="preferred">
          <h2 id="preferred">Preferred Resolution for Issues</h2>
          {method ? <p>{CUSTOMER_RESOLUTION_LABELS[method]}</p> : <Alert>Choose a resolution first.</Alert>}
          <Link to="/resolution" className="button button-link">
            Edit<span className="visually-hidden"> resolution</span>
          </Link>
        </section>
        <section className="card" aria-labelledby="address">
          <h2 id="address">Confirm Shipping Address</h2>
          {claim.resolution.updatedShippingAddress ? <p className="hint">Updated for this claim</p> : null}
          <address>
            {address.name}
            <br />
            {address.address1}
            {address.address2 ? (
              <>
                <br />
                {address.address2}
              </>
            ) : null}
            <br />
            {address.city}
            {address.province ? `, ${address.province}` : ''} {address.zip}
            <br />
            {address.country}
          </address>
          <p className="row-actions-start">
            <button type="button" className="button button-link" onClick={() => setEditing(true)}>
              Edit<span className="visually-hidden"> shipping address</span>
            </button>
            {claim.resolution.updatedShippingAddress ? (
              <button
                type="button"
                className="button button-link"
                onClick={() =>
                  setState((s) => ({
                    claim: { ...s.claim, resolution: { ...s.claim.resolution, updatedShippingAddress: null } },
                  }))
                }
              >
                Use the order's address
              </button>
            ) : null}
          </p>
          <div className="checkbox">
            <input
              id={confirmId}
              type="checkbox"
              checked={confirmed}
              onChange={(e) => setConfirmed(e.target.checked)}
              aria-invalid={Boolean(errors.confirm)}
              aria-describedby={errors.confirm ? `${confirmId}-error` : undefined}
            />
            <label htmlFor={confirmId}>{CONFIRM_ADDRESS_TEXT}</label>
          </div>
          {errors.confirm ? (
            <p id={`${confirmId}-error`} className="field-error" role="alert">
              {errors.confirm}
            </p>
          ) : null}
        </section>
        <section className="card" aria-labelledby="signature">
          <h2 id="signature">Signature</h2>
          <SignatureField ref={signatureRef} initial={claim.signature} error={errors.sign} />
        </section>
        {errors.submit ? <Alert>{errors.submit}</Alert> : null}
        <div className="actions">
          <BackLink to="/resolution" />
          <button type="submit" className="button button-primary" disabled={submit.isPending}>
            {submit.isPending ? 'Submitting…' : 'Submit your claim'}
          </button>
        </div>
      </form>
      {editing ? (
        <AddressModal
          address={address}
          onCancel={() => setEditing(false)}
          onSave={(updated) => {
            setState((s) => ({
              claim: { ...s.claim, resolution: { ...s.claim.resolution, updatedShippingAddress: updated } },
            }));
            setConfirmed(false);
            setEditing(false);
          }}
        />
      ) : null}
    </Page>
  );
}
