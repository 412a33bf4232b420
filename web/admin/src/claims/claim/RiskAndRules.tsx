import { useQuery } from '@tanstack/react-query';
import type { AdminClaimDetail, RuleActionType, RuleActivityEntry } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDateTime, formatMoney } from '@claims/format';
import { Alert } from '@claims/ui/components';
import { Fact, RiskBadge } from '../../shared/components/ui.js';
import { claimQueries } from '../queries.js';
import { FoldingCard } from '../../shared/components/FoldingCard.js';

/** The claim's risk as filing assessed it: level, score and each reason in words (docs/decisions/automation.md). */
export function RiskPanel({ claim }: { claim: AdminClaimDetail }) {
  const { risk } = claim;
  return (
    <FoldingCard title="Risk" titleId="risk" storageKey="claim:risk" defaultOpen>
      <dl className="facts">
        <Fact term="Level">
          <RiskBadge level={risk.level} score={risk.score} />
        </Fact>
        <Fact term="Score">{risk.score} of 100</Fact>
      </dl>
      <ul className="plain flags" aria-label="Reasons">
        {risk.reasons.map((reason) => (
          // A low risk's reasons are worth knowing, not a warning.
          <li key={reason.code} className={risk.level === 'low' ? 'flag' : 'flag flag-raised'}>
            {reason.text}
          </li>
        ))}
      </ul>
    </FoldingCard>
  );
}

const DID: Record<RuleActionType, string> = {
  approve: 'approved this claim',
  deny: 'denied this claim',
  hold: 'held this claim for review',
};

/** One rule's act in a sentence: a live rule's decision, or what a shadow rule would have done (and nothing more). */
function ruleSentence(entry: RuleActivityEntry): string {
  const rule = `“${entry.ruleName}” (version ${entry.ruleVersion})`;
  const money = entry.action === 'approve' ? ` for ${formatMoney(entry.amount, entry.currency)}` : '';
  return entry.mode === 'shadow'
    ? `Shadow rule ${rule} would have ${DID[entry.action]}${money}. It only records: nothing was changed.`
    : `Rule ${rule} ${DID[entry.action]}${money}.`;
}

/** What the store's rules did to the claim and, for shadow rules, what they would have done; absent when none acted. */
export function RuleActivityPanel({ claimId }: { claimId: string }) {
  const activity = useQuery(claimQueries.ruleActivity(claimId));
  if (activity.isError) return <Alert>The rules' activity could not be loaded: {errorText(activity.error)}</Alert>;
  const entries = activity.data?.entries ?? [];
  if (entries.length === 0) return null;
  return (
    <FoldingCard title="Rules" titleId="rule-activity" storageKey="claim:rule-activity" defaultOpen>
      <ul className="plain flags">
        {entries.map((entry) => (
          <li key={`${entry.ruleId}:${entry.mode}`} className="flag">
            {ruleSentence(entry)}{' '}
            <span className="muted">
              <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
            </span>
          </li>
        ))}
      </ul>
    </FoldingCard>
  );
}
