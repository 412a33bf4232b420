import fc from 'fast-check';
import type { ClaimStatus, ResolutionReason, ResolutionType, ReturnStatus } from '@claims/contracts';

/**
 * Random stories of claims of several items, as a shopper and a store's agent live them through the HTTP API: the
 * generators of the model-based test across readers (claimReaders.ts runs and checks them). Indices (claim, item,
 * return) are taken modulo what exists, so every generated command means something, valid or not: an invalid one
 * must be refused and change nothing.
 */

/** One claim to file: how many items its order has (each claimed), and the quantity of the first. */
export interface ClaimSpec {
  items: number;
  firstQuantity: number;
}

export interface ResolutionLine {
  item: number;
  type?: ResolutionType | undefined;
  /** Part of the line: a percentage of its value, or one less than its quantity. */
  percentage?: number | undefined;
  partialQuantity?: boolean | undefined;
}

export type StoryCommand =
  | {
      kind: 'resolve';
      via: 'desk' | 'v1';
      claim: number;
      type: ResolutionType;
      reason: boolean;
      lines: ResolutionLine[] | null;
      amount?: number | undefined;
    }
  | { kind: 'reverse'; claim: number }
  | { kind: 'reopen'; claim: number }
  | { kind: 'status'; claim: number; to: ClaimStatus; reason: boolean }
  | { kind: 'message'; claim: number; from: 'shopper' | 'store' }
  | { kind: 'startReturn'; claim: number; items: number[] }
  | { kind: 'returnStatus'; claim: number; returnIndex: number; to: ReturnStatus };

/**
 * A live rule of the store, created before the story's claims are filed (contract §Automation): it decides the claims
 * it matches at filing, as the actor `{type: "rule", id, version}`, before the story's commands follow.
 */
export interface RuleSpec {
  action: 'approve' | 'deny' | 'hold';
  /** approve: what each item's shopper asked for (store credit), or refunds. */
  resolutionType: 'REFUND' | null;
  /** every: any claim (its risk is low); small: worth at most 60 (two items, the first once). */
  matches: 'every' | 'small';
  /** The rule's daily count, so a second matching claim may be left to a person. */
  dailyCount: number | null;
}

export interface Story {
  claims: ClaimSpec[];
  rule: RuleSpec | null;
  commands: StoryCommand[];
}

const claim = fc.nat({ max: 1 });
const item = fc.nat({ max: 2 });
/** The types a demo store offers, store credit (with its bonus) and denial weighted up: they are what readers disagree on. */
const lineType = fc.oneof(
  { arbitrary: fc.constant<ResolutionType>('STORE_CREDIT'), weight: 3 },
  { arbitrary: fc.constant<ResolutionType>('DENY'), weight: 2 },
  { arbitrary: fc.constantFrom<ResolutionType>('REFUND', 'RESHIP'), weight: 2 },
);

const resolutionLine: fc.Arbitrary<ResolutionLine> = fc.record(
  {
    item,
    type: fc.option(lineType, { nil: undefined }),
    percentage: fc.option(fc.constantFrom(50, 80), { nil: undefined }),
    partialQuantity: fc.option(fc.boolean(), { nil: undefined }),
  },
  { requiredKeys: ['item'] },
);

/** The agent on the back-office, or the store's integration on the public API. */
const via = fc.constantFrom('desk' as const, 'v1' as const);

/** What every decision says: how it is sent, of which claim, its type, whether it gives a reason. */
const decision = (type: fc.Arbitrary<ResolutionType>) => ({
  kind: fc.constant('resolve' as const),
  via,
  claim,
  type,
  reason: fc.boolean(),
});

const resolve: fc.Arbitrary<StoryCommand> = fc.oneof(
  // Some items, each with its own type or the request's.
  {
    arbitrary: fc.record({ ...decision(lineType), lines: fc.array(resolutionLine, { minLength: 1, maxLength: 2 }) }),
    weight: 4,
  },
  // Every item not decided yet.
  { arbitrary: fc.record({ ...decision(lineType), lines: fc.constant(null) }), weight: 2 },
  // A claim-level amount.
  {
    arbitrary: fc.record({
      ...decision(fc.constantFrom<ResolutionType>('FLAT_RATE', 'CUSTOM', 'STORE_CREDIT')),
      lines: fc.constant(null),
      amount: fc.constantFrom(12.5, 30),
    }),
    weight: 1,
  },
);

const statuses = fc.constantFrom<ClaimStatus>(
  'OPEN',
  'COMMUNICATING',
  'WAITING_FOR_CUSTOMER',
  'TEMPORARILY_DISMISSED',
  'DISMISSED',
  'CLOSED',
  'ARCHIVED',
  'RESOLVED',
);

export const storyCommand: fc.Arbitrary<StoryCommand> = fc.oneof(
  { arbitrary: resolve, weight: 6 },
  { arbitrary: fc.record({ kind: fc.constant('reverse' as const), claim }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('reopen' as const), claim }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constant('status' as const), claim, to: statuses, reason: fc.boolean() }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('message' as const),
      claim,
      from: fc.constantFrom('shopper' as const, 'store' as const),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('startReturn' as const),
      claim,
      items: fc.array(item, { minLength: 1, maxLength: 2 }),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('returnStatus' as const),
      claim,
      returnIndex: fc.nat({ max: 1 }),
      to: fc.constantFrom<ReturnStatus>('APPROVED', 'RECEIVED', 'COMPLETED', 'CANCELLED'),
    }),
    weight: 1,
  },
);

export const claimSpec: fc.Arbitrary<ClaimSpec> = fc.record({
  items: fc.integer({ min: 2, max: 3 }),
  firstQuantity: fc.integer({ min: 1, max: 2 }),
});

export const ruleSpec: fc.Arbitrary<RuleSpec> = fc.record({
  action: fc.constantFrom('approve' as const, 'deny' as const, 'hold' as const),
  resolutionType: fc.constantFrom(null, 'REFUND' as const),
  matches: fc.constantFrom('every' as const, 'small' as const),
  dailyCount: fc.constantFrom(null, 1),
});

/** One or two claims, half the time under a live rule, then up to eight commands on them. */
export const story: fc.Arbitrary<Story> = fc.record({
  claims: fc.array(claimSpec, { minLength: 1, maxLength: 2 }),
  rule: fc.option(ruleSpec, { nil: null, freq: 2 }),
  commands: fc.array(storyCommand, { maxLength: 8 }),
});

/** A reason for a line or a closing, when the command gives one. */
export const REASON: ResolutionReason = 'OTHER';
