import { useId, useState, type FormEvent } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AB_MIN_CLAIMS_PER_VARIANT,
  AB_SIGNIFICANCE_ALPHA,
  CUSTOMER_RESOLUTION_LABELS,
  StartAbTestRequest,
  type AbTestView,
} from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDateTime } from '@claims/format';
import { Alert, Page } from '@claims/ui/components';
import { can, useMe } from '../shared/session.js';
import { StorePicker } from '../shared/components/StorePicker.js';
import { brandingApi } from './branding/brandingApi.js';
import { abTestQueries } from './queries.js';
import { DataTable } from '../shared/components/DataTable.js';
import { NoStorePage } from '../shared/components/NoStorePage.js';
import { ProblemList } from '../shared/components/ProblemList.js';

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

/** A new test of the store-credit bonus: two variants, each a percentage. */
function StartTestForm({ storeId, onStarted }: { storeId: string; onStarted: (message: string) => void }) {
  const id = useId();
  const client = useQueryClient();
  const [name, setName] = useState('Store credit bonus');
  const [bonusA, setBonusA] = useState('10');
  const [bonusB, setBonusB] = useState('15');
  const [problems, setProblems] = useState<string[]>([]);
  const start = useMutation({
    mutationFn: (body: StartAbTestRequest) => brandingApi.startAbTest(storeId, body),
    onSuccess: async () => {
      onStarted('Test started: each new claim session sees one variant.');
      await client.invalidateQueries({ queryKey: abTestQueries.of(storeId).queryKey });
    },
  });
  const variant = (bonus: string, letter: 'a' | 'b') => ({
    id: `variant-${letter}`,
    label: `${bonus}% bonus`,
    creditBonus: Number(bonus),
    creditBonusType: 'percentage' as const,
  });
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = StartAbTestRequest.safeParse({ name, variants: [variant(bonusA, 'a'), variant(bonusB, 'b')] });
    if (!parsed.success || bonusA.trim() === '' || bonusB.trim() === '') {
      setProblems(parsed.success ? ['Give both bonuses.'] : parsed.error.issues.map((issue) => issue.message));
      return;
    }
    setProblems([]);
    start.mutate(parsed.data);
  }
  return (
    <section className="card stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Start a test</h2>
      <p className="hint">
        Shoppers who reach the resolution step are split evenly by their claim session; each always sees the same
        variant.
      </p>
      <form className="inline-form" onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-name`}>Test name</label>
          <input id={`${id}-name`} type="text" maxLength={120} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-a`}>Variant A store-credit bonus (%)</label>
          <input
            id={`${id}-a`}
            type="number"
            min={0}
            max={100}
            value={bonusA}
            onChange={(e) => setBonusA(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-b`}>Variant B store-credit bonus (%)</label>
          <input
            id={`${id}-b`}
            type="number"
            min={0}
            max={100}
            value={bonusB}
            onChange={(e) => setBonusB(e.target.value)}
          />
        </div>
        <button type="submit" className="button button-primary" disabled={start.isPending}>
          Start test
        </button>
      </form>
      <ProblemList problems={problems} bulleted />
      {start.isError ? <Alert>{errorText(start.error)}</Alert> : null}
    </section>
  );
}

function TestResults({
  test,
  storeId,
  mayStop,
  onStopped,
}: {
  test: AbTestView;
  storeId: string;
  mayStop: boolean;
  onStopped: (message: string) => void;
}) {
  const id = useId();
  const client = useQueryClient();
  const stop = useMutation({
    mutationFn: () => brandingApi.stopAbTest(storeId, test.testId),
    onSuccess: async () => {
      onStopped(`"${test.name}" stopped.`);
      await client.invalidateQueries({ queryKey: abTestQueries.of(storeId).queryKey });
    },
  });
  const significance = test.significance;
  const winner = significance?.winner ? test.variants.find((v) => v.variantId === significance.winner) : null;
  return (
    <section className="card stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{test.name}</h2>
      <p className="hint">
        {test.status === 'running' ? 'Running' : 'Stopped'} · started{' '}
        <time dateTime={test.startedAt}>{formatDateTime(test.startedAt)}</time>
        {test.stoppedAt ? (
          <>
            {' '}
            · stopped <time dateTime={test.stoppedAt}>{formatDateTime(test.stoppedAt)}</time>
          </>
        ) : null}
      </p>
      <DataTable caption={`Results per variant of ${test.name}`} captionHidden>
        <thead>
          <tr>
            <th scope="col">Variant</th>
            <th scope="col">Sessions</th>
            <th scope="col">Claims filed</th>
            {Object.entries(CUSTOMER_RESOLUTION_LABELS).map(([code, label]) => (
              <th key={code} scope="col">
                {label} take rate
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {test.variants.map((variant) => (
            <tr key={variant.variantId}>
              <th scope="row">{variant.label}</th>
              <td className="numeric">{variant.sessions}</td>
              <td className="numeric">{variant.claimsFiled}</td>
              {variant.resolutions.map((r) => (
                <td key={r.resolution} className="numeric">
                  {percent(r.takeRate)} ({r.claims})
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </DataTable>
      {significance ? (
        <div role="status" className={`alert ${winner ? 'alert-success' : 'alert-info'}`}>
          <p>
            <strong>{winner ? `Winner: ${winner.label}` : 'No clear winner'}</strong>
          </p>
          <p>{significance.verdict}</p>
        </div>
      ) : null}
      <p className="hint">
        A winner is named only when a two-sided two-proportion z-test of the store-credit take rate gives p &lt;{' '}
        {AB_SIGNIFICANCE_ALPHA}, with at least {AB_MIN_CLAIMS_PER_VARIANT} claims in each variant.
      </p>
      {test.status === 'running' && mayStop ? (
        <div className="actions">
          <button
            type="button"
            className="button button-secondary"
            disabled={stop.isPending}
            onClick={() => stop.mutate()}
          >
            Stop test
          </button>
        </div>
      ) : null}
      {stop.isError ? <Alert>{errorText(stop.error)}</Alert> : null}
    </section>
  );
}

/** `/admin/ab-tests`: a store's A/B tests of the resolution offer and their results. */
export function AbTestsPage() {
  const me = useMe();
  const navigate = useNavigate();
  const search = useSearch({ from: '/app/ab-tests' });
  const stores = me.stores.filter((s) => s.permissions.includes('ab-tests:read'));
  const store = stores.find((s) => s.id === search.store) ?? stores[0];
  const storeId = store?.id ?? '';
  const tests = useQuery({ ...abTestQueries.of(storeId), enabled: Boolean(store) });
  const [notice, setNotice] = useState<string | null>(null);
  if (!store) return <NoStorePage title="A/B tests" what="A/B tests" />;
  const running = tests.data?.tests.some((t) => t.status === 'running') ?? true;
  return (
    <Page title={`A/B tests of ${store.name}`}>
      <StorePicker
        stores={stores}
        value={storeId}
        onChange={(next) => {
          setNotice(null);
          void navigate({ to: '/ab-tests', search: { store: next } });
        }}
      />
      <div role="status">{notice ? <p className="alert alert-success">{notice}</p> : null}</div>
      {tests.isPending ? (
        <p role="status" className="muted">
          Loading the tests…
        </p>
      ) : null}
      {tests.isError ? <Alert>The tests could not be loaded: {errorText(tests.error)}</Alert> : null}
      <div className="stack">
        {!running && can(me, 'ab-tests:create', storeId) ? (
          <StartTestForm storeId={storeId} onStarted={setNotice} />
        ) : null}
        {tests.data?.tests.length === 0 ? <p className="muted">No test yet.</p> : null}
        {tests.data?.tests.map((test) => (
          <TestResults
            key={test.testId}
            test={test}
            storeId={storeId}
            mayStop={can(me, 'ab-tests:update', storeId)}
            onStopped={setNotice}
          />
        ))}
      </div>
    </Page>
  );
}
