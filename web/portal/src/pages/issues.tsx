import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import {
  SHIPMENT_ISSUE_LABELS,
  ShipmentIssueType,
  type CustomerFulfillment,
  type CustomerOrder,
} from '@claims/contracts';
import { formatDateTime, pluralize } from '@claims/format';
import { Alert, Modal, Page, TrackingLinks } from '@claims/ui/components';
import { IssueDetails, StepFooter, StepNeeds, useStepForm } from '../components.js';
import { addIssues, claimableQuantity, fileableFulfillments, setState, shortId, usePortal } from '../claimFlowState.js';

function useOrder(): CustomerOrder {
  const order = usePortal((s) => s.order);
  if (!order) throw new Error('No order is loaded.');
  return order;
}

const itemCount = (order: CustomerOrder) =>
  order.fulfillments.reduce((sum, f) => sum + f.items.reduce((n, line) => n + line.quantity, 0), 0);

export function IssuesPage() {
  const order = useOrder();
  const navigate = useNavigate();
  const restored = usePortal((s) => s.restored);
  const otaAcknowledged = usePortal((s) => s.otaAcknowledged);
  const fileable = fileableFulfillments(order);
  const ota = !order.protected && order.isOneTimeAppeasement;

  function choose(category: 'notReceived' | 'issuesWithItems') {
    setState({ category, restored: false });
    if (category === 'notReceived') {
      setState({ selectedShipments: fileable.length === 1 ? [fileable[0]!.id] : [] });
      void navigate({ to: fileable.length === 1 ? '/issues/shipment/details' : '/issues/shipment' });
    } else if (fileable.length > 1) {
      void navigate({ to: '/multiple-shipments' });
    } else {
      setState({ currentShipmentId: fileable[0]?.id ?? null });
      void navigate({ to: '/issues/items' });
    }
  }

  return (
    <Page
      title="What's happening with your order?"
      subtitle={`Order #${order.orderNumber} · ${pluralize(itemCount(order), 'item')}`}
    >
      {restored ? <Alert tone="info">We restored the claim you started earlier.</Alert> : null}
      {ota ? (
        <Alert tone="info">
          This order wasn't protected, but as a one-time courtesy the store will review one claim for it.
        </Alert>
      ) : null}
      {ota && !otaAcknowledged ? (
        <OtaModal
          onContinue={() => setState({ otaAcknowledged: true })}
          onLeave={() => void navigate({ to: '/start' })}
        />
      ) : null}
      <ul className="choices">
        <li>
          <button type="button" className="choice" onClick={() => choose('notReceived')}>
            <span className="choice-title">Haven't received my order</span>
            <span className="choice-help">Stolen, returned to sender, stuck in transit etc.</span>
          </button>
        </li>
        <li>
          <button type="button" className="choice" onClick={() => choose('issuesWithItems')}>
            <span className="choice-title">Issues with my items</span>
            <span className="choice-help">Defective, damaged, wrong or missing items</span>
          </button>
        </li>
      </ul>
    </Page>
  );
}

/** OTA modal: an unprotected order the store grants one courtesy claim (decisions: one-time appeasement) (docs/product.md#portal-screens). */
function OtaModal({ onContinue, onLeave }: { onContinue: () => void; onLeave: () => void }) {
  return (
    <Modal title="A one-time courtesy claim" onClose={onContinue}>
      <p>This order wasn't covered by order protection when you placed it.</p>
      <p>
        As a one-time courtesy, the store will still review one claim for this order. The store decides on it, and this
        courtesy can be used only once. To have future orders covered, add order protection at checkout.
      </p>
      <div className="actions">
        <button type="button" className="button button-secondary" onClick={onLeave}>
          Cancel
        </button>
        <button type="button" className="button button-primary" onClick={onContinue} autoFocus>
          Continue
        </button>
      </div>
    </Modal>
  );
}

function ShipmentSummary({ fulfillment, index }: { fulfillment: CustomerFulfillment; index: number }) {
  const status = fulfillment.fulfillmentStatus === 'DELIVERED' ? 'Delivered' : 'In Transit';
  const when = fulfillment.deliveredAt ?? fulfillment.shippedAt;
  return (
    <span className="shipment">
      <span className="choice-title">
        Shipment {index + 1} · {status}
        {when ? ` ${formatDateTime(when)}` : ''}
      </span>
      <span className="choice-help">
        <TrackingLinks
          shipment={{
            trackingCompany: fulfillment.trackingCompany,
            trackingNumbers: fulfillment.trackingNumber,
            trackingUrls: fulfillment.trackingUrl,
          }}
        />
      </span>
      <span className="choice-help">
        {fulfillment.items.map((l) => `${l.item.productName} × ${l.quantity}`).join(', ')}
      </span>
    </span>
  );
}

/** A step that picks among the order's fileable shipments, each with the input `input` gives it. */
function ShipmentPicker({
  input,
  problem,
  next,
  children,
}: {
  input: (fulfillment: CustomerFulfillment) => ReactNode;
  problem: string | null;
  next: () => void;
  children?: ReactNode;
}) {
  const order = useOrder();
  const { error, onSubmit } = useStepForm(problem, next);
  return (
    <Page
      title="Select the shipment(s) you're having issues with."
      subtitle={`There are ${order.fulfillments.length} different deliveries for this order.`}
    >
      <form className="stack" onSubmit={onSubmit} noValidate>
        <fieldset>
          <legend className="visually-hidden">Shipments</legend>
          <ul className="choices">
            {fileableFulfillments(order).map((f, index) => (
              <li key={f.id}>
                <label className="choice">
                  {input(f)}
                  <ShipmentSummary fulfillment={f} index={index} />
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <StepFooter error={error} back="/issues" />
      </form>
      {children}
    </Page>
  );
}

/** /issues/shipment: which shipments never arrived (several may be picked). */
export function ShipmentListPage() {
  const navigate = useNavigate();
  const selected = usePortal((s) => s.selectedShipments);
  return (
    <ShipmentPicker
      problem={selected.length === 0 ? 'Select at least one shipment.' : null}
      next={() => void navigate({ to: '/issues/shipment/details' })}
      input={(f) => (
        <input
          type="checkbox"
          checked={selected.includes(f.id)}
          onChange={(e) =>
            setState((s) => ({
              selectedShipments: e.target.checked
                ? [...s.selectedShipments, f.id]
                : s.selectedShipments.filter((x) => x !== f.id),
            }))
          }
        />
      )}
    />
  );
}

/** /issues/shipment/details: what happened to the missing shipment(s). */
export function ShipmentDetailsPage() {
  const order = useOrder();
  const navigate = useNavigate();
  const selected = usePortal((s) => s.selectedShipments);
  const claim = usePortal((s) => s.claim);
  const first = selected[0] ? claim.fulfillments[selected[0]] : undefined;
  const [type, setType] = useState<ShipmentIssueType | ''>(
    first?.shipmentIssue && ShipmentIssueType.safeParse(first.shipmentIssue).success
      ? ShipmentIssueType.parse(first.shipmentIssue)
      : '',
  );
  const [details, setDetails] = useState(first?.details ?? '');
  const { error, onSubmit } = useStepForm(type ? null : 'Tell us what happened to your shipment.', () => {
    if (!type) return;
    for (const fid of selected) {
      const fulfillment = order.fulfillments.find((f) => f.id === fid);
      if (!fulfillment) continue;
      const issues = fulfillment.items
        .map((line) => ({ line, quantity: claimableQuantity(order, line.item.sourceItemId, line.quantity) }))
        .filter((x) => x.quantity > 0)
        .map((x) => ({
          id: shortId(),
          sourceItemId: x.line.item.sourceItemId,
          claimType: type,
          quantity: x.quantity,
          details,
          images: [],
        }));
      addIssues(fid, issues, { shipmentIssue: type, details });
    }
    setState({ currentShipmentId: selected[0] ?? null });
    void navigate({ to: '/resolution' });
  });

  if (selected.length === 0)
    return <StepNeeds title="What happened to your shipment?" missing="Select a shipment first." back="/issues" />;

  return (
    <Page title="What happened to your shipment?" subtitle="Haven't received my order">
      <form className="stack" onSubmit={onSubmit} noValidate>
        <fieldset className="field">
          <legend>What's the issue with this shipment?</legend>
          <ul className="choices">
            {(Object.entries(SHIPMENT_ISSUE_LABELS) as Array<[ShipmentIssueType, string]>).map(([code, label]) => (
              <li key={code}>
                <label className="choice choice-compact">
                  <input
                    type="radio"
                    name="shipmentIssue"
                    value={code}
                    checked={type === code}
                    onChange={() => setType(code)}
                  />
                  <span className="choice-title">{label}</span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <IssueDetails value={details} onChange={setDetails} rows={4} />
        <StepFooter error={error} back="/issues" />
      </form>
    </Page>
  );
}

/** /multiple-shipments: which shipment the item issues are about. */
export function MultipleShipmentsPage() {
  const navigate = useNavigate();
  const current = usePortal((s) => s.currentShipmentId);
  const [choice, setChoice] = useState<string | null>(current);
  return (
    <ShipmentPicker
      problem={choice ? null : 'Select a shipment.'}
      next={() => {
        setState({ currentShipmentId: choice });
        void navigate({ to: '/issues/items' });
      }}
      input={(f) => <input type="radio" name="shipment" checked={choice === f.id} onChange={() => setChoice(f.id)} />}
    >
      <p>
        <Link to="/issues">Choose another kind of issue</Link>
      </p>
    </ShipmentPicker>
  );
}
