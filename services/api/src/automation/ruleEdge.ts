import {
  toDecimal,
  toMinor,
  type RuleCondition,
  type RuleDefinition,
  type RuleInput,
  type RuleView,
} from '@claims/contracts';
import type { StoredRule } from '@claims/domain';

/** A condition's money between the edge (a decimal of the store's currency) and the store (its minor units). */
const convertCondition = (condition: RuleCondition, convert: (value: number) => number): RuleCondition =>
  condition.field === 'claimValue' && typeof condition.value === 'number'
    ? { ...condition, value: convert(condition.value) }
    : condition;

/** A rule as sent, as the store keeps it: claim values and the money limit in minor units of `currency`. */
export function definitionOf(input: RuleInput, currency: string): RuleDefinition {
  return {
    name: input.name,
    mode: input.mode,
    conditions: input.conditions.map((c) => convertCondition(c, (v) => toMinor(v, currency))),
    action: input.action,
    dailyLimit: {
      count: input.dailyLimit?.count ?? null,
      amount: input.dailyLimit?.amount == null ? null : toMinor(input.dailyLimit.amount, currency),
    },
  };
}

export function ruleViewOf(stored: StoredRule, position: number, currency: string): RuleView {
  const { rule } = stored;
  return {
    id: stored.id,
    version: stored.version,
    position,
    name: rule.name,
    mode: rule.mode,
    conditions: rule.conditions.map((c) => convertCondition(c, (v) => toDecimal(v, currency))),
    action: rule.action,
    dailyLimit: {
      count: rule.dailyLimit.count,
      amount: rule.dailyLimit.amount === null ? null : toDecimal(rule.dailyLimit.amount, currency),
    },
    currency,
    updatedAt: stored.updatedAt,
  };
}
