import { lazy, Suspense, useId, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { RuleInput } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatCount, formatMoney } from '@claims/format';
import { Alert, ColumnHeads } from '@claims/ui/components';
import { automationApi } from '../automationApi.js';
import { ruleQueries } from '../queries.js';
import { FieldProblem } from './ConditionFields.js';
import { OUTCOME_LABELS } from './ruleDraft.js';
import { PeriodFields } from '../../shared/components/PeriodFields.js';

// recharts is most of a chart page's script: loaded when a backtest has something to draw.
const BacktestChart = lazy(() => import('./BacktestChart.js').then((m) => ({ default: m.BacktestChart })));

const DAY_MS = 86_400_000;
const isoDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/**
 * "Backtest" before saving: the draft tried over a period of the store's history (whole UTC days), changing nothing;
 * its progress while it runs, then what it matched and decided, by week, and every claim where it disagrees with
 * what was decided, linked.
 */
export function BacktestPanel({
  storeId,
  currency,
  check,
  signature,
}: {
  storeId: string;
  currency: string;
  /** The draft checked: null while it has problems (the builder shows them by their fields). */
  check: () => RuleInput | null;
  /** The draft as it is now, to tell a result of an earlier draft. */
  signature: string;
}) {
  const id = useId();
  const [from, setFrom] = useState(() => isoDay(Date.now() - 90 * DAY_MS));
  const [to, setTo] = useState(() => isoDay(Date.now()));
  const [run, setRun] = useState<{ id: string; signature: string } | null>(null);
  const start = useMutation({
    mutationFn: (rule: RuleInput) => automationApi.startBacktest(storeId, { rule, from, to }),
    onSuccess: (started) => setRun({ id: started.id, signature }),
  });
  const result = useQuery({ ...ruleQueries.backtest(storeId, run?.id ?? ''), enabled: run !== null });
  const view = result.data;
  const running = start.isPending || view?.status === 'running';
  const periodProblem = start.isError ? errorText(start.error) : undefined;
  return (
    <section className="stack backtest" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Backtest</h3>
      <p className="hint">
        Try the rule over the claims filed in a period, as if it had been first in the list: nothing changes.
      </p>
      <div className="inline-form">
        <PeriodFields
          from={from}
          to={to}
          onFrom={setFrom}
          onTo={setTo}
          problemId={periodProblem ? `${id}-problem` : undefined}
        />
        <button
          type="button"
          className="button button-secondary"
          disabled={running}
          onClick={() => {
            const rule = check();
            if (rule) start.mutate(rule);
          }}
        >
          Run backtest
        </button>
      </div>
      <FieldProblem id={`${id}-problem`} problem={periodProblem} />
      <div role="status">
        {running ? (
          <div className="field">
            <label htmlFor={`${id}-progress`}>Backtest running: {Math.round((view?.progress ?? 0) * 100)}%</label>
            <progress id={`${id}-progress`} max={1} value={view?.progress ?? 0} />
          </div>
        ) : null}
        {view?.status === 'done' ? <p className="visually-hidden">Backtest done.</p> : null}
      </div>
      {result.isError ? <Alert>The backtest could not be read: {errorText(result.error)}</Alert> : null}
      {view?.status === 'failed' ? <Alert>The backtest failed: {view.error ?? 'try again.'}</Alert> : null}
      {view?.status === 'done' ? (
        <div className="stack" aria-labelledby={`${id}-result`} role="region">
          <h4 id={`${id}-result`}>Backtest result</h4>
          {run?.signature !== signature ? (
            <Alert tone="warning">The rule changed since this backtest: run it again to see the change.</Alert>
          ) : null}
          <dl className="figures">
            <div>
              <dt>Claims matched</dt>
              <dd>{formatCount(view.matched)}</dd>
            </div>
            <div>
              <dt>Claims decided</dt>
              <dd>{formatCount(view.decided.count)}</dd>
            </div>
            <div>
              <dt>Money paid out</dt>
              <dd>{formatMoney(view.decided.amount, view.decided.currency)}</dd>
            </div>
            <div>
              <dt>Disagreements</dt>
              <dd>{formatCount(view.disagreements.length)}</dd>
            </div>
          </dl>
          <Suspense fallback={<p className="muted">Loading the chart…</p>}>
            <BacktestChart weeks={view.weeks} currency={currency} />
          </Suspense>
          {view.disagreements.length === 0 ? (
            <p className="muted">The rule agrees with every decision made in this period.</p>
          ) : (
            <div className="stack">
              <h5 id={`${id}-disagree`}>Claims where the rule disagrees with the decision made</h5>
              <div className="table-wrap" tabIndex={0} role="region" aria-label="Disagreements, table">
                <table className="claims-table" aria-labelledby={`${id}-disagree`}>
                  <ColumnHeads columns={['Claim', 'What was decided', 'What the rule would do']} />
                  <tbody>
                    {view.disagreements.map((d) => (
                      <tr key={d.claimId}>
                        <th scope="row">
                          <Link to="/claims/view/$claimRef" params={{ claimRef: d.claimId }} search={{}}>
                            {d.claimNumber}
                          </Link>
                        </th>
                        <td>{OUTCOME_LABELS[d.agent] ?? d.agent}</td>
                        <td>{OUTCOME_LABELS[d.rule] ?? d.rule}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </div>
          )}
        </div>
      ) : null}
    </section>
  );
}
