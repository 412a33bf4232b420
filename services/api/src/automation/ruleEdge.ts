import {
  toDecimal,
  toMinor,
  type RuleCondition,
  type RuleDefinition,
  type RuleInput,
  type RuleVersionEntry,
  type RuleView,
} from '@claims/contracts';
import type { StoredRule } from '@claims/domain';
import { storedDomainEvent, type RecordedEvent } from '@claims/event-store';

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

/** A stored rule's definition at the edge: claim values and the money limit as decimals of `currency`. */
export function edgeDefinitionOf(rule: RuleDefinition, currency: string): RuleVersionEntry['rule'] {
  return {
    name: rule.name,
    mode: rule.mode,
    conditions: rule.conditions.map((c) => convertCondition(c, (v) => toDecimal(v, currency))),
    action: rule.action,
    dailyLimit: {
      count: rule.dailyLimit.count,
      amount: rule.dailyLimit.amount === null ? null : toDecimal(rule.dailyLimit.amount, currency),
    },
  };
}

export function ruleViewOf(stored: StoredRule, position: number, currency: string): RuleView {
  return {
    id: stored.id,
    version: stored.version,
    position,
    ...edgeDefinitionOf(stored.rule, currency),
    currency,
    updatedAt: stored.updatedAt,
  };
}

/** Every version of one rule on the store's rules stream, newest first, each with who saved it. */
export function ruleVersionsOf(events: readonly RecordedEvent[], ruleId: string, currency: string): RuleVersionEntry[] {
  const versions: RuleVersionEntry[] = [];
  for (const recorded of events) {
    const event = storedDomainEvent(recorded);
    if (event.type === 'RuleCreated' && event.data.ruleId === ruleId)
      versions.push({
        version: 1,
        rule: edgeDefinitionOf(event.data.rule, currency),
        at: event.data.createdAt,
        actor: recorded.metadata.actor,
      });
    else if (event.type === 'RuleRevised' && event.data.ruleId === ruleId)
      versions.push({
        version: event.data.version,
        rule: edgeDefinitionOf(event.data.rule, currency),
        at: event.data.revisedAt,
        actor: recorded.metadata.actor,
      });
  }
  return versions.reverse();
}
