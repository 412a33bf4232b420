import { z } from 'zod';
import { ClaimType, CustomerResolution, ResolutionReason, ResolutionType, ShipmentStatus } from './enums.js';
import { CurrencyCode, DecimalAmount } from './money.js';

/**
 * Contract §Automation: every claim's risk, the store's rules that decide claims like an agent, and backtests of a
 * draft rule over the store's history. Money inside (events, the domain) is integer minor units of the store's
 * currency; at the edge it is a decimal of that currency, like every amount of the API.
 */

export const RiskLevel = z.enum(['low', 'medium', 'high']);
export type RiskLevel = z.infer<typeof RiskLevel>;

/** What raised a claim's risk, each worth part of its score (docs/decisions/automation.md). */
export const RiskReasonCode = z.enum([
  'earlier_claims_here',
  'claims_at_other_stores',
  'reused_photos',
  'most_of_order_value',
  'above_usual_claim',
  'filed_soon_after_delivery',
  'delivered_but_not_received',
  'address_changed_after_shipping',
  'nothing_unusual',
]);
export type RiskReasonCode = z.infer<typeof RiskReasonCode>;

export const RiskReason = z.object({ code: RiskReasonCode, text: z.string() });
export type RiskReason = z.infer<typeof RiskReason>;

export const Risk = z.object({
  level: RiskLevel,
  score: z.number().int().min(0).max(100),
  reasons: z.array(RiskReason),
});
export type Risk = z.infer<typeof Risk>;

/**
 * What filing saw beyond the claim itself, recorded with it so its risk and every rule decide the same on a replay
 * as they did live: the shopper's history (by a keyed hash of their email, never the email), photos whose bytes are
 * on another claim, and the claim's value against the order and the store's usual claim. Amounts in minor units of
 * the store's currency.
 */
export const RiskFacts = z.object({
  /** The shopper's claims filed before this one, in the last 90 days, at this store. */
  shopperClaims90d: z.number().int().nonnegative(),
  /** …and at every other store. */
  shopperClaimsElsewhere90d: z.number().int().nonnegative(),
  /** Photos of this claim whose bytes are a photo of another claim. */
  reusedPhotos: z.number().int().nonnegative(),
  storeCurrency: CurrencyCode,
  claimValue: z.number().int().nonnegative(),
  /** The claimed items' order lines whole, what the claim could be worth at most. */
  orderValue: z.number().int().nonnegative(),
  /** The store's median claim over its recent claims; null while it has too few to say. */
  storeUsualClaim: z.number().int().nonnegative().nullable(),
  /** Hours between the last delivery scan of the claimed shipments and filing; null when none was delivered. */
  hoursSinceDelivery: z.number().nonnegative().nullable(),
  /** A shipment-level "not received" claim on a shipment the carrier scanned delivered. */
  deliveredButNotReceived: z.boolean(),
  /** The shopper gave a new address although a claimed shipment had already left. */
  addressChangedAfterShipping: z.boolean(),
});
export type RiskFacts = z.infer<typeof RiskFacts>;

/** The fields a rule's condition may test; numbers compare, the others are equal or listed. */
export const RuleField = z.enum([
  'claimType',
  'claimValue',
  'riskLevel',
  'riskScore',
  'shipmentStatus',
  'shopperClaims90d',
  'desiredMethod',
]);
export type RuleField = z.infer<typeof RuleField>;

export const RuleOp = z.enum(['eq', 'in', 'lte', 'gte']);
export type RuleOp = z.infer<typeof RuleOp>;

/** Fields compared as numbers; claimValue is money (a decimal at the edge, minor units inside). */
export const NUMERIC_RULE_FIELDS: readonly RuleField[] = ['claimValue', 'riskScore', 'shopperClaims90d'];

/** The values each field that is not a number can take (riskLevel is ordered low < medium < high, so lte/gte apply). */
export const RULE_FIELD_VALUES: Readonly<Partial<Record<RuleField, readonly string[]>>> = {
  claimType: ClaimType.options,
  riskLevel: RiskLevel.options,
  shipmentStatus: ShipmentStatus.options,
  desiredMethod: CustomerResolution.options,
};

const ConditionValue = z.union([z.number().finite(), z.string().min(1).max(100), z.array(z.string()).min(1).max(50)]);

/** Which ops a field takes and which values: the one check the edge and the stored definition share. */
function checkCondition(
  condition: { field: RuleField; op: RuleOp; value: z.infer<typeof ConditionValue> },
  ctx: z.RefinementCtx,
): void {
  const { field, op, value } = condition;
  const issue = (message: string) => ctx.addIssue({ code: 'custom', message, path: ['value'] });
  if (NUMERIC_RULE_FIELDS.includes(field)) {
    if (op === 'in') issue(`${field} compares as a number: use eq, lte or gte.`);
    else if (typeof value !== 'number' || value < 0) issue(`${field} needs a number of at least 0.`);
    return;
  }
  const allowed = RULE_FIELD_VALUES[field] ?? [];
  if ((op === 'lte' || op === 'gte') && field !== 'riskLevel') {
    issue(`${field} is not ordered: use eq or in.`);
    return;
  }
  const values = op === 'in' ? value : [value];
  if (!Array.isArray(values) || (op !== 'in' && Array.isArray(value))) {
    issue(op === 'in' ? `in needs a list of ${field} values.` : `${op} needs one ${field} value.`);
    return;
  }
  for (const v of values) if (!allowed.includes(String(v))) issue(`${String(v)} is not a ${field}.`);
}

export const RuleCondition = z
  .object({ field: RuleField, op: RuleOp, value: ConditionValue })
  .superRefine((condition, ctx) => checkCondition(condition, ctx));
export type RuleCondition = z.infer<typeof RuleCondition>;

export const RuleActionType = z.enum(['approve', 'deny', 'hold']);
export type RuleActionType = z.infer<typeof RuleActionType>;

/**
 * approve: the resolution each item's shopper asked for (or `resolutionType`, when given); deny: with `reason`
 * (required); hold: the claim waits for a person, labelled (`label`, default "Held by rule") so the queue finds it.
 */
export const RuleAction = z
  .object({
    type: RuleActionType,
    resolutionType: ResolutionType.exclude(['DENY']).optional(),
    reason: ResolutionReason.optional(),
    label: z.string().trim().min(1).max(60).optional(),
  })
  .superRefine((action, ctx) => {
    if (action.type === 'deny' && !action.reason)
      ctx.addIssue({ code: 'custom', message: 'A denial needs a reason.', path: ['reason'] });
  });
export type RuleAction = z.infer<typeof RuleAction>;

export const RuleMode = z.enum(['live', 'shadow', 'off']);
export type RuleMode = z.infer<typeof RuleMode>;

/** A rule as the store keeps it: claimValue conditions and the money limit in minor units of the store's currency. */
export const RuleDefinition = z.object({
  name: z.string().trim().min(1).max(120),
  mode: RuleMode,
  conditions: z.array(RuleCondition).max(20),
  action: RuleAction,
  dailyLimit: z.object({
    count: z.number().int().positive().nullable(),
    amount: z.number().int().positive().nullable(),
  }),
});
export type RuleDefinition = z.infer<typeof RuleDefinition>;

/** `POST` and `PUT /api/stores/{storeId}/rules…`: money as decimals of the store's currency. */
export const RuleInput = z.object({
  name: RuleDefinition.shape.name,
  mode: RuleMode,
  conditions: z.array(RuleCondition).max(20).default([]),
  action: RuleAction,
  dailyLimit: z
    .object({
      count: z.number().int().positive().max(1_000_000).nullable().optional(),
      amount: DecimalAmount.positive().max(100_000_000).nullable().optional(),
    })
    .optional(),
});
export type RuleInput = z.infer<typeof RuleInput>;

export const RuleCreatedResponse = z.object({ id: z.uuid(), version: z.number().int().positive() });

export const RuleView = RuleInput.extend({
  id: z.uuid(),
  version: z.number().int().positive(),
  position: z.number().int().nonnegative(),
  dailyLimit: z.object({ count: z.number().int().nullable(), amount: DecimalAmount.nullable() }),
  currency: CurrencyCode,
  updatedAt: z.iso.datetime(),
});
export type RuleView = z.infer<typeof RuleView>;

/**
 * `GET /api/stores/{storeId}/rules`: the rules in the order they are tried, and the store's kill switch; `currency` is
 * the store's, what a new rule's money is in (a store without rules has no rule to say it).
 */
export const RuleList = z.object({
  rules: z.array(RuleView),
  paused: z.boolean(),
  currency: CurrencyCode,
  version: z.number().int().nonnegative(),
});
export type RuleList = z.infer<typeof RuleList>;

/** `PUT /api/stores/{storeId}/rules/order`: every rule's id, in the new order. */
export const RuleOrderRequest = z.object({ ruleIds: z.array(z.uuid()).max(200) });
/** `PUT /api/stores/{storeId}/rules/switch`: the kill switch; paused, no rule of the store acts or records. */
export const RuleSwitchRequest = z.object({ paused: z.boolean() });

/** A period: a date (whole days in UTC, `to` included) or an ISO-8601 date-time. */
const PeriodBound = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

export const BacktestRequest = z.object({ rule: RuleInput, from: PeriodBound, to: PeriodBound });
export type BacktestRequest = z.infer<typeof BacktestRequest>;

export const BacktestStatus = z.enum(['running', 'done', 'failed']);

/** What the rule would decide differently from what was decided (by an agent, or another rule). */
export const BacktestDisagreement = z.object({
  claimId: z.uuid(),
  claimNumber: z.string(),
  /** The outcome decided: APPROVED, DENIED, or HELD/OPEN while nothing is decided. */
  agent: z.string(),
  /** What the rule would have done: APPROVED, DENIED or HELD. */
  rule: z.string(),
});

export const BacktestView = z.object({
  id: z.uuid(),
  status: BacktestStatus,
  progress: z.number().min(0).max(1),
  matched: z.number().int().nonnegative(),
  decided: z.object({ count: z.number().int().nonnegative(), amount: DecimalAmount, currency: CurrencyCode }),
  disagreements: z.array(BacktestDisagreement),
  /** Per week (Monday, UTC) of filing: claims matched and decided, and the money. */
  weeks: z.array(
    z.object({ week: z.iso.date(), matched: z.number().int(), decided: z.number().int(), amount: DecimalAmount }),
  ),
  error: z.string().nullable(),
});
export type BacktestView = z.infer<typeof BacktestView>;

/** What a rule did (live) or would have done (shadow) on one claim. */
export const RuleActivityEntry = z.object({
  ruleId: z.uuid(),
  ruleVersion: z.number().int().positive(),
  ruleName: z.string(),
  mode: z.enum(['live', 'shadow']),
  claimId: z.uuid(),
  claimNumber: z.string(),
  action: RuleActionType,
  amount: DecimalAmount,
  currency: CurrencyCode,
  at: z.iso.datetime(),
});
export type RuleActivityEntry = z.infer<typeof RuleActivityEntry>;
export const RuleActivityList = z.object({ entries: z.array(RuleActivityEntry) });

/** A store's rules, versioned: one stream per store, so their order and the kill switch change in one place. */
export const storeRulesStreamOf = (storeId: string): string => `store-rules:${storeId}`;
/**
 * What a rule did on one day (UTC): one stream per rule and day. A live decision appends here in the transaction
 * that resolves the claim, at the version the limit was checked on, so two decisions at once cannot both take the
 * day's last room (docs/decisions/automation.md "Daily limits").
 */
export const ruleActivityStreamOf = (ruleId: string, day: string): string => `rule-activity:${ruleId}:${day}`;

export const ruleCreatedData = z.object({
  storeId: z.uuid(),
  ruleId: z.uuid(),
  rule: RuleDefinition,
  createdAt: z.iso.datetime(),
});
/** A new version of a rule: the whole definition (its version is the count of its created and revised events). */
export const ruleRevisedData = z.object({
  storeId: z.uuid(),
  ruleId: z.uuid(),
  version: z.number().int().min(2),
  rule: RuleDefinition,
  revisedAt: z.iso.datetime(),
});
export const rulesReorderedData = z.object({
  storeId: z.uuid(),
  ruleIds: z.array(z.uuid()),
  reorderedAt: z.iso.datetime(),
});
/** The kill switch: paused, no rule of the store acts or records anything. */
export const rulesSwitchedData = z.object({ storeId: z.uuid(), paused: z.boolean(), switchedAt: z.iso.datetime() });

/**
 * A rule acted on a claim (live: the resolution or hold it sent is in the claim's stream, same transaction) or would
 * have (shadow: nothing else changed). `amount` is what it paid or would pay, in minor units of the store's currency.
 */
export const ruleAppliedData = z.object({
  storeId: z.uuid(),
  ruleId: z.uuid(),
  ruleVersion: z.number().int().positive(),
  ruleName: z.string(),
  mode: z.enum(['live', 'shadow']),
  day: z.iso.date(),
  claimId: z.uuid(),
  claimNumber: z.string(),
  action: RuleActionType,
  amount: z.number().int().nonnegative(),
  currency: CurrencyCode,
  appliedAt: z.iso.datetime(),
});
export type RuleAppliedData = z.infer<typeof ruleAppliedData>;

/** What the edge looks up for a filing before it is decided (history and photos are not the claim's own facts). */
export const FilingScreening = z.object({
  shopperKey: z.string(),
  shopperClaims90d: z.number().int().nonnegative(),
  shopperClaimsElsewhere90d: z.number().int().nonnegative(),
  reusedPhotos: z.number().int().nonnegative(),
  storeCurrency: CurrencyCode,
  /** In minor units of the store's currency; null while the store has too few claims to say. */
  storeUsualClaim: z.number().int().nonnegative().nullable(),
});
export type FilingScreening = z.infer<typeof FilingScreening>;
