import { useState, type ReactNode } from 'react';
import { Link, Navigate } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { formatDateTime } from '@claims/format';
import { Page } from '@claims/ui/components';
import { api } from '../api.js';
import { usePortal } from '../claimFlowState.js';

export function HomePage() {
  const order = usePortal((s) => s.order);
  return order ? <Navigate to="/issues" /> : <Navigate to="/start" />;
}

export function ProcessPage() {
  return <Navigate to="/resolution" />;
}

/**
 * How long the "claim received" page keeps asking for a decision, and how often: a store's live rule decides within a
 * second or two of filing (docs/decisions/approved-at-once.md), and after that the claim waits for a person.
 */
const DECISION_WATCH_MS = 6_000;
const DECISION_POLL_MS = 500;

export function ClaimReceivedPage() {
  const submitted = usePortal((s) => s.submitted);
  const order = usePortal((s) => s.order);
  const [shownAt] = useState(() => Date.now());
  // Read when the page shows, not with the order: the store's acknowledgment as it is now.
  const store = useQuery({
    queryKey: ['store', order?.storeId],
    queryFn: () => api.getStore(order!.storeId),
    enabled: Boolean(order),
  });
  // The claim page's own read (same key): what it learns here, the claim page shows at once.
  const claim = useQuery({
    queryKey: ['claim', submitted?.token],
    queryFn: () => api.getClaim(submitted!.token),
    enabled: Boolean(submitted),
    refetchInterval: (query) =>
      query.state.data?.outcome || Date.now() - shownAt > DECISION_WATCH_MS ? false : DECISION_POLL_MS,
  });
  const approved = claim.data?.outcome === 'APPROVED';
  const acknowledgment = store.data?.claimAcknowledgment;
  return (
    <Page
      title={approved ? 'Your claim is approved' : "We've received your claim"}
      subtitle={submitted ? `Claim #${submitted.claimNumber}` : undefined}
    >
      {acknowledgment ? <p className="card">{acknowledgment}</p> : null}
      <div role="status">
        {approved ? (
          <p className="card">
            {store.data?.name ?? 'The store'} approved your claim right away. The claim page shows what you get.
          </p>
        ) : null}
      </div>
      <p>
        We'll email {order?.customerEmail ?? 'you'} with updates. You can follow your claim and message the store at any
        time.
      </p>
      {submitted ? (
        <Link className="button button-primary" to="/view/$token" params={{ token: submitted.token }}>
          View my claim
        </Link>
      ) : null}
      <p>
        <Link to="/start">File a claim for another order</Link>
      </p>
    </Page>
  );
}

/** An order the shopper cannot file a claim on (not yet, or no longer): why, and the way to look up another. */
function CannotFilePage({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <Page title={title} subtitle={subtitle}>
      {children}
      <Link to="/start">Look up another order</Link>
    </Page>
  );
}

export function TooSoonPage() {
  const order = usePortal((s) => s.order);
  const dates = (order?.fulfillments ?? [])
    .flatMap((f) => (f.eligibilityCode === 'too_soon' && f.eligibleAt ? [f.eligibleAt] : []))
    .sort();
  const date = dates[0];
  return (
    <CannotFilePage title="Hold that thought!" subtitle="Your order has been marked as delivered.">
      <ul className="tips">
        <li>If you live in a shared building, check the mailroom or with the building manager.</li>
        <li>Ask your neighbours whether they took the package in for you.</li>
        <li>Check any doorbell or security camera footage.</li>
      </ul>
      <div className="card">
        <p>You can file a claim on:</p>
        <p className="big">{date ? formatDateTime(date) : 'a few days from now'}</p>
        <p>If you still haven't received your package.</p>
      </div>
      <p className="fine-print">
        Claims for packages that were not received can be filed a short time after delivery, because carriers sometimes
        mark a package as delivered before it arrives.
      </p>
    </CannotFilePage>
  );
}

export function TooLatePage() {
  return (
    <CannotFilePage
      title="It's too late to file a claim"
      subtitle="The time to file a claim for this order has passed."
    >
      <p>
        Claims must be filed within the store's claim window after delivery. If you think this is a mistake, please
        contact the store.
      </p>
    </CannotFilePage>
  );
}

export function NotShippedPage() {
  return (
    <CannotFilePage
      title="Your order hasn't shipped yet"
      subtitle="There is nothing to file a claim on until your order ships."
    >
      <p>
        You'll get an email with tracking details once your order is on its way. If something goes wrong after that,
        come back here.
      </p>
    </CannotFilePage>
  );
}
