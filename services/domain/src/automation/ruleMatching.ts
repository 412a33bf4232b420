import {
  RiskLevel,
  type ClaimType,
  type CustomerResolution,
  type EventOf,
  type RuleCondition,
  type RuleDefinition,
  type ShipmentStatus,
} from '@claims/contracts';
import { riskFactsOfFiled, riskOfFiled } from './riskAssessment.js';

/** What a rule's conditions are tried against: one filed claim, as its event recorded it. */
export interface RuleSubject {
  claimType: ClaimType;
  /** Minor units of the store's currency. */
  claimValue: number;
  currency: string;
  riskLevel: RiskLevel;
  riskScore: number;
  /** The claimed shipments' statuses (a condition on it holds when it holds for every one of them). */
  shipmentStatuses: readonly ShipmentStatus[];
  shopperClaims90d: number;
  desiredMethod: CustomerResolution;
}

export function subjectOfFiled(data: EventOf<'ClaimFiled'>['data']): RuleSubject {
  const facts = riskFactsOfFiled(data);
  const risk = riskOfFiled(data);
  return {
    claimType: data.claimType,
    claimValue: facts.claimValue,
    currency: facts.storeCurrency,
    riskLevel: risk.level,
    riskScore: risk.score,
    shipmentStatuses: (data.shipments ?? []).map((s) => s.status),
    shopperClaims90d: facts.shopperClaims90d,
    desiredMethod: data.desiredMethod,
  };
}

const RISK_ORDER = RiskLevel.options;

/** One value against one condition's op; riskLevel compares by its order low < medium < high. */
function holds(actual: string | number, condition: RuleCondition): boolean {
  const { op, value } = condition;
  const rank = (v: string | number) =>
    condition.field === 'riskLevel' ? RISK_ORDER.indexOf(String(v) as RiskLevel) : Number(v);
  switch (op) {
    case 'eq':
      return actual === value;
    case 'in':
      return Array.isArray(value) && value.includes(String(actual));
    case 'lte':
      return typeof value !== 'object' && rank(actual) <= rank(value);
    case 'gte':
      return typeof value !== 'object' && rank(actual) >= rank(value);
  }
}

/** Whether a claim meets one condition; a shipment condition on a claim naming no shipment never holds. */
export function meets(subject: RuleSubject, condition: RuleCondition): boolean {
  switch (condition.field) {
    case 'claimType':
      return holds(subject.claimType, condition);
    case 'claimValue':
      return holds(subject.claimValue, condition);
    case 'riskLevel':
      return holds(subject.riskLevel, condition);
    case 'riskScore':
      return holds(subject.riskScore, condition);
    case 'shopperClaims90d':
      return holds(subject.shopperClaims90d, condition);
    case 'desiredMethod':
      return holds(subject.desiredMethod, condition);
    case 'shipmentStatus':
      return subject.shipmentStatuses.length > 0 && subject.shipmentStatuses.every((s) => holds(s, condition));
  }
}

/** A rule matches a claim when every one of its conditions holds (a rule of no conditions matches every claim). */
export const ruleMatches = (rule: Pick<RuleDefinition, 'conditions'>, subject: RuleSubject): boolean =>
  rule.conditions.every((condition) => meets(subject, condition));

/** The first rule, in order, that matches the claim: the one that acts. */
export function firstMatching<R extends Pick<RuleDefinition, 'conditions'>>(
  rules: readonly R[],
  subject: RuleSubject,
): R | null {
  return rules.find((rule) => ruleMatches(rule, subject)) ?? null;
}
