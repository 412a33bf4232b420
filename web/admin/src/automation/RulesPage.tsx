import { useState } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import type { RuleView } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { Alert, Page } from '@claims/ui/components';
import { can, storesWith, useMe } from '../shared/session.js';
import { StorePicker } from '../shared/components/StorePicker.js';
import { KillSwitch } from './rules/KillSwitch.js';
import { RuleBuilder } from './rules/RuleBuilder.js';
import { RuleList } from './rules/RuleList.js';
import { ruleQueries } from './queries.js';
import { NoStorePage } from '../shared/components/NoStorePage.js';

/** The builder's state: closed, a new rule, or the next version of a rule. */
type Building = { kind: 'closed' } | { kind: 'new' } | { kind: 'edit'; rule: RuleView };

/**
 * `/admin/rules`: a store's rules in the order they are tried (contract §Automation): the kill switch, the list
 * (reorder, mode, history), and the builder with its preview and backtest. Support reads; owners and admins change.
 */
export function RulesPage() {
  const me = useMe();
  const navigate = useNavigate();
  const search = useSearch({ from: '/app/rules' });
  const stores = storesWith(me, 'automation:read');
  const store = stores.find((s) => s.id === search.store) ?? stores[0];
  const storeId = store?.id ?? '';
  const rules = useQuery({ ...ruleQueries.list(storeId), enabled: Boolean(store) });
  const [building, setBuilding] = useState<Building>({ kind: 'closed' });
  const [notice, setNotice] = useState('');
  if (!store) return <NoStorePage title="Rules" what="rules" />;
  const mayUpdate = can(me, 'automation:update', storeId);
  return (
    <Page
      title={`Rules of ${store.name}`}
      actions={
        mayUpdate && building.kind === 'closed' ? (
          <button type="button" className="button button-primary" onClick={() => setBuilding({ kind: 'new' })}>
            New rule
          </button>
        ) : null
      }
    >
      <StorePicker
        stores={stores}
        value={storeId}
        onChange={(next) => {
          setNotice('');
          setBuilding({ kind: 'closed' });
          void navigate({ to: '/rules', search: { store: next } });
        }}
      />
      {/* Every change on the page (a move, a mode, a save, the switch) is said here, for screen readers too. */}
      <div role="status" aria-live="polite" className="rules-notice">
        {notice ? <p className="alert alert-success">{notice}</p> : null}
      </div>
      {!mayUpdate ? (
        <p className="hint">You can see these rules and what they did; owners and admins change them.</p>
      ) : null}
      {rules.isPending ? (
        <p role="status" className="muted">
          Loading the rules…
        </p>
      ) : null}
      {rules.isError ? <Alert>The rules could not be loaded: {errorText(rules.error)}</Alert> : null}
      {rules.data ? (
        <div className="stack">
          <KillSwitch storeId={storeId} paused={rules.data.paused} mayUpdate={mayUpdate} announce={setNotice} />
          {building.kind !== 'closed' ? (
            <RuleBuilder
              key={building.kind === 'edit' ? `${building.rule.id}:${building.rule.version}` : 'new'}
              storeId={storeId}
              currency={rules.data.currency}
              editing={building.kind === 'edit' ? building.rule : null}
              onSaved={(message) => {
                setNotice(message);
                setBuilding({ kind: 'closed' });
              }}
              onCancel={() => setBuilding({ kind: 'closed' })}
            />
          ) : null}
          <section className="stack" aria-labelledby="rules-in-order">
            <h2 id="rules-in-order">Rules, in the order they are tried</h2>
            <p className="hint">
              The first live rule a claim matches decides it; a shadow rule only records what it would have done, and
              the next rule is tried.
            </p>
            <RuleList
              storeId={storeId}
              list={rules.data}
              mayUpdate={mayUpdate}
              announce={setNotice}
              onEdit={(rule) => setBuilding({ kind: 'edit', rule })}
            />
          </section>
        </div>
      ) : null}
    </Page>
  );
}
