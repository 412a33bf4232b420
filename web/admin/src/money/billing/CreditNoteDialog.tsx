import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  currencyDecimals,
  INVOICE_LINE_LABELS,
  toDecimal,
  toMinor,
  type InvoiceLineKind,
  type InvoiceView,
} from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatMoney } from '@claims/format';
import { Alert } from '@claims/ui/components';
import { Dialog } from '../../shared/components/Dialog.js';
import { billingApi } from '../../shared/api.js';
import { untilShown } from './readModel.js';
import { invoiceQueries } from '../queries.js';
import { SubmitOrCancel } from '../../shared/components/SubmitOrCancel.js';

/** What is left of each invoice line to take back (minor units): its magnitude less what credit notes took already. */
function creditable(invoice: InvoiceView): Array<{ kind: InvoiceLineKind; left: number }> {
  const minor = (amount: number) => Math.abs(toMinor(amount, invoice.currency));
  return invoice.lines.map((line) => ({
    kind: line.kind,
    left:
      minor(line.amount) -
      invoice.creditNotes
        .flatMap((n) => n.lines)
        .filter((l) => l.kind === line.kind)
        .reduce((sum, l) => sum + minor(l.amount), 0),
  }));
}

function CreditNoteForm({
  invoice,
  onIssued,
  onCancel,
}: {
  invoice: InvoiceView;
  onIssued: (text: string) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const client = useQueryClient();
  const lines = creditable(invoice).filter((l) => l.left > 0);
  const [amounts, setAmounts] = useState<Partial<Record<InvoiceLineKind, string>>>({});
  const [reason, setReason] = useState('');
  const [problems, setProblems] = useState<Partial<Record<InvoiceLineKind | 'reason' | 'lines', string>>>({});
  const step = 1 / 10 ** currencyDecimals(invoice.currency);
  const issue = useMutation({
    mutationFn: (body: Parameters<typeof billingApi.creditNote>[1]) => billingApi.creditNote(invoice.id, body),
    onSuccess: async (note) => {
      client.setQueryData(
        invoiceQueries.detail(invoice.id).queryKey,
        await untilShown(
          () => billingApi.invoice(invoice.id),
          (v) => v.creditNotes.some((n) => n.id === note.id),
        ),
      );
      await client.invalidateQueries({ queryKey: invoiceQueries.list(invoice.storeId).queryKey });
      onIssued(`Credit note ${note.number} issued on ${invoice.number}: ${formatMoney(note.total, invoice.currency)}.`);
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: typeof problems = {};
    const chosen: Array<{ kind: InvoiceLineKind; amount: number }> = [];
    for (const { kind, left } of lines) {
      const text = amounts[kind]?.trim();
      if (!text) continue;
      const amount = Number(text);
      if (!Number.isFinite(amount) || amount <= 0) found[kind] = 'Enter a positive amount, or leave it empty.';
      else if (toMinor(amount, invoice.currency) > left)
        found[kind] =
          `At most ${formatMoney(toDecimal(left, invoice.currency), invoice.currency)}: a credit note never exceeds its invoice.`;
      else chosen.push({ kind, amount });
    }
    if (chosen.length === 0 && Object.keys(found).length === 0)
      found.lines = 'Enter the amount to take back of at least one line.';
    if (!reason.trim()) found.reason = 'Say why the invoice is corrected.';
    setProblems(found);
    if (Object.keys(found).length === 0) issue.mutate({ lines: chosen, reason: reason.trim() });
  }

  if (lines.length === 0) {
    return (
      <>
        <p>Every line of {invoice.number} is credited in full already.</p>
        <div className="actions">
          <button type="button" className="button button-secondary" onClick={onCancel}>
            Close
          </button>
        </div>
      </>
    );
  }
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <p className="hint">
        A credit note takes back part of the invoice&apos;s lines; the invoice itself never changes.
      </p>
      {problems.lines ? (
        <p className="field-error" role="alert">
          {problems.lines}
        </p>
      ) : null}
      {lines.map(({ kind, left }) => (
        <div className="field" key={kind}>
          <label htmlFor={`${id}-${kind}`}>
            {INVOICE_LINE_LABELS[kind]} to take back ({invoice.currency})
          </label>
          <input
            id={`${id}-${kind}`}
            type="number"
            inputMode="decimal"
            min={0}
            step={step}
            value={amounts[kind] ?? ''}
            onChange={(e) => setAmounts((a) => ({ ...a, [kind]: e.target.value }))}
            aria-invalid={problems[kind] ? true : undefined}
            aria-describedby={`${id}-${kind}-hint${problems[kind] ? ` ${id}-${kind}-error` : ''}`}
          />
          <p className="hint" id={`${id}-${kind}-hint`}>
            Up to {formatMoney(toDecimal(left, invoice.currency), invoice.currency)}.
          </p>
          {problems[kind] ? (
            <p className="field-error" id={`${id}-${kind}-error`}>
              {problems[kind]}
            </p>
          ) : null}
        </div>
      ))}
      <div className="field">
        <label htmlFor={`${id}-reason`}>Reason</label>
        <textarea
          id={`${id}-reason`}
          rows={3}
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          aria-invalid={problems.reason ? true : undefined}
          aria-describedby={problems.reason ? `${id}-reason-error` : undefined}
        />
        {problems.reason ? (
          <p className="field-error" id={`${id}-reason-error`}>
            {problems.reason}
          </p>
        ) : null}
      </div>
      {issue.isError ? <Alert>{errorText(issue.error)}</Alert> : null}
      <SubmitOrCancel submit="Issue credit note" busy={issue.isPending} onCancel={onCancel} />
    </form>
  );
}

/** A credit note for an issued invoice (`invoice:update`): per line an amount to take back, and why. */
export function CreditNoteDialog({
  invoice,
  onClose,
  onIssued,
}: {
  invoice: InvoiceView | null;
  onClose: () => void;
  onIssued: (text: string) => void;
}) {
  return (
    <Dialog open={invoice !== null} title={`Credit note for ${invoice?.number ?? 'invoice'}`} onClose={onClose}>
      {invoice ? <CreditNoteForm key={invoice.id} invoice={invoice} onIssued={onIssued} onCancel={onClose} /> : null}
    </Dialog>
  );
}
