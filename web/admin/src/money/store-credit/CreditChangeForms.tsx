import { useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import {
  AdjustStoreCreditRequest,
  RedeemStoreCreditRequest,
  currencyDecimals,
  toDecimal,
  toMinor,
  type StoreCreditLedger,
} from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatMoney } from '@claims/format';
import { Alert } from '@claims/ui/components';
import { storeCreditApi } from './storeCreditApi.js';

/** A typed amount as a number of the currency, or what is wrong with it. */
function amountOf(text: string, currency: string): number | string {
  const amount = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(amount)) return 'Enter an amount.';
  if (toDecimal(toMinor(amount, currency), currency) !== amount)
    return `Use at most ${currencyDecimals(currency)} decimals.`;
  return amount;
}

/** One change of a customer's credit: an amount and a text (the redemption's reference or the adjustment's reason). */
function ChangeForm({
  title,
  amountLabel,
  amountHint,
  textLabel,
  submitLabel,
  onSubmit,
  busy,
  error,
}: {
  title: string;
  amountLabel: string;
  amountHint: string;
  textLabel: string;
  submitLabel: string;
  busy: boolean;
  error: string | null;
  onSubmit: (amount: string, text: string, reset: () => void) => string | null;
}) {
  const id = useId();
  const [amount, setAmount] = useState('');
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setProblem(
      onSubmit(amount, text, () => {
        setAmount('');
        setText('');
      }),
    );
  }
  const shown = problem ?? error;
  return (
    <form className="stack card" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{title}</h3>
      <div className="field">
        <label htmlFor={`${id}-amount`}>{amountLabel}</label>
        <input
          id={`${id}-amount`}
          className="small-input"
          type="text"
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          aria-describedby={`${id}-amount-hint`}
          aria-invalid={problem ? true : undefined}
        />
        <p id={`${id}-amount-hint`} className="hint">
          {amountHint}
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${id}-text`}>{textLabel}</label>
        <input id={`${id}-text`} type="text" maxLength={500} value={text} onChange={(e) => setText(e.target.value)} />
      </div>
      {shown ? <Alert>{shown}</Alert> : null}
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

/**
 * Redeem and adjust one customer's credit (`store-credit:update`). The server keeps the balance from going below
 * zero and says so; its answer is the ledger after the change.
 */
export function CreditChangeForms({
  storeId,
  ledger,
  onChanged,
}: {
  storeId: string;
  ledger: StoreCreditLedger;
  onChanged: (ledger: StoreCreditLedger, text: string) => void;
}) {
  const { customerEmail: email, currency, version } = ledger;
  const redeem = useMutation({
    mutationFn: (body: RedeemStoreCreditRequest) => storeCreditApi.redeem(storeId, body),
    onSuccess: (after, body) =>
      onChanged(
        after,
        `${formatMoney(body.amount, currency)} redeemed. The balance is ${formatMoney(after.balance, currency)}.`,
      ),
  });
  const adjust = useMutation({
    mutationFn: (body: AdjustStoreCreditRequest) => storeCreditApi.adjust(storeId, body),
    onSuccess: (after, body) =>
      onChanged(
        after,
        `Adjusted by ${formatMoney(body.amount, currency)}. The balance is ${formatMoney(after.balance, currency)}.`,
      ),
  });
  return (
    <div className="charts">
      <ChangeForm
        title="Redeem credit"
        amountLabel={`Amount to redeem (${currency})`}
        amountHint="At most the balance."
        textLabel="Reference (e.g. the order it paid for)"
        submitLabel="Redeem"
        busy={redeem.isPending}
        error={redeem.isError ? errorText(redeem.error) : null}
        onSubmit={(amountText, reference, reset) => {
          const amount = amountOf(amountText, currency);
          if (typeof amount === 'string') return amount;
          const parsed = RedeemStoreCreditRequest.safeParse({ email, amount, reference, expectedVersion: version });
          if (!parsed.success)
            return amount <= 0 ? 'Redeem more than zero.' : 'Enter the reference (up to 200 characters).';
          redeem.mutate(parsed.data, { onSuccess: reset });
          return null;
        }}
      />
      <ChangeForm
        title="Adjust credit"
        amountLabel={`Adjustment (${currency})`}
        amountHint="Positive adds credit, negative takes it away; never below zero."
        textLabel="Reason"
        submitLabel="Adjust"
        busy={adjust.isPending}
        error={adjust.isError ? errorText(adjust.error) : null}
        onSubmit={(amountText, reason, reset) => {
          const amount = amountOf(amountText, currency);
          if (typeof amount === 'string') return amount;
          const parsed = AdjustStoreCreditRequest.safeParse({ email, amount, reason, expectedVersion: version });
          if (!parsed.success)
            return amount === 0 ? 'An adjustment is not zero.' : 'Give the reason (up to 500 characters).';
          adjust.mutate(parsed.data, { onSuccess: reset });
          return null;
        }}
      />
    </div>
  );
}
