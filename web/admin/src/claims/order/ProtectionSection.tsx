import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminOrderView } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDateTime, formatMoney } from '@claims/format';
import { Alert } from '@claims/ui/components';
import { isHttpError } from '../../shared/api.js';
import { ConfirmDialog } from '../../shared/components/ConfirmDialog.js';
import { Fact, ProtectionBadge } from '../../shared/components/ui.js';
import { orderApi } from './orderApi.js';
import { orderQueries } from '../queries.js';

const failureText = (error: unknown) =>
  isHttpError(error, 409) ? 'The protection changed meanwhile. Look at it again and try again.' : errorText(error);

/** The order's protection; removing reverses its premium (`protection:remove`), adding records it (`protection:add`). */
export function ProtectionSection({
  order,
  canAdd,
  canRemove,
}: {
  order: AdminOrderView;
  canAdd: boolean;
  canRemove: boolean;
}) {
  const id = useId();
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [premium, setPremium] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const changed = (next: AdminOrderView, text: string) => {
    client.setQueryData(orderQueries.detail(order.id).queryKey, next);
    setNotice(text);
  };
  const remove = useMutation({
    mutationFn: () => orderApi.removeProtection(order.id, order.protectionVersion),
    onSuccess: (next) => {
      setConfirming(false);
      changed(next, 'Protection removed; its premium was reversed.');
    },
  });
  const add = useMutation({
    mutationFn: (premiumPaid?: number) => orderApi.addProtection(order.id, order.protectionVersion, premiumPaid),
    onSuccess: (next) => changed(next, 'The order is protected; its premium was recorded.'),
  });
  const needsPremium = order.policy === null;
  function onAdd(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNotice(null);
    if (!needsPremium) {
      add.mutate(undefined);
      return;
    }
    const value = Number(premium);
    if (!premium.trim() || !Number.isFinite(value) || value <= 0) {
      setProblem('Enter the premium the shopper paid, above 0.');
      return;
    }
    setProblem(null);
    add.mutate(value);
  }
  const { policy } = order;
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Protection</h2>
      <dl className="facts facts-compact">
        <Fact term="Status">
          <ProtectionBadge status={order.protectionStatus} />
        </Fact>
        {policy ? <Fact term="Premium paid">{formatMoney(policy.premiumPaid, policy.premiumCurrency)}</Fact> : null}
        {policy ? <Fact term="Insured amount">{formatMoney(policy.insuredAmount, policy.premiumCurrency)}</Fact> : null}
        {policy?.removedAt ? (
          <Fact term="Removed">
            <time dateTime={policy.removedAt}>{formatDateTime(policy.removedAt)}</time>
          </Fact>
        ) : null}
      </dl>
      <div role="status">{notice ? <p className="alert alert-success">{notice}</p> : null}</div>
      {canRemove && order.protectionStatus === 'protected' ? (
        <div className="actions">
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              setNotice(null);
              remove.reset();
              setConfirming(true);
            }}
          >
            Remove protection
          </button>
        </div>
      ) : null}
      {canAdd && order.protectionStatus !== 'protected' ? (
        <form className="inline-form" onSubmit={onAdd} noValidate aria-label="Add protection">
          {needsPremium ? (
            <div className="field">
              <label htmlFor={`${id}-premium`}>Premium paid ({order.currency})</label>
              <input
                id={`${id}-premium`}
                type="text"
                inputMode="decimal"
                value={premium}
                onChange={(e) => setPremium(e.target.value)}
              />
            </div>
          ) : null}
          <button type="submit" className="button button-secondary" disabled={add.isPending}>
            Add protection
          </button>
        </form>
      ) : null}
      {problem ? <Alert>{problem}</Alert> : null}
      {add.isError ? <Alert>{failureText(add.error)}</Alert> : null}
      <ConfirmDialog
        open={confirming}
        title={`Remove the protection of order ${order.orderNumber}?`}
        confirmLabel="Remove protection"
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => setConfirming(false)}
      >
        <p>Its premium is reversed, and new claims on this order are no longer protected.</p>
        {remove.isError ? <Alert>{failureText(remove.error)}</Alert> : null}
      </ConfirmDialog>
    </section>
  );
}
