import type { DecisionOutcome, EventOf, RuleActionType } from '@claims/contracts';
import {
  evolveRuleDay,
  decideRuleApplication,
  initialRuleDay,
  limitDayOf,
  type RuleDayState,
} from './ruleApplication.js';
import { ruleMatches, subjectOfFiled } from './ruleMatching.js';
import type { StoredRule } from './storeRules.js';

/** One claim of the store's history, as its events tell it: its filing and the decision made on it, if any. */
export interface HistoricClaim {
  filed: EventOf<'ClaimFiled'>['data'];
  decided: DecisionOutcome | null;
}

export interface BacktestWeek {
  week: string;
  matched: number;
  decided: number;
  amount: number;
}

export interface BacktestResult {
  matched: number;
  decided: { count: number; amount: number };
  disagreements: Array<{ claimId: string; claimNumber: string; agent: string; rule: string }>;
  weeks: BacktestWeek[];
}

const RULE_OUTCOME: Record<RuleActionType, string> = { approve: 'APPROVED', deny: 'DENIED', hold: 'HELD' };

/** The Monday (UTC) of a time's week. */
export function weekOf(at: string): string {
  const day = new Date(`${at.slice(0, 10)}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString().slice(0, 10);
}

/**
 * A rule tried over claims in their filing order, as the live rule reaction would have (same matching, same daily
 * limits per filing day), changing nothing: how many it matched, what it would have decided and paid (minor units of
 * the store's currency) and where that differs from the decision made.
 */
export function backtestRule(rule: StoredRule, claims: Iterable<HistoricClaim>): BacktestResult {
  const days = new Map<string, RuleDayState>();
  const weeks = new Map<string, BacktestWeek>();
  const result: BacktestResult = { matched: 0, decided: { count: 0, amount: 0 }, disagreements: [], weeks: [] };
  for (const claim of claims) {
    const subject = subjectOfFiled(claim.filed);
    if (!ruleMatches(rule.rule, subject)) continue;
    const week = weeks.get(weekOf(claim.filed.filedAt)) ?? {
      week: weekOf(claim.filed.filedAt),
      matched: 0,
      decided: 0,
      amount: 0,
    };
    weeks.set(week.week, week);
    result.matched++;
    week.matched++;
    const dayKey = limitDayOf(claim.filed.filedAt);
    const day = days.get(dayKey) ?? initialRuleDay();
    const decision = decideRuleApplication(
      {
        type: 'ApplyRule',
        storeId: claim.filed.storeId,
        rule,
        mode: 'live',
        claimId: claim.filed.claimId,
        claimNumber: claim.filed.claimNumber,
        filedAt: claim.filed.filedAt,
        subject,
        now: claim.filed.filedAt,
      },
      day,
    );
    if (!decision.ok) continue;
    const [applied] = decision.value;
    if (!applied || applied.type !== 'RuleApplied') continue;
    days.set(dayKey, evolveRuleDay(day, applied));
    const action = applied.data.action;
    if (action !== 'hold') {
      result.decided.count++;
      result.decided.amount += applied.data.amount;
      week.decided++;
      week.amount += applied.data.amount;
    }
    const ruleOutcome = RULE_OUTCOME[action];
    if (action !== 'hold' && claim.decided !== null && claim.decided !== ruleOutcome)
      result.disagreements.push({
        claimId: claim.filed.claimId,
        claimNumber: claim.filed.claimNumber,
        agent: claim.decided,
        rule: ruleOutcome,
      });
  }
  result.weeks = [...weeks.values()].sort((a, b) => a.week.localeCompare(b.week));
  return result;
}
