import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PayoutBatch, PayoutBatchStatus, StoreRef } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDateTime, formatMoney, pluralize } from '@claims/format';
import { Alert } from '@claims/ui/components';
import { holdsInternally, useMe } from '../../shared/session.js';
import { Badge, type BadgeTone } from '../../shared/components/ui.js';
import { financeApi } from './financeApi.js';
import { shortId } from './references.js';
import { financeQueries } from '../queries.js';
import { DataTable } from '../../shared/components/DataTable.js';

const STATUS_TONES: Record<PayoutBatchStatus, BadgeTone> = { created: 'warning', approved: 'info', paid: 'success' };

/** Who took a step and when, or what it waits for. */
function Step({ by, at, children }: { by: string | null; at: string | null; children?: ReactNode }) {
  if (!at) return <>{children ?? '—'}</>;
  return (
    <>
      {by ?? 'Someone'}
      <br />
      <time className="hint" dateTime={at}>
        {formatDateTime(at)}
      </time>
      {children}
    </>
  );
}

function PayForm({ batch, busy, onPay }: { batch: PayoutBatch; busy: boolean; onPay: (reference: string) => void }) {
  const id = useId();
  const [reference, setReference] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!reference.trim()) return setProblem("Enter the transfer's reference.");
    setProblem(null);
    onPay(reference.trim());
  }
  return (
    <form className="inline-form" onSubmit={onSubmit} noValidate>
      <div className="field">
        <label htmlFor={id}>
          Transfer reference<span className="visually-hidden"> for batch {shortId(batch.id)}</span>
        </label>
        <input
          id={id}
          type="text"
          maxLength={200}
          value={reference}
          onChange={(e) => setReference(e.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
        />
      </div>
      <button
        type="submit"
        className="button button-primary"
        disabled={busy}
        aria-label={`Mark batch ${shortId(batch.id)} paid`}
      >
        Mark paid
      </button>
      {problem ? (
        <p id={`${id}-problem`} className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
    </form>
  );
}

/**
 * A store's payout batches: finance gathers the pending entries into a batch, someone other than its maker
 * approves it (four eyes), and it is marked paid with the transfer's reference. Each step shows who and when.
 */
export function PayoutBatches({ store }: { store: StoreRef }) {
  const me = useMe();
  const client = useQueryClient();
  const batches = useQuery(financeQueries.payoutBatches(store.id));
  const [notice, setNotice] = useState<{ tone: 'success' | 'danger'; text: string } | null>(null);
  // The list is a read model a moment behind the command: the answer of each step goes straight into it.
  const settle = async (batch: PayoutBatch, text: string) => {
    client.setQueryData(financeQueries.payoutBatches(store.id).queryKey, (old) => ({
      data: [batch, ...(old?.data ?? []).filter((b) => b.id !== batch.id)].sort((a, b) =>
        b.createdAt.localeCompare(a.createdAt),
      ),
    }));
    setNotice({ tone: 'success', text });
    await client.invalidateQueries({ queryKey: financeQueries.payoutEntries.all() });
  };
  const failed = (text: string) => (error: unknown) =>
    setNotice({ tone: 'danger', text: `${text} ${errorText(error)}` });
  const create = useMutation({
    mutationFn: () => financeApi.createBatch(store.id),
    onSuccess: (b) =>
      settle(
        b,
        `Batch ${shortId(b.id)} made: ${pluralize(b.entryIds.length, 'entry', 'entries')}, ${formatMoney(b.total, b.currency)}. Someone other than you approves it.`,
      ),
    onError: failed('No batch was made.'),
  });
  const approve = useMutation({
    mutationFn: (b: PayoutBatch) => financeApi.approveBatch(store.id, b.id),
    onSuccess: (b) => settle(b, `Batch ${shortId(b.id)} approved; it can be marked paid.`),
    onError: (error, b) => failed(`Batch ${shortId(b.id)} was not approved.`)(error),
  });
  const pay = useMutation({
    mutationFn: ({ batch, reference }: { batch: PayoutBatch; reference: string }) =>
      financeApi.payBatch(store.id, batch.id, reference),
    onSuccess: (b) => settle(b, `Batch ${shortId(b.id)} marked paid (${b.reference ?? ''}).`),
    onError: (error, { batch }) => failed(`Batch ${shortId(batch.id)} was not marked paid.`)(error),
  });
  const mayCreate = holdsInternally(me, 'payout:create');
  const mayApprove = holdsInternally(me, 'finance-admin:update');
  const mayPay = holdsInternally(me, 'payout:update');
  const list = batches.data?.data ?? [];

  return (
    <section className="card stack" aria-labelledby="batches-title">
      <h2 id="batches-title">Payout batches of {store.name}</h2>
      {mayCreate ? (
        <div className="actions">
          <button
            type="button"
            className="button button-primary"
            disabled={create.isPending}
            onClick={() => {
              setNotice(null);
              create.mutate();
            }}
          >
            Create batch
          </button>
          <p className="hint">
            Gathers every pending entry of {store.name} that is in no batch yet, whatever the period above.
          </p>
        </div>
      ) : null}
      <div role="status">
        {notice?.tone === 'success' ? <p className="alert alert-success">{notice.text}</p> : null}
      </div>
      {notice?.tone === 'danger' ? <Alert>{notice.text}</Alert> : null}
      {batches.isError ? (
        <Alert>{errorText(batches.error, 'The batches could not be loaded. Try again.')}</Alert>
      ) : null}
      {batches.isPending ? <p className="muted">Loading the batches…</p> : null}
      {batches.data && list.length === 0 ? <p className="muted">No payout batches yet.</p> : null}
      {list.length > 0 ? (
        <DataTable
          caption={`Payout batches of ${store.name}`}
          captionHidden
          columns={['Batch', 'Total', 'Status', 'Created', 'Approved', 'Paid']}
        >
          <tbody>
            {list.map((batch) => {
              const mine = batch.createdBy === me.user.id;
              return (
                <tr key={batch.id}>
                  <th scope="row">
                    Batch {shortId(batch.id)}
                    <p className="hint">{pluralize(batch.entryIds.length, 'entry', 'entries')}</p>
                  </th>
                  <td className="numeric">{formatMoney(batch.total, batch.currency)}</td>
                  <td>
                    <Badge tone={STATUS_TONES[batch.status]}>{batch.status}</Badge>
                  </td>
                  <td>
                    <Step by={batch.createdByName} at={batch.createdAt} />
                  </td>
                  <td>
                    <Step by={batch.approvedByName} at={batch.approvedAt}>
                      {batch.status !== 'created' ? null : mine ? (
                        // Four eyes: the server refuses the maker's approval (403), so the maker is not offered it.
                        <>
                          Waiting for another approver
                          <p className="hint">You made this batch: someone else approves it.</p>
                        </>
                      ) : mayApprove ? (
                        <button
                          type="button"
                          className="button button-secondary"
                          disabled={approve.isPending}
                          aria-label={`Approve batch ${shortId(batch.id)}`}
                          onClick={() => {
                            setNotice(null);
                            approve.mutate(batch);
                          }}
                        >
                          Approve
                        </button>
                      ) : (
                        <>
                          Waiting for approval
                          <p className="hint">Approving batches is not part of your role.</p>
                        </>
                      )}
                    </Step>
                  </td>
                  <td>
                    <Step by={batch.paidByName} at={batch.paidAt}>
                      {batch.paidAt ? (
                        <p className="hint">Reference {batch.reference}</p>
                      ) : batch.status === 'approved' && mayPay ? (
                        <PayForm
                          batch={batch}
                          busy={pay.isPending}
                          onPay={(reference) => {
                            setNotice(null);
                            pay.mutate({ batch, reference });
                          }}
                        />
                      ) : batch.status === 'created' ? (
                        'After approval'
                      ) : null}
                    </Step>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </DataTable>
      ) : null}
    </section>
  );
}
