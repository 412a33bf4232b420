import { useEffect, useId, useState, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import {
  ITEM_ISSUE_LABELS,
  ItemIssueType,
  type CustomerItem,
  type DraftIssue,
  type ImageRef,
  type UploadProof,
} from '@claims/contracts';
import { formatItemMoney } from '@claims/format';
import { Alert, Modal, Page } from '@claims/ui/components';
import { BackLink, IssueDetails, ItemThumb, issueLabel } from '../components.js';
import { PhotoUpload } from '../photoUpload.js';
import { addIssues, claimableQuantity, removeIssue, shortId, usePortal } from '../claimFlowState.js';

interface Candidate {
  item: CustomerItem;
  max: number;
}

type Step = 'same' | 'count' | 'form';

/** Item issue modal: quantity questions, then issue type, details and photos, one product at a time (docs/product.md#portal-screens). */
function IssueModal({
  queue,
  existing,
  proof,
  onDone,
  onCancel,
}: {
  queue: Candidate[];
  proof: UploadProof;
  existing: Map<string, DraftIssue>;
  onDone: (issues: DraftIssue[]) => void;
  onCancel: () => void;
}) {
  const typeId = useId();
  const countId = useId();
  const [index, setIndex] = useState(0);
  const [collected, setCollected] = useState<DraftIssue[]>([]);
  const candidate = queue[index]!;
  const previous = existing.get(candidate.item.sourceItemId);
  const [step, setStep] = useState<Step>(candidate.max > 1 ? 'same' : 'form');
  const [quantity, setQuantity] = useState(previous?.quantity ?? candidate.max);
  const [type, setType] = useState<ItemIssueType | ''>('');
  const [details, setDetails] = useState('');
  const [images, setImages] = useState<ImageRef[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const prev = existing.get(candidate.item.sourceItemId);
    const parsedType = ItemIssueType.safeParse(prev?.claimType);
    setStep(candidate.max > 1 ? 'same' : 'form');
    setQuantity(prev?.quantity ?? candidate.max);
    setType(parsedType.success ? parsedType.data : '');
    setDetails(prev?.details ?? '');
    setImages(prev?.images ?? []);
    setError(null);
    // Only a new product resets the form; `existing` and `candidate` are read at that moment.
  }, [index]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!type) {
      setError('Select the issue with this item.');
      return;
    }
    const issue: DraftIssue = {
      id: previous?.id ?? shortId(),
      sourceItemId: candidate.item.sourceItemId,
      claimType: type,
      quantity,
      details: details.trim(),
      images,
    };
    const all = [...collected, issue];
    if (index + 1 < queue.length) {
      setCollected(all);
      setIndex(index + 1);
    } else {
      onDone(all);
    }
  }

  return (
    <Modal
      title="Tell us about your issue"
      onClose={onCancel}
      eyebrow={
        <p className="progress-text">
          Product {index + 1} / {queue.length}
        </p>
      }
    >
      <div className="item-row">
        <ItemThumb src={candidate.item.productImage} name={candidate.item.productName} />
        <span>
          <strong>{candidate.item.productName}</strong>
        </span>
      </div>
      {step === 'same' ? (
        <div className="stack">
          <p>You ordered {candidate.max} of this item. Do they all have the same issue?</p>
          <div className="actions">
            <button
              type="button"
              className="button button-primary"
              onClick={() => {
                setQuantity(candidate.max);
                setStep('form');
              }}
            >
              Yes, they do
            </button>
            <button
              type="button"
              className="button button-secondary"
              onClick={() => {
                setQuantity(Math.min(quantity, candidate.max - 1) || 1);
                setStep('count');
              }}
            >
              No, they don't
            </button>
          </div>
          <button type="button" className="button button-link" onClick={onCancel}>
            Cancel
          </button>
        </div>
      ) : null}
      {step === 'count' ? (
        <div className="stack">
          <div className="field">
            <label htmlFor={countId}>From the {candidate.max} you ordered, how many have issues?</label>
            <select id={countId} value={quantity} onChange={(e) => setQuantity(Number(e.target.value))}>
              {Array.from({ length: candidate.max }, (_, i) => i + 1).map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </div>
          <div className="actions">
            <button type="button" className="button button-secondary" onClick={onCancel}>
              Cancel
            </button>
            <button type="button" className="button button-primary" onClick={() => setStep('form')}>
              Continue
            </button>
          </div>
        </div>
      ) : null}
      {step === 'form' ? (
        <form className="stack" onSubmit={onSubmit} noValidate>
          {candidate.max > 1 ? <p className="hint">Items with this issue: {quantity}</p> : null}
          <div className="field">
            <label htmlFor={typeId}>What's the issue with this item?</label>
            <select
              id={typeId}
              value={type}
              required
              aria-invalid={Boolean(error)}
              onChange={(e) => {
                const parsed = ItemIssueType.safeParse(e.target.value);
                setType(parsed.success ? parsed.data : '');
              }}
            >
              <option value="" disabled>
                Select issue
              </option>
              {(Object.entries(ITEM_ISSUE_LABELS) as Array<[ItemIssueType, string]>).map(([code, label]) => (
                <option key={code} value={code}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <IssueDetails value={details} onChange={setDetails} rows={3} />
          <PhotoUpload label="Upload photos" proof={proof} value={images} onChange={setImages} />
          {error ? <Alert>{error}</Alert> : null}
          <div className="actions">
            <button type="button" className="button button-secondary" onClick={onCancel}>
              Cancel
            </button>
            <button type="submit" className="button button-primary">
              Add issue to claim
            </button>
          </div>
        </form>
      ) : null}
    </Modal>
  );
}

export function ItemsPage() {
  const order = usePortal((s) => s.order);
  const currentId = usePortal((s) => s.currentShipmentId);
  const claim = usePortal((s) => s.claim);
  const navigate = useNavigate();
  const [selected, setSelected] = useState<string[]>([]);
  const [queue, setQueue] = useState<Candidate[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fulfillment = order?.fulfillments.find((f) => f.id === currentId);

  if (!order || !fulfillment) {
    return (
      <Page title="Tell us about your issues.">
        <Alert>Choose a shipment first.</Alert>
        <BackLink to="/issues" />
      </Page>
    );
  }
  const draft = claim.fulfillments[fulfillment.id];
  const existing = new Map((draft?.issues ?? []).map((i) => [i.sourceItemId, i]));
  const candidates: Candidate[] = fulfillment.items.map((line) => ({
    item: line.item,
    max: claimableQuantity(order, line.item.sourceItemId, line.quantity),
  }));

  function onContinue() {
    setError(null);
    const picked = candidates.filter((c) => selected.includes(c.item.sourceItemId) && c.max > 0);
    if (picked.length > 0) {
      setQueue(picked);
    } else if ((draft?.issues.length ?? 0) > 0) {
      void navigate({ to: '/resolution' });
    } else {
      setError('Select at least one item with an issue.');
    }
  }

  return (
    <Page title="Tell us about your issues." subtitle={`Order #${order.orderNumber}`}>
      <h2>Select items with issues</h2>
      <ul className="choices">
        {candidates.map(({ item, max }) => {
          const issue = existing.get(item.sourceItemId);
          const options = Object.entries(item.selectedOptions)
            .map(([k, v]) => `${k[0]?.toUpperCase() ?? ''}${k.slice(1)}: ${v}`)
            .join(' · ');
          return (
            <li key={item.sourceItemId}>
              <label className={`choice${max === 0 ? ' choice-disabled' : ''}`}>
                <input
                  type="checkbox"
                  disabled={max === 0}
                  checked={selected.includes(item.sourceItemId)}
                  onChange={(e) =>
                    setSelected((s) =>
                      e.target.checked ? [...s, item.sourceItemId] : s.filter((x) => x !== item.sourceItemId),
                    )
                  }
                />
                <ItemThumb src={item.productImage} name={item.productName} />
                <span className="shipment">
                  <span className="choice-title">{item.productName}</span>
                  {options ? <span className="choice-help">{options}</span> : null}
                  <span className="choice-help">
                    {formatItemMoney(item.price, order.currency)} · Qty {item.quantity}
                  </span>
                  {max === 0 ? <span className="choice-help">Already claimed</span> : null}
                  {issue?.claimType ? (
                    <span className="badge badge-info">
                      Issue added: {issueLabel(issue.claimType)} × {issue.quantity}
                    </span>
                  ) : null}
                </span>
              </label>
              {issue ? (
                <button
                  type="button"
                  className="button button-link"
                  onClick={() => removeIssue(fulfillment.id, issue.id)}
                >
                  Remove<span className="visually-hidden"> issue for {item.productName}</span>
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
      {error ? <Alert>{error}</Alert> : null}
      <div className="actions">
        <BackLink to="/issues" />
        <button type="button" className="button button-primary" onClick={onContinue}>
          Continue
        </button>
      </div>
      {queue ? (
        <IssueModal
          queue={queue}
          existing={existing}
          proof={{ orderId: order.systemOrderId, email: order.customerEmail }}
          onCancel={() => setQueue(null)}
          onDone={(issues) => {
            addIssues(fulfillment.id, issues);
            setQueue(null);
            setSelected([]);
            void navigate({ to: '/resolution' });
          }}
        />
      ) : null}
    </Page>
  );
}
