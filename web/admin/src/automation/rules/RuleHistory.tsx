import { useId } from 'react';
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import type { RuleActionType, RuleView } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDateTime, formatMoney } from '@claims/format';
import { ruleSummary } from '@claims/format/rule-summary';
import { Alert } from '@claims/ui/components';
import { ruleQueries } from '../queries.js';
import { MODE_LABELS } from './ruleDraft.js';
import { DataTable } from '../../shared/components/DataTable.js';

const DID: Record<RuleActionType, string> = { approve: 'Approved', deny: 'Denied', hold: 'Held for review' };
const WOULD: Record<RuleActionType, string> = {
  approve: 'Would have approved',
  deny: 'Would have denied',
  hold: 'Would have held',
};

/** A rule's versions (what each said, when, who saved it) and what it did: live decisions and shadow would-haves. */
export function RuleHistory({ storeId, rule }: { storeId: string; rule: RuleView }) {
  const id = useId();
  const versions = useQuery(ruleQueries.versions(storeId, rule.id));
  const activity = useQuery(ruleQueries.activity(storeId, rule.id));
  return (
    <div className="stack rule-history">
      <section aria-labelledby={`${id}-versions`} className="stack">
        <h4 id={`${id}-versions`}>Versions of “{rule.name}”</h4>
        {versions.isPending ? <p className="muted">Loading the versions…</p> : null}
        {versions.isError ? <Alert>The versions could not be loaded: {errorText(versions.error)}</Alert> : null}
        {versions.data ? (
          <DataTable regionLabel="Versions, table" columns={['Version', 'Saved', 'By', 'Mode', 'Rule']}>
            <tbody>
              {versions.data.versions.map((v) => (
                <tr key={v.version}>
                  <th scope="row">{v.version}</th>
                  <td>
                    <time dateTime={v.at}>{formatDateTime(v.at)}</time>
                  </td>
                  <td>{v.actor.name ?? v.actor.type}</td>
                  <td>{MODE_LABELS[v.rule.mode]}</td>
                  <td>
                    <strong>{v.rule.name}</strong>: {ruleSummary(v.rule, rule.currency)}
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        ) : null}
      </section>
      <section aria-labelledby={`${id}-activity`} className="stack">
        <h4 id={`${id}-activity`}>What “{rule.name}” did</h4>
        {activity.isPending ? <p className="muted">Loading what the rule did…</p> : null}
        {activity.isError ? <Alert>What the rule did could not be loaded: {errorText(activity.error)}</Alert> : null}
        {activity.data?.entries.length === 0 ? (
          <p className="muted">This rule has not acted on a claim yet, live or in shadow.</p>
        ) : null}
        {activity.data && activity.data.entries.length > 0 ? (
          <DataTable regionLabel="What the rule did, table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Claim</th>
                <th scope="col">What it did</th>
                <th scope="col" className="numeric">
                  Amount
                </th>
                <th scope="col" className="numeric">
                  Version
                </th>
              </tr>
            </thead>
            <tbody>
              {activity.data.entries.map((e) => (
                <tr key={`${e.claimId} ${e.ruleVersion} ${e.mode}`}>
                  <td>
                    <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                  </td>
                  <th scope="row">
                    <Link to="/claims/view/$claimRef" params={{ claimRef: e.claimId }} search={{}}>
                      {e.claimNumber}
                    </Link>
                  </th>
                  <td>{e.mode === 'live' ? DID[e.action] : `${WOULD[e.action]} (shadow)`}</td>
                  <td className="numeric">{formatMoney(e.amount, e.currency)}</td>
                  <td className="numeric">{e.ruleVersion}</td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        ) : null}
      </section>
    </div>
  );
}
