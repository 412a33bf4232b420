import { Suspense, lazy, useDeferredValue, useEffect, useId, useState } from 'react';
import { Link, useParams } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CUSTOMER_RESOLUTION_LABELS, isReturnable, type CustomerClaimView } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDateTime, formatItemMoney, formatMoney } from '@claims/format';
import type { LightboxImage } from '@claims/ui/lightbox';
import { HttpError, api } from '../api.js';
import { Alert, ColumnHeads, Page } from '@claims/ui/components';
import { BackToClaim, ClaimMissing, ItemThumb, issueLabel } from '../components.js';
import { setState } from '../claimFlowState.js';
import { ItemDecision } from '../itemDecision.js';
import { retryWhileUnavailable } from '@claims/ui/unavailable-retry';

// Below the claim's first screen: the returns card (its schemas and styles) is a chunk of its own, fetched once the claim shows.
const ClaimReturnsCard = lazy(() => import('./returns.js').then((m) => ({ default: m.ClaimReturnsCard })));
// Below the claim's first screen too: the messages and their form (its upload's schemas) are a chunk of their own.
const Messages = lazy(() => import('./claimMessages.js').then((m) => ({ default: m.ClaimMessages })));
// Only once a photo is opened: the lightbox is a chunk of its own, not part of what the claim's first screen runs.
const Lightbox = lazy(() => import('@claims/ui/lightbox').then((m) => ({ default: m.Lightbox })));

function useToken(): string {
  const params: { token?: string } = useParams({ strict: false });
  return params.token ?? '';
}

function useClaim(token: string) {
  const query = useQuery({
    queryKey: ['claim', token],
    queryFn: () => api.getClaim(token),
    retry: retryWhileUnavailable((n, e) => !(e instanceof HttpError) && n < 1),
  });
  const storeId = query.data?.storeId ?? null;
  useEffect(() => {
    if (storeId) setState({ brandStoreId: storeId });
  }, [storeId]);
  return query;
}

export function ViewClaimPage() {
  const token = useToken();
  const claim = useClaim(token);
  if (claim.isError) return <ClaimMissing error={claim.error} />;
  return <ClaimDetails token={token} c={claim.data} />;
}

/** The claim, or its loading screen while it is on its way: the same Page, so its arrival updates the heading in place. */
function ClaimDetails({ token, c }: { token: string; c: CustomerClaimView | undefined }) {
  const [viewer, setViewer] = useState<{ images: LightboxImage[]; index: number; title: string } | null>(null);
  // Mounted from the first photo opened on, so a close is the dialog's own (focus goes back to the photo's button).
  const [lightboxShown, setLightboxShown] = useState(false);
  // The claim's arrival renders its first screen only (a render nothing can interrupt); what lies below it comes in a
  // second render React slices, so a slow phone's main thread is not blocked for the whole page at once.
  const belowTheFold = useDeferredValue(c !== undefined, false);
  if (!c) return <Page title="Loading your claim…" />;
  return (
    <Page
      title={`My Claim #${c.claimNumber}`}
      subtitle={`Order #${c.orderNumber} · Filed ${formatDateTime(c.createdAt)}`}
    >
      <p>
        Status: <span className="badge badge-info">{c.statusLabel}</span>
      </p>
      <section className="card" aria-labelledby="items-title">
        <h2 id="items-title">Items</h2>
        <ul className="plain">
          {c.items.map((item) => (
            <li key={item.id} className="item-row">
              <ItemThumb src={item.imageUrl} name={item.name} />
              <span className="shipment">
                <span className="choice-title">
                  {item.name} × {item.quantity}
                </span>
                <span className="choice-help">
                  {issueLabel(item.claimType)} · {formatItemMoney(item.price, c.currency)}
                </span>
                <ItemDecision claim={c} itemId={item.id} />
                {item.details ? <span className="choice-help">{item.details}</span> : null}
                {item.images.length > 0 ? (
                  <span className="photos">
                    {item.images.map((image, index) => (
                      <button
                        key={image.url}
                        type="button"
                        className="photo-button"
                        onClick={() => {
                          setLightboxShown(true);
                          setViewer({
                            images: item.images.map((x, i) => ({ url: x.url, alt: `Photo ${i + 1} of ${item.name}` })),
                            index,
                            title: `Photos of ${item.name}`,
                          });
                        }}
                      >
                        <img src={image.url} alt={`Photo ${index + 1} of ${item.name}`} width={56} height={56} />
                        <span className="visually-hidden"> (open larger)</span>
                      </button>
                    ))}
                  </span>
                ) : null}
              </span>
            </li>
          ))}
        </ul>
        <p>Preferred resolution: {CUSTOMER_RESOLUTION_LABELS[c.desiredMethod]}</p>
      </section>
      {belowTheFold ? (
        <>
          {c.storeCredits.length > 0 ? (
            <section className="card" aria-labelledby="credit-title">
              <h2 id="credit-title">Your store credit</h2>
              <ul className="plain">
                {c.storeCredits.map((credit) => (
                  <li key={credit.resolutionId}>
                    <strong>{formatMoney(credit.total, credit.currency)}</strong> in store credit
                    {credit.bonus > 0
                      ? `: ${formatMoney(credit.credit, credit.currency)} plus a ${formatMoney(credit.bonus, credit.currency)} bonus`
                      : ''}
                    . {credit.issuedAt ? `Issued ${formatDateTime(credit.issuedAt)}.` : 'It is being issued.'}
                    {credit.reclaimed ? (
                      <>
                        {' '}
                        The store reversed this decision on {formatDateTime(credit.reclaimed.at)}:{' '}
                        {formatMoney(credit.reclaimed.amount, credit.reclaimed.currency)} was taken back
                        {credit.reclaimed.redeemed > 0
                          ? `, and the ${formatMoney(credit.reclaimed.redeemed, credit.reclaimed.currency)} you had already used is yours to keep`
                          : ''}
                        .
                      </>
                    ) : null}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <section className="card" aria-labelledby="history-title">
            <h2 id="history-title">Status history</h2>
            <ol className="plain">
              {c.statusHistory.map((change) => (
                <li key={`${change.status}-${change.at}`}>
                  {change.statusLabel} · <time dateTime={change.at}>{formatDateTime(change.at)}</time>
                </li>
              ))}
            </ol>
          </section>
          {/* One boundary: the actions below the two cards show with them, not first and then pushed down (a layout shift). */}
          <Suspense fallback={null}>
            {c.items.some((i) => isReturnable(i.claimType)) ? <ClaimReturnsCard token={token} /> : null}
            <Messages token={token} />
            <p className="actions">
              {c.hasReview ? (
                <span>Thank you for your review.</span>
              ) : (
                <Link className="button button-secondary" to="/view/$token/review" params={{ token }}>
                  Leave a review
                </Link>
              )}
              <Link className="button button-link" to="/print/$token" params={{ token }}>
                Print
              </Link>
            </p>
          </Suspense>
        </>
      ) : null}
      {lightboxShown ? (
        <Suspense fallback={null}>
          <Lightbox
            images={viewer?.images ?? []}
            startIndex={viewer ? viewer.index : null}
            title={viewer?.title}
            onClose={() => setViewer(null)}
          />
        </Suspense>
      ) : null}
    </Page>
  );
}

export function ViewReviewPage() {
  const token = useToken();
  const claim = useClaim(token);
  const client = useQueryClient();
  const textId = useId();
  const [rating, setRating] = useState(0);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const review = useMutation({
    mutationFn: () => api.addReview(token, { rating, text: text.trim() }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['claim', token] }),
    onError: (e) => setError(errorText(e, 'Your review could not be sent. Please try again.')),
  });
  if (claim.isPending) return <Page title="Loading your claim…" />;
  if (claim.isError) return <ClaimMissing error={claim.error} />;
  const done = review.isSuccess || claim.data.hasReview;
  return (
    <Page title={`My Claim #${claim.data.claimNumber}`} subtitle="How did we do?">
      {done ? (
        <Alert tone="success">Thank you for your review.</Alert>
      ) : (
        <form
          className="stack"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (rating < 1) {
              setError('Choose a rating from 1 to 5.');
              return;
            }
            setError(null);
            review.mutate();
          }}
        >
          <fieldset className="field">
            <legend>Rate how your claim was handled</legend>
            <div className="rating">
              {[1, 2, 3, 4, 5].map((n) => (
                <label key={n} className="choice choice-compact">
                  <input type="radio" name="rating" value={n} checked={rating === n} onChange={() => setRating(n)} />
                  <span>
                    {n} {n === 1 ? 'star' : 'stars'}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className="field">
            <label htmlFor={textId}>Tell us more (optional)</label>
            <textarea id={textId} rows={3} maxLength={5000} value={text} onChange={(e) => setText(e.target.value)} />
          </div>
          {error ? <Alert>{error}</Alert> : null}
          <button type="submit" className="button button-primary" disabled={review.isPending}>
            Submit review
          </button>
        </form>
      )}
      <BackToClaim token={token} />
    </Page>
  );
}

export function PrintPage() {
  const token = useToken();
  const claim = useClaim(token);
  if (claim.isPending) return <Page title="Loading your claim…" />;
  if (claim.isError) return <ClaimMissing error={claim.error} />;
  const c = claim.data;
  return (
    <Page
      title={`Claim #${c.claimNumber}`}
      subtitle={`Order #${c.orderNumber} · Filed ${formatDateTime(c.createdAt)} · ${c.statusLabel}`}
    >
      <table className="print-table">
        <caption className="visually-hidden">Claimed items</caption>
        <ColumnHeads columns={['Item', 'SKU', 'Qty', 'Issue']} />
        <tbody>
          {c.items.map((i) => (
            <tr key={i.id}>
              <td>{i.name}</td>
              <td>{i.sku}</td>
              <td>{i.quantity}</td>
              <td>{issueLabel(i.claimType)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" className="button button-primary no-print" onClick={() => window.print()}>
        Print
      </button>
    </Page>
  );
}
