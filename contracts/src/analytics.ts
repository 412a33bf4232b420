import { z } from 'zod';
import { ClaimType, ResolutionReason, ResolutionType, ShipmentStatus } from './enums.js';
import { CurrencyCode, DecimalAmount } from './money.js';

const DAY_MS = 86_400_000;
/** The longest period one request may cover: a year and a day, so "last 365 days" fits whatever the hour. */
export const ANALYTICS_MAX_DAYS = 366;

/** `GET /api/admin/analytics` and `…/export.csv`: claims filed in `[from, to)`, for one store or every store the caller reads. */
export const AnalyticsQuery = z
  .object({
    from: z.iso.datetime(),
    to: z.iso.datetime(),
    store: z.uuid().optional(),
    /** `previous`: also the period of the same length just before `from`. */
    compare: z.enum(['previous']).optional(),
  })
  .refine((q) => Date.parse(q.from) < Date.parse(q.to), { message: '`from` must be before `to`.', path: ['to'] })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= ANALYTICS_MAX_DAYS * DAY_MS, {
    message: `A period spans at most ${ANALYTICS_MAX_DAYS} days.`,
    path: ['from'],
  });
export type AnalyticsQuery = z.infer<typeof AnalyticsQuery>;

export const AnalyticsPeriod = z.object({ from: z.iso.datetime(), to: z.iso.datetime() });
export type AnalyticsPeriod = z.infer<typeof AnalyticsPeriod>;

/** Elapsed times in seconds over the claims that have one (null when none has). */
export const DurationFigures = z.object({
  count: z.number().int().nonnegative(),
  medianSeconds: z.number().nullable(),
  p90Seconds: z.number().nullable(),
});
export type DurationFigures = z.infer<typeof DurationFigures>;

/** A sum of money in one currency, decimal at the API edge like every amount of the back-office API. */
export const CurrencyTotal = z.object({ currency: CurrencyCode, amount: DecimalAmount });
export type CurrencyTotal = z.infer<typeof CurrencyTotal>;

/**
 * The figures of one period. Every figure is about the claims filed in the period (a cohort): what
 * became of them, however late, is counted with them (docs/decisions/analytics.md).
 */
export const AnalyticsFigures = z.object({
  claimsFiled: z.number().int().nonnegative(),
  /** Claims on protected orders (not one-time appeasements) and the protected orders created in the period. */
  protectedClaims: z.number().int().nonnegative(),
  protectedOrders: z.number().int().nonnegative(),
  /** protectedClaims / protectedOrders; null with no protected order. */
  claimRate: z.number().nonnegative().nullable(),
  /** Claims that reached Resolved (approved) or Denied (denied). */
  decided: z.number().int().nonnegative(),
  approved: z.number().int().nonnegative(),
  denied: z.number().int().nonnegative(),
  approvalRate: z.number().min(0).max(1).nullable(),
  denialRate: z.number().min(0).max(1).nullable(),
  /** From filing to the store's (or staff's) first message. */
  firstResponse: DurationFigures,
  /** From filing to the decision that made the claim Resolved or Denied. */
  resolution: DurationFigures,
  /** What the stores are owed for the decisions standing (a reversed one is left out), by resolution type, in each store's currency. */
  reimbursed: z.array(
    z.object({
      resolutionType: ResolutionType,
      currency: CurrencyCode,
      amount: DecimalAmount,
      lines: z.number().int().nonnegative(),
    }),
  ),
  /** Store credit issued for the period's claims, less what reversals reclaimed of it (the part already redeemed stays). */
  storeCreditIssued: z.array(CurrencyTotal),
  reviews: z.object({
    count: z.number().int().nonnegative(),
    averageRating: z.number().min(1).max(5).nullable(),
    /** Ratings 1 to 5, each present. */
    ratings: z.array(z.object({ rating: z.number().int().min(1).max(5), count: z.number().int().nonnegative() })),
  }),
  /** Denied lines by reason, most frequent first (at most ten). */
  topDenialReasons: z.array(z.object({ reason: ResolutionReason.nullable(), count: z.number().int().positive() })),
  /** One row per UTC day and claim type that has claims. */
  filedByDay: z.array(z.object({ date: z.iso.date(), claimType: ClaimType, count: z.number().int().positive() })),
  /** The carrier and status of the shipment of the claim's first item; null when the filing did not record it. */
  byCarrier: z.array(z.object({ carrier: z.string().nullable(), count: z.number().int().positive() })),
  byShipmentStatus: z.array(z.object({ status: ShipmentStatus.nullable(), count: z.number().int().positive() })),
});
export type AnalyticsFigures = z.infer<typeof AnalyticsFigures>;

export const AnalyticsResponse = z.object({
  period: AnalyticsPeriod,
  figures: AnalyticsFigures,
  /** With `compare=previous`: the period of the same length ending at `from`, and its figures. */
  previous: z.object({ period: AnalyticsPeriod, figures: AnalyticsFigures }).nullable(),
});
export type AnalyticsResponse = z.infer<typeof AnalyticsResponse>;

/** The period of the same length that ends where `period` starts. */
export function previousPeriod(period: AnalyticsPeriod): AnalyticsPeriod {
  const from = Date.parse(period.from);
  const length = Date.parse(period.to) - from;
  return { from: new Date(from - length).toISOString(), to: new Date(from).toISOString() };
}

/** part / whole, or null when there is no whole to speak of. */
export const ratio = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);

/** The relative change from `previous` to `current` (0.25 is +25 %); null when there was nothing before to compare with. */
export function relativeChange(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null || previous === 0) return null;
  return (current - previous) / previous;
}
