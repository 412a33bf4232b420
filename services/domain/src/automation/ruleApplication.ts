import type { DomainEvent, EventOf, RuleActionType, RuleAppliedData } from '@claims/contracts';
import { ok, type Result } from '../result.js';
import type { Decider } from '../decider.js';
import type { StoredRule } from './storeRules.js';
import type { RuleSubject } from './ruleMatching.js';

type AppliedMode = RuleAppliedData['mode'];

/** What a rule did on one day (`rule-activity:{ruleId}:{day}`), per mode: a shadow rule's limit is its own. */
export interface RuleDayState {
  used: Readonly<Record<AppliedMode, { count: number; amount: number }>>;
  claimIds: ReadonlySet<string>;
}

export const initialRuleDay = (): RuleDayState => ({
  used: { live: { count: 0, amount: 0 }, shadow: { count: 0, amount: 0 } },
  claimIds: new Set(),
});

export function evolveRuleDay(state: RuleDayState, event: DomainEvent): RuleDayState {
  if (event.type !== 'RuleApplied') return state;
  const { mode, amount, claimId } = event.data;
  const before = state.used[mode];
  return {
    used: { ...state.used, [mode]: { count: before.count + 1, amount: before.amount + amount } },
    claimIds: new Set(state.claimIds).add(claimId),
  };
}

/** The day (UTC) a claim counts against a rule's daily limit: its filing's, so a backtest counts as live did. */
export const limitDayOf = (filedAt: string): string => filedAt.slice(0, 10);

/** What acting moves: an approval pays what the claim asks (store currency), a denial or a hold nothing. */
export const amountOf = (action: RuleActionType, subject: Pick<RuleSubject, 'claimValue'>): number =>
  action === 'approve' ? subject.claimValue : 0;

export interface ApplyRule {
  type: 'ApplyRule';
  storeId: string;
  rule: StoredRule;
  mode: AppliedMode;
  claimId: string;
  claimNumber: string;
  filedAt: string;
  subject: RuleSubject;
  now: string;
}

/** Whether one more application of `amount` stays within the rule's daily limit, given what the day used already. */
export function withinDailyLimit(rule: StoredRule, used: { count: number; amount: number }, amount: number): boolean {
  const { count, amount: money } = rule.rule.dailyLimit;
  if (count !== null && used.count + 1 > count) return false;
  if (money !== null && used.amount + amount > money) return false;
  return true;
}

/**
 * A rule acts on a claim it matched once (a repeat changes nothing), and only within its daily limit of count and
 * money; past it the claim waits for a person. The caller has matched the rule; this decides only the limit.
 */
export function decideRuleApplication(command: ApplyRule, day: RuleDayState): Result<DomainEvent[]> {
  if (day.claimIds.has(command.claimId)) return ok([]);
  const action = command.rule.rule.action.type;
  const amount = amountOf(action, command.subject);
  if (!withinDailyLimit(command.rule, day.used[command.mode], amount)) return ok([]);
  const applied: EventOf<'RuleApplied'> = {
    type: 'RuleApplied',
    data: {
      storeId: command.storeId,
      ruleId: command.rule.id,
      ruleVersion: command.rule.version,
      ruleName: command.rule.rule.name,
      mode: command.mode,
      day: limitDayOf(command.filedAt),
      claimId: command.claimId,
      claimNumber: command.claimNumber,
      action,
      amount,
      currency: command.subject.currency,
      appliedAt: command.now,
    },
  };
  return ok([applied]);
}

export const ruleDayDecider: Decider<RuleDayState, ApplyRule> = {
  initialState: initialRuleDay(),
  evolve: evolveRuleDay,
  decide: decideRuleApplication,
};
