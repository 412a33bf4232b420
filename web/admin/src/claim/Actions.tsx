import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  CLAIM_STATUS_LABELS, ClaimStatus, RESOLUTION_REASON_LABELS, ResolutionReason, ResolutionType, currencyDecimals,
  type AdminClaimDetail, type MacroResolutionPreset, type ResolveClaimRequest,
} from '@claims/contracts';
import { CLOSING_STATUSES } from '@claims/domain';
import { formatMoney } from '@claims/ui';
import { api, isHttpError } from '../api.js';
import { Alert } from '@claims/ui/components';
import { errorText } from '@claims/ui';
import { RESOLUTION_TYPE_LABELS } from '../labels.js';
import { estimateLine } from './resolutionSummary.js';

/** After a change: the answer is the new claim; the history and the lists follow. */
export function useClaimUpdated(claimId: string) {
  const client = useQueryClient();
  return async (claim?: AdminClaimDetail) => {
    if (claim) client.setQueryData(['claim', claimId], claim);
    await Promise.all([
      client.invalidateQueries({ queryKey: ['claim', claimId], refetchType: claim ? 'none' : 'active' }),
      client.invalidateQueries({ queryKey: ['timeline', claimId] }),
      client.invalidateQueries({ queryKey: ['claims'] }),
    ]);
  };
}

/** A 409 version_conflict: someone changed the claim since it was loaded. */
function ConflictAlert({ onReload }: { onReload: () => void }) {
  return (
    <div role="alert" className="alert alert-danger">
      <p><strong>This claim changed while you were working on it.</strong> Someone else updated it after you opened it, so nothing was saved. Reload it to see the latest version, then try again.</p>
      <button type="button" className="button button-secondary" onClick={onReload}>Reload claim</button>
    </div>
  );
}

interface LineDraft { quantity: string; percentage: string }

/**
 * Spec §9 resolve form: type, per-item quantity and percentage, amount, reason; sends expectedVersion.
 * `preset` (a resolution macro, rendered for this claim) fills the form's first values.
 */
export function ResolveForm({ claim, onDone, preset }: { claim: AdminClaimDetail; onDone: (message: string) => void; preset?: MacroResolutionPreset | null }) {
  const id = useId();
  const updated = useClaimUpdated(claim.id);
  const [type, setType] = useState<ResolutionType>(preset?.resolutionType ?? claim.desiredMethod);
  const [creditBasis, setCreditBasis] = useState<'items' | 'amount'>(preset?.resolutionType === 'STORE_CREDIT' && preset.amount !== undefined ? 'amount' : 'items');
  const [lines, setLines] = useState<Record<string, LineDraft>>(() =>
    Object.fromEntries(claim.items.map((item) => [item.id, { quantity: String(item.quantity), percentage: '100' }])));
  const [amount, setAmount] = useState(preset?.amount !== undefined ? String(preset.amount) : '');
  const [reason, setReason] = useState<string>(preset?.reason ?? '');
  const [description, setDescription] = useState(preset?.description ?? '');
  const [problems, setProblems] = useState<string[]>([]);
  const resolve = useMutation({
    mutationFn: (body: ResolveClaimRequest) => api.resolve(claim.id, body),
    onSuccess: async (next) => {
      onDone(next.status === 'DENIED' ? `Claim #${next.claimNumber} was denied.` : `Claim #${next.claimNumber} was resolved.`);
      await updated(next);
    },
  });

  const usesItems = type === 'REFUND' || type === 'RESHIP' || (type === 'STORE_CREDIT' && creditBasis === 'items');
  const usesAmount = type === 'FLAT_RATE' || type === 'CUSTOM' || (type === 'STORE_CREDIT' && creditBasis === 'amount');
  const usesPercentage = type === 'REFUND' || type === 'STORE_CREDIT';
  const step = 1 / 10 ** currencyDecimals(claim.currency);

  const setLine = (itemId: string, key: keyof LineDraft, value: string) =>
    setLines((all) => ({ ...all, [itemId]: { ...(all[itemId] ?? { quantity: '0', percentage: '100' }), [key]: value } }));

  function build(): ResolveClaimRequest | string[] {
    const errors: string[] = [];
    const body: ResolveClaimRequest = { resolutionType: type, expectedVersion: claim.version };
    if (reason) body.reason = ResolutionReason.parse(reason);
    if (type === 'DENY' && !reason) errors.push('Choose a reason for the denial.');
    if (description.trim()) body.description = description.trim();
    if (usesItems) {
      const items: NonNullable<ResolveClaimRequest['items']> = [];
      for (const item of claim.items) {
        const line = lines[item.id];
        const quantity = Number(line?.quantity ?? 0);
        const percentage = Number(line?.percentage ?? 100);
        if (!Number.isInteger(quantity) || quantity < 0 || quantity > item.quantity) {
          errors.push(`${item.name}: the quantity must be a whole number from 0 to ${item.quantity}.`);
          continue;
        }
        if (usesPercentage && (!Number.isFinite(percentage) || percentage < 0 || percentage > 100)) {
          errors.push(`${item.name}: the percentage must be from 0 to 100.`);
          continue;
        }
        if (quantity > 0) items.push({ claimItemId: item.id, quantity, ...(usesPercentage ? { percentage } : {}) });
      }
      if (items.length === 0 && errors.length === 0) errors.push('Resolve at least one item (a quantity above 0).');
      body.items = items;
    }
    if (usesAmount) {
      const value = Number(amount);
      if (!amount || !Number.isFinite(value) || value <= 0) errors.push('Enter an amount above 0.');
      else body.amount = value;
    }
    return errors.length ? errors : body;
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = build();
    if (Array.isArray(body)) {
      setProblems(body);
      return;
    }
    setProblems([]);
    resolve.mutate(body);
  }

  const conflict = isHttpError(resolve.error, 409, 'version_conflict');
  const estimate = usesItems
    ? claim.items.reduce((sum, item) => {
      const line = lines[item.id];
      const q = Number(line?.quantity ?? 0);
      const p = usesPercentage ? Number(line?.percentage ?? 100) : 100;
      return Number.isFinite(q) && Number.isFinite(p) ? sum + estimateLine(item, q, p, claim.currency) : sum;
    }, 0)
    : null;

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Resolve claim</h2>
      <form className="stack" onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-type`}>Resolution type</label>
          <select id={`${id}-type`} value={type} onChange={(e) => setType(ResolutionType.parse(e.target.value))}>
            {ResolutionType.options.map((t) => <option key={t} value={t}>{RESOLUTION_TYPE_LABELS[t]}</option>)}
          </select>
        </div>
        {type === 'STORE_CREDIT' ? (
          <fieldset className="field">
            <legend>Credit</legend>
            <label className="checkbox"><input type="radio" name={`${id}-basis`} checked={creditBasis === 'items'} onChange={() => setCreditBasis('items')} /> The value of the items</label>
            <label className="checkbox"><input type="radio" name={`${id}-basis`} checked={creditBasis === 'amount'} onChange={() => setCreditBasis('amount')} /> A fixed amount</label>
          </fieldset>
        ) : null}
        {usesItems ? (
          <table className="lines">
            <caption>Items to resolve</caption>
            <thead>
              <tr><th scope="col">Item</th><th scope="col">Quantity</th>{usesPercentage ? <th scope="col">Percentage</th> : null}<th scope="col">Value</th></tr>
            </thead>
            <tbody>
              {claim.items.map((item) => {
                const line = lines[item.id] ?? { quantity: '0', percentage: '100' };
                const q = Number(line.quantity);
                const p = usesPercentage ? Number(line.percentage) : 100;
                return (
                  <tr key={item.id}>
                    <th scope="row">{item.name}<span className="muted"> (claimed {item.quantity})</span></th>
                    <td>
                      <input type="number" inputMode="numeric" min={0} max={item.quantity} step={1} className="small-input" aria-label={`Quantity of ${item.name}`}
                        value={line.quantity} onChange={(e) => setLine(item.id, 'quantity', e.target.value)} />
                    </td>
                    {usesPercentage ? (
                      <td>
                        <input type="number" inputMode="decimal" min={0} max={100} step="any" className="small-input" aria-label={`Percentage of ${item.name}`}
                          value={line.percentage} onChange={(e) => setLine(item.id, 'percentage', e.target.value)} />
                      </td>
                    ) : null}
                    <td>{Number.isFinite(q) && Number.isFinite(p) ? formatMoney(estimateLine(item, q, p, claim.currency), claim.currency) : '—'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        ) : null}
        {estimate !== null ? <p>Estimated value to the customer: <strong>{formatMoney(estimate, claim.currency)}</strong></p> : null}
        {usesAmount ? (
          <div className="field">
            <label htmlFor={`${id}-amount`}>Amount ({claim.currency})</label>
            <input id={`${id}-amount`} type="number" inputMode="decimal" min={0} step={step} value={amount} onChange={(e) => setAmount(e.target.value)} />
          </div>
        ) : null}
        <div className="field">
          <label htmlFor={`${id}-reason`}>Reason{type === 'DENY' ? ' (required)' : ''}</label>
          <select id={`${id}-reason`} value={reason} onChange={(e) => setReason(e.target.value)} aria-required={type === 'DENY'}>
            <option value="">{type === 'DENY' ? 'Choose a reason' : 'No reason'}</option>
            {ResolutionReason.options.map((r) => <option key={r} value={r}>{RESOLUTION_REASON_LABELS[r]}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-note`}>Note (optional)</label>
          <textarea id={`${id}-note`} rows={2} maxLength={2_000} value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        {problems.length > 0 ? (
          <div role="alert" className="alert alert-danger"><ul className="plain">{problems.map((p) => <li key={p}>{p}</li>)}</ul></div>
        ) : null}
        {conflict ? <ConflictAlert onReload={() => { resolve.reset(); void updated(); }} /> : null}
        {resolve.isError && !conflict ? <Alert>{errorText(resolve.error)}</Alert> : null}
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={resolve.isPending}>
            {resolve.isPending ? 'Saving…' : type === 'DENY' ? 'Deny claim' : 'Resolve claim'}
          </button>
        </div>
      </form>
    </section>
  );
}

/** Move the claim to one of its allowed next statuses. */
export function StatusForm({ claim }: { claim: AdminClaimDetail }) {
  const id = useId();
  const updated = useClaimUpdated(claim.id);
  const [status, setStatus] = useState<ClaimStatus | ''>('');
  const [note, setNote] = useState('');
  const [reason, setReason] = useState<ResolutionReason | ''>('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // The server holds the rule (domain CLOSING_STATUSES); the form asks for what it will need.
  const needsReason = status !== '' && CLOSING_STATUSES.includes(status) && claim.resolutions.length === 0;
  const change = useMutation({
    mutationFn: (to: ClaimStatus) => api.changeStatus(claim.id, {
      status: to, expectedVersion: claim.version, ...(note.trim() ? { note: note.trim() } : {}), ...(needsReason && reason ? { reason } : {}),
    }),
    onSuccess: async (next) => {
      setDone(`Status changed to ${CLAIM_STATUS_LABELS[next.status]}.`);
      setStatus('');
      setNote('');
      setReason('');
      await updated(next);
    },
  });
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(null);
    if (!status) {
      setProblem('Choose the new status.');
      return;
    }
    if (needsReason && !reason) {
      setProblem('Choose a reason: this claim has no resolution.');
      return;
    }
    setProblem(null);
    change.mutate(status);
  }
  const conflict = isHttpError(change.error, 409, 'version_conflict');
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Change status</h2>
      <form className="stack" onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-status`}>New status</label>
          <select id={`${id}-status`} value={status} onChange={(e) => { const parsed = ClaimStatus.safeParse(e.target.value); setStatus(parsed.success ? parsed.data : ''); }}>
            <option value="">Choose a status</option>
            {claim.allowedTransitions.map((s) => <option key={s} value={s}>{CLAIM_STATUS_LABELS[s]}</option>)}
          </select>
        </div>
        {needsReason ? (
          <div className="field">
            <label htmlFor={`${id}-reason`}>Reason (required)</label>
            <select id={`${id}-reason`} value={reason} aria-required onChange={(e) => { const parsed = ResolutionReason.safeParse(e.target.value); setReason(parsed.success ? parsed.data : ''); }}>
              <option value="">Choose a reason</option>
              {ResolutionReason.options.map((r) => <option key={r} value={r}>{RESOLUTION_REASON_LABELS[r]}</option>)}
            </select>
          </div>
        ) : null}
        <div className="field">
          <label htmlFor={`${id}-note`}>Note (optional)</label>
          <textarea id={`${id}-note`} rows={2} maxLength={2_000} value={note} onChange={(e) => setNote(e.target.value)} />
        </div>
        {problem ? <Alert>{problem}</Alert> : null}
        {conflict ? <ConflictAlert onReload={() => { change.reset(); void updated(); }} /> : null}
        {change.isError && !conflict ? <Alert>{errorText(change.error)}</Alert> : null}
        {done ? <Alert tone="success">{done}</Alert> : null}
        <div className="actions"><button type="submit" className="button button-secondary" disabled={change.isPending}>Change status</button></div>
      </form>
    </section>
  );
}
