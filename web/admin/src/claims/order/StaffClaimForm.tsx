import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  CUSTOMER_RESOLUTION_LABELS,
  CustomerIssueType,
  CustomerResolution,
  ITEM_ISSUE_LABELS,
  SHIPMENT_ISSUE_LABELS,
  StaffFileClaimRequest,
  type AdminOrderView,
} from '@claims/contracts';
import { errorText } from '@claims/ui';
import { Alert } from '@claims/ui/components';
import { orderApi } from './orderApi.js';
import { orderQueries } from '../queries.js';
import { Options } from '../../shared/components/Options.js';

const ISSUE_LABELS: Record<string, string> = { ...ITEM_ISSUE_LABELS, ...SHIPMENT_ISSUE_LABELS };

/**
 * A claim filed by a staff member for the shopper (`claim:create`), e.g. one reported by phone: the
 * portal's submission for one shipment, the staff member's name as its signature.
 */
export function StaffClaimForm({ order, staffName }: { order: AdminOrderView; staffName: string }) {
  const id = useId();
  const navigate = useNavigate();
  const client = useQueryClient();
  const shipments = order.fulfillments.filter((f) =>
    f.items.some((line) => !order.items.find((i) => i.sourceItemId === line.sourceItemId)?.claimed),
  );
  const [fulfillmentId, setFulfillmentId] = useState(shipments[0]?.sourceFulfillmentId ?? '');
  const [picked, setPicked] = useState<Record<string, boolean>>({});
  const [issueType, setIssueType] = useState<string>('DAMAGED');
  const [details, setDetails] = useState('');
  const [method, setMethod] = useState<string>('REFUND');
  const [signature, setSignature] = useState(staffName);
  const [problem, setProblem] = useState<string | null>(null);
  const file = useMutation({
    mutationFn: (body: StaffFileClaimRequest) => orderApi.fileClaim(order.id, body),
    onSuccess: async (filed) => {
      await client.invalidateQueries({ queryKey: orderQueries.detail(order.id).queryKey });
      await navigate({ to: '/claims/view/$claimRef', params: { claimRef: filed.claimId }, search: {} });
    },
  });
  const shipment = order.fulfillments.find((f) => f.sourceFulfillmentId === fulfillmentId);
  const lines = (shipment?.items ?? []).flatMap((line) => {
    const item = order.items.find((i) => i.sourceItemId === line.sourceItemId);
    return item && !item.claimed ? [{ ...item, quantity: line.quantity }] : [];
  });
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const chosen = lines.filter((line) => picked[line.sourceItemId]);
    const parsed = StaffFileClaimRequest.safeParse({
      fulfillmentIssues: [
        {
          sourceFulfillmentId: fulfillmentId,
          issues: chosen.map((line) => ({
            sourceItemId: line.sourceItemId,
            claimType: issueType,
            quantity: line.quantity,
            details,
            images: [],
          })),
        },
      ],
      resolution: { desiredMethod: method, customerSignature: signature.trim(), updatedShippingAddress: null },
    });
    if (chosen.length === 0) {
      setProblem('Choose at least one item.');
      return;
    }
    if (!parsed.success) {
      setProblem(
        signature.trim()
          ? (parsed.error.issues[0]?.message ?? 'Check the claim.')
          : 'Enter the name the claim is signed with.',
      );
      return;
    }
    setProblem(null);
    file.mutate(parsed.data);
  }
  if (shipments.length === 0) {
    return (
      <section className="card" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>File a claim</h2>
        <p className="muted">Every shipped item of this order is already claimed, or nothing has shipped.</p>
      </section>
    );
  }
  return (
    <form className="card stack" onSubmit={onSubmit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>File a claim</h2>
      <p className="hint">
        For the shopper, e.g. a problem reported by phone or email. The shopper gets the claim&apos;s link by mail as
        usual.
      </p>
      <div className="field">
        <label htmlFor={`${id}-shipment`}>Shipment</label>
        <select
          id={`${id}-shipment`}
          value={fulfillmentId}
          onChange={(e) => {
            setFulfillmentId(e.target.value);
            setPicked({});
          }}
        >
          {shipments.map((f) => (
            <option key={f.sourceFulfillmentId} value={f.sourceFulfillmentId}>
              {f.sourceFulfillmentId}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="field">
        <legend>Items</legend>
        {lines.map((line) => (
          <label key={line.sourceItemId}>
            <input
              type="checkbox"
              checked={Boolean(picked[line.sourceItemId])}
              onChange={(e) => setPicked((p) => ({ ...p, [line.sourceItemId]: e.target.checked }))}
            />{' '}
            {line.productName} ({line.sku}) × {line.quantity}
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-issue`}>Issue</label>
        <select id={`${id}-issue`} value={issueType} onChange={(e) => setIssueType(e.target.value)}>
          {CustomerIssueType.options
            .flatMap((o) => o.options)
            .map((t) => (
              <option key={t} value={t}>
                {ISSUE_LABELS[t] ?? t}
              </option>
            ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-details`}>What happened</label>
        <textarea
          id={`${id}-details`}
          rows={3}
          maxLength={5_000}
          value={details}
          onChange={(e) => setDetails(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-method`}>Resolution the shopper asks for</label>
        <select id={`${id}-method`} value={method} onChange={(e) => setMethod(e.target.value)}>
          <Options values={CustomerResolution.options} label={(m) => CUSTOMER_RESOLUTION_LABELS[m]} />
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-signature`}>Signed by</label>
        <input
          id={`${id}-signature`}
          type="text"
          maxLength={200}
          value={signature}
          onChange={(e) => setSignature(e.target.value)}
        />
      </div>
      {problem ? <Alert>{problem}</Alert> : null}
      {file.isError ? <Alert>{errorText(file.error)}</Alert> : null}
      <div className="actions">
        <button type="submit" className="button" disabled={file.isPending}>
          File claim
        </button>
      </div>
    </form>
  );
}
