import { sql, type QueryExecutorProvider, type RawBuilder } from 'kysely';
import {
  ratio,
  type AnalyticsFigures,
  type ClaimType,
  type ResolutionReason,
  type ResolutionType,
  type ShipmentStatus,
} from '@claims/contracts';

export interface ClaimAnalyticsFilter {
  /** null: every store. */
  storeIds: readonly string[] | null;
  /** Claims filed at or after `from` and before `to`. */
  from: string;
  to: string;
}

/** An amount in minor units of its currency. */
export interface MinorTotal {
  currency: string;
  amount: number;
}

/** The figures the read model answers (money in minor units); protected orders are the catalog's, not the events'. */
export type ClaimAnalytics = Omit<
  AnalyticsFigures,
  'protectedOrders' | 'claimRate' | 'reimbursed' | 'storeCreditIssued'
> & {
  reimbursed: Array<MinorTotal & { resolutionType: ResolutionType; lines: number }>;
  storeCreditIssued: MinorTotal[];
};

const DENIAL_REASONS_SHOWN = 10;

/** The period's claims, as a subquery. */
function cohort(filter: ClaimAnalyticsFilter): RawBuilder<unknown> {
  const storeIds = filter.storeIds ? [...filter.storeIds] : null;
  return sql`(select * from claim_analytics
    where filed_at >= ${filter.from}::timestamptz and filed_at < ${filter.to}::timestamptz
      and (${storeIds}::uuid[] is null or store_id = any(${storeIds}::uuid[])))`;
}

const seconds = (value: number | string | null): number | null => (value === null ? null : Number(value));

/** Every figure of the claims filed in a period, for some stores or all. */
export async function claimAnalytics(db: QueryExecutorProvider, filter: ClaimAnalyticsFilter): Promise<ClaimAnalytics> {
  const claims = cohort(filter);
  const {
    rows: [totals],
  } = await sql<{
    filed: string;
    protected_claims: string;
    decided: string;
    approved: string;
    denied: string;
    responded: string;
    response_median: number | null;
    response_p90: number | null;
    resolved: string;
    resolution_median: number | null;
    resolution_p90: number | null;
    reviews: string;
    average_rating: string | null;
  }>`
    select count(*) as filed,
      count(*) filter (where not is_ota) as protected_claims,
      count(outcome) as decided,
      count(*) filter (where outcome = 'APPROVED') as approved,
      count(*) filter (where outcome = 'DENIED') as denied,
      count(first_response_at) as responded,
      percentile_cont(0.5) within group (order by extract(epoch from first_response_at - filed_at)) as response_median,
      percentile_cont(0.9) within group (order by extract(epoch from first_response_at - filed_at)) as response_p90,
      count(decided_at) as resolved,
      percentile_cont(0.5) within group (order by extract(epoch from decided_at - filed_at)) as resolution_median,
      percentile_cont(0.9) within group (order by extract(epoch from decided_at - filed_at)) as resolution_p90,
      count(rating) as reviews,
      avg(rating) as average_rating
    from ${claims} c`.execute(db);
  const { rows: ratings } = await sql<{ rating: number; count: string }>`
    select rating, count(*) as count from ${claims} c where rating is not null group by rating`.execute(db);
  const { rows: byDay } = await sql<{ date: string; claim_type: ClaimType; count: string }>`
    select to_char(filed_at at time zone 'UTC', 'YYYY-MM-DD') as date, claim_type, count(*) as count
    from ${claims} c group by 1, 2 order by 1, 2`.execute(db);
  const { rows: byCarrier } = await sql<{ carrier: string | null; count: string }>`
    select carrier, count(*) as count from ${claims} c group by carrier order by count(*) desc, carrier nulls last`.execute(
    db,
  );
  const { rows: byStatus } = await sql<{ status: ShipmentStatus | null; count: string }>`
    select shipment_status as status, count(*) as count from ${claims} c group by shipment_status order by count(*) desc, shipment_status nulls last`.execute(
    db,
  );
  const { rows: reimbursed } = await sql<{
    resolution_type: ResolutionType;
    currency: string;
    amount: string;
    lines: string;
  }>`
    select l.resolution_type, l.currency, sum(l.amount) as amount, count(*) as lines
    from claim_analytics_lines l join ${claims} c on c.claim_id = l.claim_id
    where l.resolution_type <> 'DENY' and not l.reversed group by 1, 2 order by 1, 2`.execute(db);
  const { rows: reasons } = await sql<{ reason: ResolutionReason | null; count: string }>`
    select l.reason, count(*) as count
    from claim_analytics_lines l join ${claims} c on c.claim_id = l.claim_id
    where l.resolution_type = 'DENY' and not l.reversed group by l.reason order by count(*) desc, l.reason nulls last limit ${DENIAL_REASONS_SHOWN}`.execute(
    db,
  );
  const { rows: credit } = await sql<{ currency: string; amount: string }>`
    select s.currency, sum(s.amount - s.reclaimed) as amount
    from claim_analytics_credits s join ${claims} c on c.claim_id = s.claim_id group by 1 order by 1`.execute(db);

  const t = totals!;
  const ratingCounts = new Map(ratings.map((r) => [Number(r.rating), Number(r.count)]));
  const decided = Number(t.decided);
  return {
    claimsFiled: Number(t.filed),
    protectedClaims: Number(t.protected_claims),
    decided,
    approved: Number(t.approved),
    denied: Number(t.denied),
    approvalRate: ratio(Number(t.approved), decided),
    denialRate: ratio(Number(t.denied), decided),
    firstResponse: {
      count: Number(t.responded),
      medianSeconds: seconds(t.response_median),
      p90Seconds: seconds(t.response_p90),
    },
    resolution: {
      count: Number(t.resolved),
      medianSeconds: seconds(t.resolution_median),
      p90Seconds: seconds(t.resolution_p90),
    },
    reimbursed: reimbursed.map((r) => ({
      resolutionType: r.resolution_type,
      currency: r.currency,
      amount: Number(r.amount),
      lines: Number(r.lines),
    })),
    storeCreditIssued: credit.map((r) => ({ currency: r.currency, amount: Number(r.amount) })),
    reviews: {
      count: Number(t.reviews),
      averageRating: t.average_rating === null ? null : Number(t.average_rating),
      ratings: [1, 2, 3, 4, 5].map((rating) => ({ rating, count: ratingCounts.get(rating) ?? 0 })),
    },
    topDenialReasons: reasons.map((r) => ({ reason: r.reason, count: Number(r.count) })),
    filedByDay: byDay.map((r) => ({ date: r.date, claimType: r.claim_type, count: Number(r.count) })),
    byCarrier: byCarrier.map((r) => ({ carrier: r.carrier, count: Number(r.count) })),
    byShipmentStatus: byStatus.map((r) => ({ status: r.status, count: Number(r.count) })),
  };
}
