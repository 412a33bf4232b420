import { useId, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { directionLabel, type InvoiceView, type StoreRef } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatMonth } from '@claims/format';
import { Alert } from '@claims/ui/components';
import { billingApi } from '../../shared/api.js';
import { ConfirmDialog } from '../../shared/components/ConfirmDialog.js';
import { InvoiceLinesTable, Owed } from './InvoiceLinesTable.js';
import { untilShown } from './readModel.js';
import { invoiceQueries } from '../queries.js';

/** A month's invoice as the ledger has it now, and issuing it once the month is over (`invoice:create`). */
export function DraftCard({ store, month }: { store: StoreRef; month: string }) {
  const id = useId();
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [issued, setIssued] = useState<InvoiceView | null>(null);
  const draft = useQuery(invoiceQueries.draft(store.id, month));
  const issue = useMutation({
    mutationFn: () => billingApi.issue({ storeId: store.id, month }),
    onSuccess: async (invoice) => {
      client.setQueryData(invoiceQueries.detail(invoice.id).queryKey, invoice);
      client.setQueryData(
        invoiceQueries.list(store.id).queryKey,
        await untilShown(
          () => billingApi.invoices(store.id),
          (list) => list.data.some((i) => i.id === invoice.id),
        ),
      );
      await client.invalidateQueries({ queryKey: invoiceQueries.drafts(store.id) });
      setConfirming(false);
      setIssued(invoice);
    },
  });
  const named = formatMonth(month, 'long');
  const d = draft.data;
  return (
    <section className="card stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Draft for {named}</h2>
      <div role="status">
        {issued ? (
          <p className="alert alert-success">
            Invoice {issued.number} issued.{' '}
            <Link to="/invoices/$invoiceId" params={{ invoiceId: issued.id }}>
              Open invoice {issued.number}
            </Link>
          </p>
        ) : null}
      </div>
      {draft.isPending ? <p className="muted">Computing the draft from the ledger…</p> : null}
      {draft.isError ? <Alert>{errorText(draft.error, 'The draft could not be computed. Try again.')}</Alert> : null}
      {d ? (
        <>
          <p className="hint">
            From the ledger of {named} (UTC), with the store&apos;s revenue share of {d.revSharePercent}%.
          </p>
          <InvoiceLinesTable
            caption={`Draft lines for ${named}`}
            lines={d.lines}
            total={d.total}
            currency={d.currency}
          />
          <Owed label={directionLabel(d.direction, d.storeName)} amount={d.total} currency={d.currency} />
          {d.issuedInvoiceId ? (
            <p>
              {named} is invoiced already:{' '}
              <Link to="/invoices/$invoiceId" params={{ invoiceId: d.issuedInvoiceId }}>
                open its invoice
              </Link>
              . Later changes to the ledger are corrected with a credit note.
            </p>
          ) : d.monthEnded ? (
            <div className="actions">
              <button
                type="button"
                className="button button-primary"
                onClick={() => {
                  issue.reset();
                  setConfirming(true);
                }}
              >
                Issue invoice for {named}
              </button>
            </div>
          ) : (
            <Alert tone="info">{named} has not ended yet: its invoice is issued once the month is over.</Alert>
          )}
        </>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={`Issue the invoice for ${named}?`}
        confirmLabel="Issue invoice"
        busy={issue.isPending}
        onConfirm={() => issue.mutate()}
        onClose={() => setConfirming(false)}
      >
        <p>
          {store.name} is invoiced these figures as they are now. An issued invoice never changes: a correction is a
          credit note.
        </p>
        {issue.isError ? <Alert>{errorText(issue.error)}</Alert> : null}
      </ConfirmDialog>
    </section>
  );
}
