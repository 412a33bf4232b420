import {
  CUSTOMER_RESOLUTION_LABELS,
  ITEM_ISSUE_LABELS,
  RESOLUTION_REASON_LABELS,
  SHIPMENT_ISSUE_LABELS,
  type RuleAction,
  type RuleCondition,
  type RuleField,
} from '@claims/contracts';
import { formatMoney, humanizeCode } from './format.js';

/** What the summary reads of a rule: a draft in the builder or a saved one (money as decimals of `currency`). */
export interface SummarisedRule {
  conditions: readonly RuleCondition[];
  action: RuleAction;
  dailyLimit?: { count?: number | null; amount?: number | null } | undefined;
}

const label = (labels: Readonly<Record<string, string>>, code: string) => labels[code] ?? humanizeCode(code);
const claimTypeWord = (code: string) => label({ ...SHIPMENT_ISSUE_LABELS, ...ITEM_ISSUE_LABELS }, code).toLowerCase();
const shipmentWord = (code: string) => humanizeCode(code).toLowerCase();
const methodWord = (code: string) => label(CUSTOMER_RESOLUTION_LABELS, code).toLowerCase();

/** 'a', 'a or b', 'a, b or c'. */
function either(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? '';
  return `${words.slice(0, -1).join(', ')} or ${words.at(-1)!}`;
}

const listOf = (value: RuleCondition['value']): string[] => (Array.isArray(value) ? value : [String(value)]);
const numberOf = (value: RuleCondition['value']): number => (typeof value === 'number' ? value : Number(value));

/** A number compared: 'up to 50', '50 or more', 'exactly 50' (`show` writes the number, e.g. as money). */
function compared(op: RuleCondition['op'], value: number, show: (n: number) => string): string {
  if (op === 'lte') return `up to ${show(value)}`;
  if (op === 'gte') return `${show(value)} or more`;
  return `exactly ${show(value)}`;
}

/** The shopper's earlier claims in words: 'no claim', 'at most 2 claims', '3 or more claims', 'exactly 1 claim'. */
function shopperClaims(op: RuleCondition['op'], count: number): string {
  const claims = (n: number) => (n === 1 ? '1 claim' : `${n} claims`);
  if ((op === 'eq' || op === 'lte') && count === 0) return 'no claim';
  if (op === 'lte') return `at most ${claims(count)}`;
  if (op === 'gte') return `${count} or more claims`;
  return `exactly ${claims(count)}`;
}

/** A field's values in words ('low or medium'); an ordered risk level reads 'medium or higher'. */
function values(condition: RuleCondition, word: (code: string) => string): string {
  const words = listOf(condition.value).map(word);
  if (condition.op === 'lte') return `${words[0] ?? ''} or lower`;
  if (condition.op === 'gte') return `${words[0] ?? ''} or higher`;
  return either(words);
}

function clauseOf(condition: RuleCondition, currency: string): string {
  const money = (n: number) => formatMoney(n, currency);
  switch (condition.field) {
    case 'claimValue':
      return `worth ${compared(condition.op, numberOf(condition.value), money)}`;
    case 'riskLevel':
      return `with ${values(condition, (code) => code)} risk`;
    case 'riskScore':
      return `with a risk score of ${compared(condition.op, numberOf(condition.value), String)}`;
    case 'shipmentStatus':
      return `whose shipment is ${values(condition, shipmentWord)}`;
    case 'shopperClaims90d':
      return `from shoppers with ${shopperClaims(condition.op, numberOf(condition.value))} in 90 days`;
    case 'desiredMethod':
      return `where the shopper asked for ${values(condition, methodWord)}`;
    case 'claimType':
      return '';
  }
}

/** The order the clauses read best in: what the claim is worth first, who filed it last. */
const CLAUSE_ORDER: readonly RuleField[] = [
  'claimValue',
  'riskLevel',
  'riskScore',
  'shipmentStatus',
  'desiredMethod',
  'shopperClaims90d',
];

function actionWords(action: RuleAction): { verb: string; after: string } {
  if (action.type === 'approve')
    return {
      verb: 'Approve',
      after: action.resolutionType ? ` with ${humanizeCode(action.resolutionType).toLowerCase()}` : '',
    };
  if (action.type === 'deny')
    return {
      verb: 'Deny',
      after: action.reason ? ` (reason: ${label(RESOLUTION_REASON_LABELS, action.reason)})` : '',
    };
  return { verb: 'Hold', after: ` for review, labelled “${action.label ?? 'Held by rule'}”` };
}

function limitWords(limit: SummarisedRule['dailyLimit'], currency: string): string {
  const parts = [
    limit?.count ? (limit.count === 1 ? '1 claim' : `${limit.count} claims`) : null,
    limit?.amount ? formatMoney(limit.amount, currency) : null,
  ].filter((part): part is string => part !== null);
  return parts.length === 0 ? '' : `, at most ${parts.join(' and ')} a day`;
}

/**
 * A rule in one plain sentence, as the rules page previews and lists it: "Approve damaged claims worth up to $50.00
 * from shoppers with no claim in 90 days." Conditions on one field read together ("worth $10.00 or more and up to
 * $50.00"); money in the store's currency.
 */
export function ruleSummary(rule: SummarisedRule, currency: string): string {
  const { verb, after } = actionWords(rule.action);
  const types = rule.conditions
    .filter((c) => c.field === 'claimType')
    .map((c) => either(listOf(c.value).map(claimTypeWord)));
  const subject = types.length === 0 ? 'every claim' : `${types.join(' and ')} claims`;
  const clauses = CLAUSE_ORDER.flatMap((field) => {
    const same = rule.conditions.filter((c) => c.field === field).map((c) => clauseOf(c, currency));
    if (same.length === 0) return [];
    // "worth $10.00 or more and worth up to $50.00" reads as "worth $10.00 or more and up to $50.00".
    const [first, ...rest] = same;
    const lead = `${first!.split(' ')[0]!} `;
    return [[first!, ...rest.map((c) => (c.startsWith(lead) ? c.slice(lead.length) : c))].join(' and ')];
  });
  return `${[verb, subject, ...clauses].join(' ')}${after}${limitWords(rule.dailyLimit, currency)}.`;
}
