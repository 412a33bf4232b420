import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { FinanceReplayRequest, type FinanceReplayView, type StoreCreditKind, type StoreRef } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDay, formatMoney, pluralize } from '@claims/format';
import { Alert, Page } from '@claims/ui/components';
import { holdsInternally, useMe } from '../shared/session.js';
import { financeApi } from './finance/financeApi.js';
import { daysOf, periodProblem } from './finance/period.js';
import { difference } from './finance/totals.js';
import { shortId, storeNameOf } from './finance/references.js';
import { ClaimLink } from './finance/ClaimLink.js';
import { resolutionTypeLabel } from '../shared/labels.js';
import { financeQueries } from './queries.js';
import { DataTable } from '../shared/components/DataTable.js';
import { PeriodFields } from '../shared/components/PeriodFields.js';

export const ReplaySearch = z.object({ replay: z.uuid().optional().catch(undefined) });

/** How often a running replay is asked for its progress. */
const POLL_MS = 500;

/** Period, stores (none chosen: every store) and the candidate money rules the API takes. */
function ReplayForm({
  stores,
  busy,
  onStart,
}: {
  stores: readonly StoreRef[];
  busy: boolean;
  onStart: (request: FinanceReplayRequest) => void;
}) {
  const id = useId();
  const initial = daysOf({});
  const [from, setFrom] = useState(initial.fromDay);
  const [to, setTo] = useState(initial.toDay);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set());
  const [replacementCost, setReplacementCost] = useState('');
  const [revShare, setRevShare] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const wrongPeriod = periodProblem(from, to);
    if (wrongPeriod) return setProblem(wrongPeriod);
    const period = daysOf({ from, to });
    const percent = replacementCost.trim() === '' ? undefined : Number(replacementCost);
    const share = revShare.trim() === '' ? undefined : Number(revShare);
    const rules = {
      ...(percent === undefined ? {} : { replacementCostPercent: percent }),
      ...(share === undefined ? {} : { revShare: { merchantSharePercent: share } }),
    };
    const parsed = FinanceReplayRequest.safeParse({
      from: period.from,
      to: period.to,
      ...(chosen.size > 0 ? { storeIds: stores.filter((s) => chosen.has(s.id)).map((s) => s.id) } : {}),
      ...(Object.keys(rules).length === 0 ? {} : { rules }),
    });
    if (!parsed.success) {
      return setProblem(
        'The replacement cost is a percentage from 0 to 1000 and the revenue share one from 0 to 100, or empty to keep the recorded rules.',
      );
    }
    setProblem(null);
    onStart(parsed.data);
  }
  const toggle = (storeId: string, on: boolean) =>
    setChosen((previous) => {
      const next = new Set(previous);
      if (on) next.add(storeId);
      else next.delete(storeId);
      return next;
    });

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Start a replay</h2>
      <form className="stack" onSubmit={onSubmit} noValidate>
        <div className="filters">
          <PeriodFields
            from={from}
            to={to}
            onFrom={setFrom}
            onTo={setTo}
            fromLabel="Decided from"
            toLabel="Decided to"
          />
        </div>
        <fieldset className="field">
          <legend>Stores</legend>
          <p className="hint" id={`${id}-stores-hint`}>
            None chosen replays every store.
          </p>
          <div
            className="permission-list"
            role="group"
            aria-describedby={`${id}-stores-hint`}
            aria-label="Stores to replay"
          >
            {stores.map((s) => (
              <label key={s.id} className="checkbox">
                <input type="checkbox" checked={chosen.has(s.id)} onChange={(e) => toggle(s.id, e.target.checked)} />
                {s.name}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset className="field">
          <legend>Candidate rules (optional)</legend>
          <div className="field">
            <label htmlFor={`${id}-replacement`}>Replacement cost of a reshipment (% of the items' value)</label>
            <input
              id={`${id}-replacement`}
              className="small-input"
              type="number"
              inputMode="decimal"
              min={0}
              max={1000}
              step="any"
              value={replacementCost}
              onChange={(e) => setReplacementCost(e.target.value)}
              aria-describedby={`${id}-replacement-hint`}
            />
            <p className="hint" id={`${id}-replacement-hint`}>
              Empty: every decision is valued under the rules recorded with it, so the replay equals the live ledger.
            </p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-rev-share`}>Merchant's revenue share of premiums (%)</label>
            <input
              id={`${id}-rev-share`}
              className="small-input"
              type="number"
              inputMode="decimal"
              min={0}
              max={100}
              step="any"
              value={revShare}
              onChange={(e) => setRevShare(e.target.value)}
              aria-describedby={`${id}-rev-share-hint`}
            />
            <p className="hint" id={`${id}-rev-share-hint`}>
              Empty: every invoice keeps the share recorded when it was issued.
            </p>
          </div>
        </fieldset>
        {problem ? (
          <p className="field-error" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={busy}>
            Start replay
          </button>
        </div>
      </form>
    </section>
  );
}

const money = (amount: number | null, currency: string | undefined) =>
  amount === null ? '—' : currency ? formatMoney(amount, currency) : String(amount);

/** That the replay equals what it is compared with, or how many of its `noun` (singular, plural) differ. */
function DifferencesAlert({
  count,
  equal,
  noun: [one, many],
  against,
}: {
  count: number;
  equal: string;
  noun: readonly [string, string];
  against: string;
}) {
  return count === 0 ? (
    <Alert tone="success">{equal}</Alert>
  ) : (
    <Alert tone="warning">
      {pluralize(count, one, many)} of the replay {count === 1 ? 'differs' : 'differ'} from {against}.
    </Alert>
  );
}

/** Live (or issued) and replayed totals per store and currency, side by side with their difference. */
function TotalsTable({
  caption,
  live,
  totals,
  stores,
  none,
}: {
  caption: string;
  live: string;
  totals: FinanceReplayView['stores'];
  stores: readonly StoreRef[];
  none: string;
}) {
  return (
    <DataTable caption={caption}>
      <thead>
        <tr>
          <th scope="col">Store</th>
          <th scope="col">Currency</th>
          <th scope="col">{live}</th>
          <th scope="col">Replayed</th>
          <th scope="col">Difference</th>
        </tr>
      </thead>
      <tbody>
        {totals.map((s) => (
          <tr key={`${s.storeId} ${s.currency}`}>
            <th scope="row">{storeNameOf(stores, s.storeId)}</th>
            <td>{s.currency}</td>
            <td className="numeric">{formatMoney(s.live, s.currency)}</td>
            <td className="numeric">{formatMoney(s.replayed, s.currency)}</td>
            <td className="numeric">{formatMoney(difference(s.replayed, s.live, s.currency), s.currency)}</td>
          </tr>
        ))}
        {totals.length === 0 ? (
          <tr>
            <td colSpan={5}>{none}</td>
          </tr>
        ) : null}
      </tbody>
    </DataTable>
  );
}

const CREDIT_KINDS: Record<StoreCreditKind, string> = {
  issued: 'Issued',
  redeemed: 'Redeemed',
  adjusted: 'Adjusted',
  reclaimed: 'Reclaimed by a reversal',
};

/**
 * Store credit the claims gave (issued, less what reversals reclaimed: the part already redeemed stays counted) beside
 * its replay, and each store-credit entry that differs.
 */
function StoreCreditComparison({
  storeCredit,
  stores,
}: {
  storeCredit: FinanceReplayView['storeCredit'];
  stores: readonly StoreRef[];
}) {
  const { differences } = storeCredit;
  return (
    <>
      <DifferencesAlert
        count={differences.length}
        equal="Replayed store credit equals the live ledger."
        noun={['store-credit entry', 'store-credit entries']}
        against="the live ledger"
      />
      <TotalsTable
        caption="Store credit issued less reclaimed, live and replayed, per store and currency"
        live="Live"
        totals={storeCredit.stores}
        stores={stores}
        none="No store credit in this period."
      />
      {differences.length > 0 ? (
        <DataTable caption="Store-credit entries that differ" columns={['Claim', 'Entry', 'Store', 'Live', 'Replayed']}>
          <tbody>
            {differences.map((d) => (
              <tr key={d.eventId}>
                <th scope="row">
                  {d.claimId ? <ClaimLink claimId={d.claimId} claimNumber={d.claimNumber} /> : 'No claim'}
                </th>
                <td>{CREDIT_KINDS[d.kind]}</td>
                <td>{storeNameOf(stores, d.storeId)}</td>
                <td className="numeric">{money(d.live, d.currency)}</td>
                <td className="numeric">{money(d.replayed, d.currency)}</td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      ) : null}
    </>
  );
}

const LINE_NAMES: Record<FinanceReplayView['invoices']['differences'][number]['line'], string> = {
  premiums: 'Premiums collected',
  rev_share: 'Revenue share',
  claims: 'Claims reimbursed',
  total: 'Total',
};

/** Issued invoices of the period beside their replays: nets per store and currency, and each line that differs with the events behind it. */
function InvoiceComparison({
  invoices,
  stores,
}: {
  invoices: FinanceReplayView['invoices'];
  stores: readonly StoreRef[];
}) {
  const { differences } = invoices;
  return (
    <>
      <DifferencesAlert
        count={differences.length}
        equal="Replayed invoices equal the issued ones."
        noun={['invoice line', 'invoice lines']}
        against="the issued invoices"
      />
      <TotalsTable
        caption="Issued and replayed invoice totals per store and currency"
        live="Issued"
        totals={invoices.stores}
        stores={stores}
        none="No invoice issued for a month of this period."
      />
      {differences.length > 0 ? (
        <DataTable
          caption="Invoice lines that differ, by the events behind them"
          columns={['Invoice', 'Line', 'Issued', 'Replayed', 'Difference', 'Because of']}
        >
          <tbody>
            {differences.map((d) => (
              <tr key={`${d.invoiceId} ${d.line}`}>
                <th scope="row">
                  <Link to="/invoices/$invoiceId" params={{ invoiceId: d.invoiceId }}>
                    {d.number}
                  </Link>
                </th>
                <td>{LINE_NAMES[d.line]}</td>
                <td className="numeric">{money(d.live, d.currency)}</td>
                <td className="numeric">{money(d.replayed, d.currency)}</td>
                <td className="numeric">{formatMoney(d.change, d.currency)}</td>
                <td>
                  {d.causes.length === 0 ? (
                    '—'
                  ) : (
                    <ul className="plain">
                      {d.causes.map((c) => (
                        <li key={`${c.eventId} ${c.claimId ?? ''}`}>
                          {c.claimId ? (
                            <ClaimLink claimId={c.claimId} claimNumber={c.claimNumber} />
                          ) : (
                            "The invoice's recorded share"
                          )}
                          : {formatMoney(c.change, d.currency)}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      ) : null}
    </>
  );
}

function ReplayResult({ view, stores }: { view: FinanceReplayView; stores: readonly StoreRef[] }) {
  const currencyOf = new Map(view.stores.map((s) => [s.storeId, s.currency]));
  return (
    <>
      <DifferencesAlert
        count={view.differences.length}
        equal="Replay equals the live ledger."
        noun={['payout', 'payouts']}
        against="the live ledger"
      />
      <TotalsTable
        caption="Live and replayed totals per store and currency"
        live="Live"
        totals={view.stores}
        stores={stores}
        none="No payouts in this period."
      />
      {view.differences.length > 0 ? (
        <DataTable
          caption="Differences, by the claim that decided them"
          columns={['Claim', 'Store', 'Resolution', 'Live', 'Replayed', 'Difference']}
        >
          <tbody>
            {view.differences.map((d) => {
              const currency = currencyOf.get(d.storeId);
              return (
                <tr key={`${d.eventId} ${d.claimId} ${d.live ?? ''} ${d.replayed ?? ''}`}>
                  <th scope="row">
                    <ClaimLink claimId={d.claimId} claimNumber={d.claimNumber} />
                  </th>
                  <td>{storeNameOf(stores, d.storeId)}</td>
                  <td>{resolutionTypeLabel(d.resolutionType)}</td>
                  <td className="numeric">
                    {money(d.live, currency)}
                    {d.live === null ? <span className="hint"> not in the live ledger</span> : null}
                  </td>
                  <td className="numeric">
                    {money(d.replayed, currency)}
                    {d.replayed === null ? <span className="hint"> not replayed</span> : null}
                  </td>
                  <td className="numeric">
                    {currency ? formatMoney(difference(d.replayed ?? 0, d.live ?? 0, currency), currency) : '—'}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </DataTable>
      ) : null}
      <InvoiceComparison invoices={view.invoices} stores={stores} />
      <StoreCreditComparison storeCredit={view.storeCredit} stores={stores} />
    </>
  );
}

function rulesText(rules: FinanceReplayRequest['rules']): string {
  const tried = [
    rules?.replacementCostPercent === undefined ? null : `replacement cost ${rules.replacementCostPercent}%`,
    rules?.revShare === undefined ? null : `revenue share ${rules.revShare.merchantSharePercent}%`,
  ].filter(Boolean);
  return tried.length === 0 ? ' the recorded rules.' : ` ${tried.join(', ')}.`;
}

/**
 * `/admin/finance/replay`: payouts of a period rebuilt from the events beside the live ledger, optionally under
 * candidate money rules; progress while it runs, then the totals side by side and every difference down to its event.
 */
export function FinanceReplayPage() {
  const me = useMe();
  const search = useSearch({ from: '/app/finance/replay' });
  const navigate = useNavigate();
  const [asked, setAsked] = useState<FinanceReplayRequest | null>(null);
  const mayStart = holdsInternally(me, 'finance:create');
  const start = useMutation({
    mutationFn: (request: FinanceReplayRequest) => financeApi.startReplay(request),
    onSuccess: ({ id }, request) => {
      setAsked(request);
      void navigate({ to: '/finance/replay', search: { replay: id } });
    },
  });
  const replay = useQuery({
    ...financeQueries.replay(search.replay ?? ''),
    enabled: Boolean(search.replay),
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.status === 'running' ? POLL_MS : false),
  });
  const view = replay.data;
  if (!holdsInternally(me, 'finance:read'))
    return (
      <Page title="Finance replay">
        <Alert>You need the finance:read permission to see replays.</Alert>
      </Page>
    );

  return (
    <Page title="Finance replay">
      <p className="hint">
        Rebuilds the payouts and invoices of a period from the events, beside the live ledger and the issued invoices
        (which keep serving), and compares them line by line.
      </p>
      {mayStart ? (
        <ReplayForm stores={me.stores} busy={start.isPending} onStart={(request) => start.mutate(request)} />
      ) : null}
      {start.isError ? <Alert>{errorText(start.error, 'The replay could not be started. Try again.')}</Alert> : null}
      {search.replay ? (
        <section
          className="card stack"
          aria-labelledby="replay-title"
          aria-busy={view?.status === 'running' ? 'true' : 'false'}
        >
          <h2 id="replay-title">Replay {shortId(search.replay)}</h2>
          {asked ? (
            <p className="hint">
              Decided {formatDay(asked.from)} to {formatDay(asked.to)} (UTC days) at{' '}
              {asked.storeIds ? asked.storeIds.map((s) => storeNameOf(me.stores, s)).join(', ') : 'every store'};
              {rulesText(asked.rules)}
            </p>
          ) : null}
          {replay.isError ? <Alert>{errorText(replay.error, 'The replay could not be read. Try again.')}</Alert> : null}
          <p role="status">
            {!view
              ? 'Loading the replay…'
              : view.status === 'running'
                ? 'The replay is running.'
                : view.status === 'done'
                  ? 'The replay is done.'
                  : 'The replay failed.'}
          </p>
          {view ? (
            <>
              <div className="field">
                <label htmlFor="replay-progress">Progress: {Math.floor(view.progress * 100)}%</label>
                <progress id="replay-progress" max={1} value={view.progress} />
              </div>
              {view.status === 'failed' ? <Alert>{view.error ?? 'The replay failed. Start it again.'}</Alert> : null}
              {view.status === 'done' ? <ReplayResult view={view} stores={me.stores} /> : null}
            </>
          ) : null}
        </section>
      ) : null}
    </Page>
  );
}
