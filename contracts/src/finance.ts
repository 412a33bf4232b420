import { z } from 'zod';
import { ResolutionType } from './enums.js';
import { currencyDecimals } from './currencyDigits.js';
import { CurrencyCode, DecimalAmount } from './money.js';

/** What a store-credit entry did: issued for a resolution, redeemed, adjusted by the store, or reclaimed by a reversal. */
export const StoreCreditKind = z.enum(['issued', 'redeemed', 'adjusted', 'reclaimed']);
export type StoreCreditKind = z.infer<typeof StoreCreditKind>;

/**
 * The money rules a decision was valued under, recorded with it: the store's currency and the order's
 * exchange rate (order currency per unit of store currency, docs/product.md#store-credit-bonus), the replacement cost of a reshipment
 * as a percentage of the items' value, and the store-credit bonus. A replay may try candidate rules.
 */
export const MoneyRules = z.object({
  replacementCostPercent: z.number().min(0).max(1_000),
  /**
   * The most one claim may pay out, in units of the store's currency; absent (a store that never set it, decisions
   * from before it was a rule): {@link defaultClaimCeiling} of the store's currency.
   */
  claimCeiling: z.number().positive().max(1_000_000_000).optional(),
});
export type MoneyRules = z.infer<typeof MoneyRules>;

export const Valuation = z.object({
  storeCurrency: CurrencyCode,
  exchangeRate: z.number().positive(),
  rules: MoneyRules,
  credit: z.object({ bonus: z.number().nonnegative(), bonusType: z.enum(['fixed', 'percentage']) }),
});
export type Valuation = z.infer<typeof Valuation>;

/** The field's usual cap on one claim, in a currency of two minor digits (dollars, euros, pounds). */
export const DEFAULT_CLAIM_CEILING = 5_000;

/**
 * The cap on one claim when the store set none. A currency without minor digits counts in units about a hundred
 * times smaller (yen, won), so 5,000 of them would refuse most claims: its default is a hundred times larger (one
 * minor digit, ten times). Exchange rates are not known here; a store whose currency this misjudges sets its own.
 */
export function defaultClaimCeiling(currency: string): number {
  return DEFAULT_CLAIM_CEILING * 10 ** Math.max(0, 2 - currencyDecimals(currency));
}

/** Money rules of a store that set none; the claim ceiling depends on its currency ({@link defaultClaimCeiling}). */
export const DEFAULT_MONEY_RULES = {
  replacementCostPercent: 100,
} as const satisfies MoneyRules;

/**
 * Money rules a finance replay may try instead of those each decision recorded: every rule the payout
 * valuation reads (the replacement-cost percentage and the store-credit bonus, amount or kind), and the
 * merchant's revenue share each invoice recorded (the `rev-share` settings group's shape). The store's
 * currency and the order's exchange rate are facts of the order, not rules, so they are never candidates; nor is the
 * claim ceiling, which bounds decisions when they are made and moves no payout of one made. An unknown name is refused rather than silently ignored, so a typo never passes for "nothing changes".
 */
/** The largest store-credit bonus a store may be given (as the capabilities settings bound it). */
export const MAX_STORE_CREDIT_BONUS = 1_000_000;

/** Bounded as live rules are: a candidate the settings would refuse is refused too (it would value nothing real). */
export const CandidateMoneyRules = MoneyRules.omit({ claimCeiling: true })
  .partial()
  .extend({
    credit: Valuation.shape.credit
      .extend({ bonus: z.number().nonnegative().max(MAX_STORE_CREDIT_BONUS) })
      .partial()
      .strict()
      .refine((c) => !(c.bonusType === 'percentage' && c.bonus !== undefined && c.bonus > 100), {
        message: 'A percentage bonus is at most 100.',
        path: ['bonus'],
      })
      .optional(),
    revShare: z
      .object({ merchantSharePercent: z.number().min(0).max(100) })
      .strict()
      .optional(),
  })
  .strict();
export type CandidateMoneyRules = z.infer<typeof CandidateMoneyRules>;

export const PayoutStatus = z.enum(['pending', 'approved', 'paid', 'reversed']);
export type PayoutStatus = z.infer<typeof PayoutStatus>;

/** Contract §Finance: one entry per decided item or resolution that moves money, in the store's currency. */
export const PayoutEntry = z.object({
  id: z.uuid(),
  storeId: z.uuid(),
  claimId: z.uuid(),
  resolutionType: ResolutionType,
  amount: DecimalAmount,
  currency: CurrencyCode,
  status: PayoutStatus,
  /** When the resolution was decided (the period filters match this). */
  decidedAt: z.iso.datetime(),
  /** The claim's number, as people name it (absent while the claim list has not caught up with the claim). */
  claimNumber: z.string().optional(),
});
export type PayoutEntry = z.infer<typeof PayoutEntry>;

/**
 * Contract §Finance: a period's bound is a date (a whole day in UTC, `to` included: what finance staff type) or an
 * ISO-8601 date-time; a date becomes the first or the last millisecond of its day (events are timed to the millisecond).
 */
const periodBound = (edge: 'start' | 'end') =>
  z
    .union([z.iso.date(), z.iso.datetime({ offset: true })])
    .transform((value) =>
      value.length === 10 ? `${value}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}Z` : value,
    );

export const PayoutEntriesQuery = z.object({
  storeId: z.uuid().optional(),
  from: periodBound('start').optional(),
  to: periodBound('end').optional(),
});
export const PayoutEntriesResponse = z.object({ entries: z.array(PayoutEntry) });

export const FinanceReplayRequest = z
  .object({
    from: periodBound('start'),
    to: periodBound('end'),
    storeIds: z.array(z.uuid()).max(1_000).optional(),
    /** Candidate money rules to try instead of those recorded with each decision. */
    rules: CandidateMoneyRules.optional(),
  })
  .refine((r) => Date.parse(r.from) <= Date.parse(r.to), { message: 'from must not be after to', path: ['to'] });
export type FinanceReplayRequest = z.infer<typeof FinanceReplayRequest>;

export const FinanceReplayStatus = z.enum(['running', 'done', 'failed']);

/** Live beside replayed, per store and currency (decimals in that currency). */
const ReplayTotals = z.array(
  z.object({ storeId: z.uuid(), currency: CurrencyCode, live: DecimalAmount, replayed: DecimalAmount }),
);

export const FinanceReplayView = z.object({
  id: z.uuid(),
  status: FinanceReplayStatus,
  progress: z.number().min(0).max(1),
  /** Payouts owed per store and currency. */
  stores: ReplayTotals,
  /**
   * Each payout line that differs (amount or status), with the ClaimResolved event that decided it; `change` is
   * replayed minus live (a missing side counts as zero), so a candidate rule's effect reads line by line.
   */
  differences: z.array(
    z.object({
      storeId: z.uuid(),
      claimId: z.uuid(),
      eventId: z.uuid(),
      live: DecimalAmount.nullable(),
      replayed: DecimalAmount.nullable(),
      lineId: z.uuid(),
      resolutionType: ResolutionType,
      currency: CurrencyCode,
      change: DecimalAmount,
      liveStatus: PayoutStatus.nullable(),
      replayedStatus: PayoutStatus.nullable(),
      /** The claim's number, added when the replay is read (absent while the claim list has not caught up). */
      claimNumber: z.string().optional(),
    }),
  ),
  /** Premiums collected less those reversed, per store and premium currency, and each premium event that differs. */
  premiums: z.object({
    stores: ReplayTotals,
    differences: z.array(
      z.object({
        storeId: z.uuid(),
        orderId: z.uuid(),
        orderNumber: z.string(),
        eventId: z.uuid(),
        currency: CurrencyCode,
        live: DecimalAmount.nullable(),
        replayed: DecimalAmount.nullable(),
      }),
    ),
  }),
  /**
   * Store credit issued (less what reversals reclaimed) per store and currency, and each store-credit event that
   * differs: an issue is revalued from the resolution line it was issued for (under the candidate rules), a
   * reclamation takes back that value less what its event says was redeemed, redemptions and adjustments are copied.
   */
  storeCredit: z.object({
    stores: ReplayTotals,
    differences: z.array(
      z.object({
        storeId: z.uuid(),
        eventId: z.uuid(),
        kind: StoreCreditKind,
        claimId: z.uuid().nullable(),
        /** The claim's number when the entry has a claim, added when the replay is read. */
        claimNumber: z.string().optional(),
        currency: CurrencyCode,
        live: DecimalAmount.nullable(),
        replayed: DecimalAmount.nullable(),
      }),
    ),
  }),
  /**
   * Each issued invoice of the period (its month starting in it) beside its figures rebuilt from the events as they
   * stood when it was issued: net totals per store and currency, and each line that differs with the events behind
   * the change (`causes`: the ClaimResolved of each payout a rule revalues, or the InvoiceIssued whose recorded
   * revenue share a candidate replaces); with no candidate rules, none differs.
   */
  invoices: z.object({
    stores: ReplayTotals,
    differences: z.array(
      z.object({
        storeId: z.uuid(),
        invoiceId: z.uuid(),
        number: z.string(),
        month: z.string(),
        currency: CurrencyCode,
        /** The invoice line, or `total` for the net. */
        line: z.enum(['premiums', 'rev_share', 'claims', 'total']),
        /** The InvoiceIssued event (null for a live invoice the events do not hold). */
        eventId: z.uuid().nullable(),
        live: DecimalAmount.nullable(),
        replayed: DecimalAmount.nullable(),
        change: DecimalAmount,
        causes: z.array(
          z.object({
            eventId: z.uuid(),
            claimId: z.uuid().nullable(),
            /** The claim's number when the cause is a claim's payout, added when the replay is read. */
            claimNumber: z.string().optional(),
            change: DecimalAmount,
          }),
        ),
      }),
    ),
  }),
  /** The candidate rules this replay tried (null: the rules each decision recorded). */
  rules: CandidateMoneyRules.nullable(),
  /** Finance events the replay folded, out of the whole history it read. */
  eventsReplayed: z.number().int().nonnegative(),
  error: z.string().nullable(),
});
export type FinanceReplayView = z.infer<typeof FinanceReplayView>;

export const PayoutBatchStatus = z.enum(['created', 'approved', 'paid']);
export type PayoutBatchStatus = z.infer<typeof PayoutBatchStatus>;

export const PayoutBatch = z.object({
  id: z.uuid(),
  storeId: z.uuid(),
  currency: CurrencyCode,
  total: DecimalAmount,
  entryIds: z.array(z.uuid()),
  status: PayoutBatchStatus,
  createdAt: z.iso.datetime(),
  createdBy: z.string(),
  approvedAt: z.iso.datetime().nullable(),
  approvedBy: z.string().nullable(),
  paidAt: z.iso.datetime().nullable(),
  /** Who marked it paid; null for batches paid before that was recorded. */
  paidBy: z.string().nullable(),
  reference: z.string().nullable(),
  version: z.number().int(),
  /** The names of the people behind each step, for the back-office (null when unknown). */
  createdByName: z.string().nullable(),
  approvedByName: z.string().nullable(),
  paidByName: z.string().nullable(),
});
export type PayoutBatch = z.infer<typeof PayoutBatch>;

export const CreatePayoutBatchRequest = z.object({
  storeId: z.uuid(),
  expectedVersion: z.number().int().nonnegative().optional(),
});
export const PayoutBatchActionRequest = z.object({ expectedVersion: z.number().int().nonnegative().optional() });
export const PayPayoutBatchRequest = PayoutBatchActionRequest.extend({ reference: z.string().trim().min(1).max(200) });
export const PayoutBatchList = z.object({ data: z.array(PayoutBatch) });

/** A customer's store credit at a store (amounts decimal in the store's currency). */
export const StoreCreditBalance = z.object({
  customerKey: z.string(),
  customerEmail: z.string(),
  currency: CurrencyCode,
  balance: DecimalAmount,
  issued: DecimalAmount,
  updatedAt: z.iso.datetime(),
});
export const StoreCreditBalanceList = z.object({ data: z.array(StoreCreditBalance) });
export type StoreCreditBalanceList = z.infer<typeof StoreCreditBalanceList>;

/** Taking back a claim's resolution: why, for the claim's history. */
export const ReverseResolutionRequest = z.object({
  reason: z.string().trim().min(1).max(500),
  expectedVersion: z.number().int().nonnegative().optional(),
});
export type ReverseResolutionRequest = z.infer<typeof ReverseResolutionRequest>;

export const StoreCreditEntry = z.object({
  kind: StoreCreditKind,
  /** Signed: what the entry did to the balance. */
  amount: DecimalAmount,
  /** Of an issued amount, the part that is the store's bonus (null for other entries). */
  bonus: DecimalAmount.nullable(),
  claimId: z.uuid().nullable(),
  /** The claim's number when the entry has a claim (absent while the claim list has not caught up with it). */
  claimNumber: z.string().optional(),
  note: z.string().nullable(),
  at: z.iso.datetime(),
  version: z.number().int(),
});
export type StoreCreditEntry = z.infer<typeof StoreCreditEntry>;
export const StoreCreditLedger = z.object({
  customerEmail: z.string(),
  currency: CurrencyCode,
  balance: DecimalAmount,
  entries: z.array(StoreCreditEntry),
  version: z.number().int(),
});
export type StoreCreditLedger = z.infer<typeof StoreCreditLedger>;

export const RedeemStoreCreditRequest = z.object({
  email: z.email().max(320),
  amount: DecimalAmount.positive(),
  reference: z.string().trim().min(1).max(200),
  expectedVersion: z.number().int().nonnegative().optional(),
});
export const AdjustStoreCreditRequest = z.object({
  email: z.email().max(320),
  amount: DecimalAmount.refine((a) => a !== 0, 'must not be zero'),
  reason: z.string().trim().min(1).max(500),
  expectedVersion: z.number().int().nonnegative().optional(),
});
export type RedeemStoreCreditRequest = z.infer<typeof RedeemStoreCreditRequest>;
export type AdjustStoreCreditRequest = z.infer<typeof AdjustStoreCreditRequest>;

/**
 * A STORE_CREDIT resolution line's credit as the shopper is given it, in the claim's currency: the credit,
 * the store's bonus on it and their sum; `issuedAt` once the store-credit ledger holds it; `reclaimed` once a
 * reversal took it back: the unredeemed part taken and the part already redeemed (kept), in the store's currency.
 */
export const ClaimStoreCredit = z.object({
  resolutionId: z.uuid(),
  currency: CurrencyCode,
  credit: DecimalAmount,
  bonus: DecimalAmount,
  total: DecimalAmount,
  issuedAt: z.iso.datetime().nullable(),
  reclaimed: z
    .object({ currency: CurrencyCode, amount: DecimalAmount, redeemed: DecimalAmount, at: z.iso.datetime() })
    .nullable(),
});
export type ClaimStoreCredit = z.infer<typeof ClaimStoreCredit>;

/** Premiums collected per store and currency in a period (reversals subtract). */
export const PremiumTotals = z.object({
  totals: z.array(
    z.object({ storeId: z.uuid(), currency: CurrencyCode, collected: DecimalAmount, orders: z.number().int() }),
  ),
});

/** Premiums collected and payouts decided per UTC month, store and currency (`month` is YYYY-MM). */
export const FinanceMonthlyTotals = z.object({
  months: z.array(
    z.object({
      month: z.string().regex(/^\d{4}-\d{2}$/),
      storeId: z.uuid(),
      currency: CurrencyCode,
      premiums: DecimalAmount,
      orders: z.number().int(),
      payouts: DecimalAmount,
      entries: z.number().int(),
    }),
  ),
});
export type FinanceMonthlyTotals = z.infer<typeof FinanceMonthlyTotals>;
