import {
  CUSTOMER_RESOLUTION_LABELS,
  ITEM_ISSUE_LABELS,
  NUMERIC_RULE_FIELDS,
  RULE_FIELD_VALUES,
  RuleCondition,
  RuleInput,
  SHIPMENT_ISSUE_LABELS,
  type ResolutionReason,
  type RuleActionType,
  type RuleField,
  type RuleMode,
  type RuleOp,
  type RuleVersionEntry,
} from '@claims/contracts';
import { humanizeCode } from '@claims/format';

/** One condition as the builder holds it: what the fields show, numbers still as typed. */
export interface ConditionDraft {
  key: number;
  field: RuleField;
  op: RuleOp;
  /** A number as typed, or the one value picked. */
  value: string;
  /** The values ticked for `in`. */
  values: string[];
}

export type ApproveAs = '' | 'REFUND' | 'RESHIP' | 'STORE_CREDIT';

export interface RuleDraft {
  name: string;
  mode: RuleMode;
  conditions: ConditionDraft[];
  action: RuleActionType;
  reason: ResolutionReason | '';
  label: string;
  approveAs: ApproveAs;
  limitCount: string;
  limitAmount: string;
}

export const FIELD_LABELS: Record<RuleField, string> = {
  claimType: 'Claim type',
  claimValue: 'Claim value',
  riskLevel: 'Risk level',
  riskScore: 'Risk score (0–100)',
  shipmentStatus: 'Shipment status',
  shopperClaims90d: 'Shopper’s other claims in 90 days',
  desiredMethod: 'Resolution the shopper asked for',
};

export const OP_LABELS: Record<RuleOp, string> = {
  eq: 'is',
  in: 'is any of',
  lte: 'is at most',
  gte: 'is at least',
};

export const MODE_LABELS: Record<RuleMode, string> = { live: 'Live', shadow: 'Shadow', off: 'Off' };
export const MODE_HINTS: Record<RuleMode, string> = {
  live: 'decides matching claims as they are filed',
  shadow: 'only records what it would have done',
  off: 'tries nothing',
};

/** What a backtest says was decided and what the rule would do. */
export const OUTCOME_LABELS: Record<string, string> = {
  APPROVED: 'Approved',
  DENIED: 'Denied',
  HELD: 'Held for review',
  OPEN: 'Not decided yet',
};
export const ACTION_LABELS: Record<RuleActionType, string> = { approve: 'Approved', deny: 'Denied', hold: 'Held' };

const CLAIM_TYPE_LABELS: Readonly<Record<string, string>> = { ...SHIPMENT_ISSUE_LABELS, ...ITEM_ISSUE_LABELS };
const RISK_LABELS: Readonly<Record<string, string>> = { low: 'Low', medium: 'Medium', high: 'High' };

/** A field's value as the builder lists it. */
export function valueLabel(field: RuleField, code: string): string {
  const labels: Readonly<Record<string, string>> =
    field === 'claimType'
      ? CLAIM_TYPE_LABELS
      : field === 'riskLevel'
        ? RISK_LABELS
        : field === 'desiredMethod'
          ? CUSTOMER_RESOLUTION_LABELS
          : {};
  return labels[code] ?? humanizeCode(code);
}

export const isNumeric = (field: RuleField) => NUMERIC_RULE_FIELDS.includes(field);
export const valuesOf = (field: RuleField): readonly string[] => RULE_FIELD_VALUES[field] ?? [];

/** The comparisons a field takes (contracts/src/automation.ts checks the same). */
export function opsOf(field: RuleField): RuleOp[] {
  if (isNumeric(field)) return ['lte', 'gte', 'eq'];
  return field === 'riskLevel' ? ['eq', 'in', 'lte', 'gte'] : ['eq', 'in'];
}

/** A fresh condition on `field`, with the comparison and value it most often takes. */
export function conditionFor(key: number, field: RuleField): ConditionDraft {
  return { key, field, op: opsOf(field)[0]!, value: isNumeric(field) ? '' : (valuesOf(field)[0] ?? ''), values: [] };
}

export const emptyDraft = (): RuleDraft => ({
  name: '',
  mode: 'shadow',
  conditions: [conditionFor(0, 'claimType')],
  action: 'approve',
  reason: '',
  label: '',
  approveAs: '',
  limitCount: '',
  limitAmount: '',
});

/** A saved rule (or one of its versions) in the builder, to edit as its next version. */
export function draftOf(rule: RuleVersionEntry['rule']): RuleDraft {
  const { action } = rule;
  return {
    name: rule.name,
    mode: rule.mode,
    conditions: rule.conditions.map((c, key) => ({
      key,
      field: c.field,
      op: c.op,
      value: Array.isArray(c.value) ? '' : String(c.value),
      values: Array.isArray(c.value) ? c.value : [],
    })),
    action: action.type,
    reason: action.reason ?? '',
    label: action.label ?? '',
    approveAs:
      action.resolutionType === 'REFUND' ||
      action.resolutionType === 'RESHIP' ||
      action.resolutionType === 'STORE_CREDIT'
        ? action.resolutionType
        : '',
    limitCount: rule.dailyLimit.count === null ? '' : String(rule.dailyLimit.count),
    limitAmount: rule.dailyLimit.amount === null ? '' : String(rule.dailyLimit.amount),
  };
}

const numberOrNull = (typed: string) => (typed.trim() === '' ? null : Number(typed));

function conditionValue(condition: ConditionDraft): number | string | string[] {
  if (condition.op === 'in') return condition.values;
  return isNumeric(condition.field) ? Number(condition.value) : condition.value;
}

/** The draft as the API takes it, unchecked. */
function candidateOf(draft: RuleDraft) {
  const action =
    draft.action === 'approve'
      ? { type: 'approve' as const, ...(draft.approveAs ? { resolutionType: draft.approveAs } : {}) }
      : draft.action === 'deny'
        ? { type: 'deny' as const, ...(draft.reason ? { reason: draft.reason } : {}) }
        : { type: 'hold' as const, ...(draft.label.trim() ? { label: draft.label.trim() } : {}) };
  return {
    name: draft.name.trim(),
    mode: draft.mode,
    conditions: draft.conditions.map((c) => ({ field: c.field, op: c.op, value: conditionValue(c) })),
    action,
    dailyLimit: { count: numberOrNull(draft.limitCount), amount: numberOrNull(draft.limitAmount) },
  };
}

/** What a person left out, in words (the schema would say "Invalid input"). */
function missing(draft: RuleDraft): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!draft.name.trim()) problems.name = 'Give the rule a name.';
  draft.conditions.forEach((c, i) => {
    if (c.op === 'in' && c.values.length === 0) problems[`conditions.${i}.value`] = 'Tick at least one value.';
    else if (c.op !== 'in' && isNumeric(c.field) && c.value.trim() === '')
      problems[`conditions.${i}.value`] = 'Give a number.';
  });
  if (draft.action === 'deny' && !draft.reason) problems['action.reason'] = 'A denial needs a reason.';
  return problems;
}

export type Checked = { ok: true; input: RuleInput } | { ok: false; problems: Record<string, string> };

/**
 * The draft checked by the contract's own schema, each problem under its field's path (`name`,
 * `conditions.0.value`, `dailyLimit.amount`): the keys the API's refusals come back under too.
 */
export function checkDraft(draft: RuleDraft): Checked {
  const problems = missing(draft);
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  const parsed = RuleInput.safeParse(candidateOf(draft));
  if (parsed.success) return { ok: true, input: parsed.data };
  for (const issue of parsed.error.issues) problems[issue.path.join('.')] ??= issue.message;
  return { ok: false, problems };
}

/** What the preview reads: the draft with the conditions not yet complete left out. */
export function previewRuleOf(draft: RuleDraft) {
  const candidate = candidateOf(draft);
  return {
    ...candidate,
    conditions: candidate.conditions.flatMap((c) => {
      const parsed = RuleCondition.safeParse(c);
      return parsed.success ? [parsed.data] : [];
    }),
  };
}

/** An API refusal's details by the builder's field paths (`body.conditions.0.value` → `conditions.0.value`). */
export function problemsOf(details: ReadonlyArray<{ path: string; message: string }>): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const d of details) problems[d.path.replace(/^body\.(rule\.)?/, '')] ??= d.message;
  return problems;
}
