import type { DomainEvent, RuleDefinition } from '@claims/contracts';
import { fail, ok, type Result } from '../result.js';
import type { Decider } from '../decider.js';

export interface StoredRule {
  id: string;
  version: number;
  rule: RuleDefinition;
  updatedAt: string;
}

/** A store's rules (`store-rules:{storeId}`): each rule's latest version, the order they are tried in, the kill switch. */
export interface StoreRulesState {
  rules: ReadonlyMap<string, StoredRule>;
  order: readonly string[];
  paused: boolean;
}

export type StoreRulesCommand =
  | { type: 'CreateRule'; storeId: string; ruleId: string; rule: RuleDefinition; now: string }
  | { type: 'ReviseRule'; storeId: string; ruleId: string; rule: RuleDefinition; now: string }
  | { type: 'ReorderRules'; storeId: string; ruleIds: readonly string[]; now: string }
  | { type: 'SwitchRules'; storeId: string; paused: boolean; now: string };

export const initialStoreRules = (): StoreRulesState => ({ rules: new Map(), order: [], paused: false });

export function evolveStoreRules(state: StoreRulesState, event: DomainEvent): StoreRulesState {
  switch (event.type) {
    case 'RuleCreated': {
      const { ruleId, rule, createdAt } = event.data;
      const rules = new Map(state.rules).set(ruleId, { id: ruleId, version: 1, rule, updatedAt: createdAt });
      return { ...state, rules, order: [...state.order, ruleId] };
    }
    case 'RuleRevised': {
      const { ruleId, rule, version, revisedAt } = event.data;
      return { ...state, rules: new Map(state.rules).set(ruleId, { id: ruleId, version, rule, updatedAt: revisedAt }) };
    }
    case 'RulesReordered':
      return { ...state, order: event.data.ruleIds };
    case 'RulesSwitched':
      return { ...state, paused: event.data.paused };
    default:
      return state;
  }
}

/** The store's rules in the order they are tried. */
export const rulesInOrder = (state: StoreRulesState): StoredRule[] =>
  state.order.flatMap((id) => {
    const rule = state.rules.get(id);
    return rule ? [rule] : [];
  });

/** The rules that try claims now: none while the kill switch is on; a rule switched off never does. */
export const activeRules = (state: StoreRulesState): StoredRule[] =>
  state.paused ? [] : rulesInOrder(state).filter((r) => r.rule.mode !== 'off');

export function decideStoreRules(command: StoreRulesCommand, state: StoreRulesState): Result<DomainEvent[]> {
  switch (command.type) {
    case 'CreateRule':
      if (state.rules.has(command.ruleId)) return ok([]);
      return ok([
        {
          type: 'RuleCreated',
          data: { storeId: command.storeId, ruleId: command.ruleId, rule: command.rule, createdAt: command.now },
        },
      ]);
    case 'ReviseRule': {
      const current = state.rules.get(command.ruleId);
      if (!current) return fail('rule_not_found', 'No rule of this store has that id.');
      return ok([
        {
          type: 'RuleRevised',
          data: {
            storeId: command.storeId,
            ruleId: command.ruleId,
            version: current.version + 1,
            rule: command.rule,
            revisedAt: command.now,
          },
        },
      ]);
    }
    case 'ReorderRules': {
      const given = new Set(command.ruleIds);
      if (given.size !== command.ruleIds.length || given.size !== state.order.length)
        return fail('validation_failed', 'List every rule of the store once, in the new order.');
      if (command.ruleIds.some((id) => !state.rules.has(id)))
        return fail('rule_not_found', 'No rule of this store has that id.');
      return ok([
        {
          type: 'RulesReordered',
          data: { storeId: command.storeId, ruleIds: [...command.ruleIds], reorderedAt: command.now },
        },
      ]);
    }
    case 'SwitchRules':
      if (state.paused === command.paused) return ok([]);
      return ok([
        { type: 'RulesSwitched', data: { storeId: command.storeId, paused: command.paused, switchedAt: command.now } },
      ]);
  }
}

export const storeRulesDecider: Decider<StoreRulesState, StoreRulesCommand> = {
  initialState: initialStoreRules(),
  evolve: evolveStoreRules,
  decide: decideStoreRules,
};
