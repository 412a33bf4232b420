import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type RawBuilder } from 'kysely';
import {
  AnalyticsResponse,
  previousPeriod,
  ratio,
  toDecimal,
  type AnalyticsFigures,
  type AnalyticsPeriod,
  type CustomerIssueType,
  type ResolutionReason,
  type ResolutionType,
} from '@claims/contracts';
import { claimAnalyticsProjection } from '@claims/projections';
import { upsertOrder } from '../src/catalog/orderRepository.js';
import { eventually } from '../../../test/support/testDatabase.js';
import { json, startHarness, type Harness } from './support/backofficeHarness.js';
import { testOrder } from './support/testOrders.js';

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

interface Case {
  number: string;
  store: 'acme' | 'kumo';
  carrier: string;
  shipment: 'DELIVERED' | 'IN_TRANSIT';
  issue: CustomerIssueType;
  protectedOrder?: boolean;
  decision?: { resolutionType: ResolutionType; reason?: ResolutionReason };
  storeMessage?: boolean;
  rating?: number;
  /** The decision is reversed afterwards (finance takes it back). */
  reversed?: boolean;
}

const CASES: Case[] = [
  {
    number: 'AN-1',
    store: 'acme',
    carrier: 'UPS',
    shipment: 'DELIVERED',
    issue: 'DAMAGED',
    decision: { resolutionType: 'REFUND' },
    storeMessage: true,
    rating: 5,
  },
  {
    number: 'AN-2',
    store: 'acme',
    carrier: 'FedEx',
    shipment: 'IN_TRANSIT',
    issue: 'TRACKING_NOT_MOVING',
    decision: { resolutionType: 'DENY', reason: 'PACKAGE_ARRIVED' },
    storeMessage: true,
    rating: 2,
  },
  {
    number: 'AN-3',
    store: 'acme',
    carrier: 'UPS',
    shipment: 'DELIVERED',
    issue: 'WRONG_ITEM',
    decision: { resolutionType: 'STORE_CREDIT' },
    rating: 4,
  },
  {
    number: 'AN-4',
    store: 'acme',
    carrier: 'DHL',
    shipment: 'DELIVERED',
    issue: 'MISSING_ITEM',
    decision: { resolutionType: 'RESHIP' },
  },
  {
    number: 'AN-5',
    store: 'acme',
    carrier: 'UPS',
    shipment: 'DELIVERED',
    issue: 'DEFECTIVE_ITEM',
    decision: { resolutionType: 'DENY', reason: 'PACKAGE_ARRIVED' },
  },
  {
    number: 'AN-6',
    store: 'acme',
    carrier: 'DHL',
    shipment: 'DELIVERED',
    issue: 'DAMAGED',
    decision: { resolutionType: 'DENY', reason: 'POTENTIAL_FRAUD' },
  },
  { number: 'AN-7', store: 'acme', carrier: 'DHL', shipment: 'DELIVERED', issue: 'DAMAGED', storeMessage: true },
  { number: 'AN-8', store: 'acme', carrier: 'UPS', shipment: 'DELIVERED', issue: 'DAMAGED', protectedOrder: false },
  {
    number: 'AN-9',
    store: 'acme',
    carrier: 'UPS',
    shipment: 'DELIVERED',
    issue: 'DAMAGED',
    decision: { resolutionType: 'REFUND' },
    reversed: true,
  },
  {
    number: 'AN-10',
    store: 'acme',
    carrier: 'UPS',
    shipment: 'DELIVERED',
    issue: 'WRONG_ITEM',
    decision: { resolutionType: 'STORE_CREDIT' },
    reversed: true,
  },
  {
    number: 'AN-11',
    store: 'acme',
    carrier: 'DHL',
    shipment: 'DELIVERED',
    issue: 'DAMAGED',
    decision: { resolutionType: 'DENY', reason: 'POTENTIAL_FRAUD' },
    reversed: true,
  },
  {
    number: 'KU-1',
    store: 'kumo',
    carrier: 'Japan Post',
    shipment: 'DELIVERED',
    issue: 'DAMAGED',
    decision: { resolutionType: 'RESHIP' },
    storeMessage: true,
    rating: 3,
  },
];

const orderOf = (c: Case) =>
  testOrder(c.number, {
    currency: c.store === 'acme' ? 'USD' : 'JPY',
    policy: c.protectedOrder === false ? null : { insuredAmount: 100, premiumPaid: 2 },
    line: { price: c.store === 'acme' ? 44.45 : 4445 },
    shipment: { status: c.shipment, trackingCompany: c.carrier },
  });

/**
 * The claims of a period straight from the `events` table, one row each: what the test derives every
 * expected figure from, independently of the read model. Event times to the millisecond, as envelopes carry them.
 */
function claimsFromEvents(storeIds: readonly string[] | null, period: AnalyticsPeriod): RawBuilder<unknown> {
  const stores = storeIds ? [...storeIds] : null;
  return sql`(
    with filed as (
      select data->>'claimId' as claim_id, (data->>'filedAt')::timestamptz as filed_at, data->>'claimType' as claim_type,
        (data->>'isOta')::boolean as is_ota, data->'shipments'->0->>'carrier' as carrier, data->'shipments'->0->>'status' as shipment_status
      from events where type = 'ClaimFiled'
        and (data->>'filedAt')::timestamptz >= ${period.from}::timestamptz and (data->>'filedAt')::timestamptz < ${period.to}::timestamptz
        and (${stores}::uuid[] is null or store_id = any(${stores}::uuid[]))
    ), responded as (
      select data->>'claimId' as claim_id, min(date_trunc('milliseconds', occurred_at)) as at from events
      where type = 'ClaimMessageSent' and data->>'senderType' in ('merchant', 'staff') group by 1
    ), decided as (
      select distinct on (data->>'claimId') data->>'claimId' as claim_id, date_trunc('milliseconds', occurred_at) as at, data->>'status' as status from events
      where type = 'ClaimResolved' and data->>'status' in ('RESOLVED', 'DENIED') order by data->>'claimId', global_position
    ), reviewed as (
      select distinct on (data->>'claimId') data->>'claimId' as claim_id, (data->>'rating')::int as rating from events
      where type = 'ClaimReviewed' order by data->>'claimId', global_position desc
    )
    select f.*, r.at as responded_at, d.at as decided_at, d.status, v.rating
    from filed f left join responded r using (claim_id) left join decided d using (claim_id) left join reviewed v using (claim_id)
  )`;
}

/** Every decided line of those claims still standing (not reversed) with what the store is owed for it, rounded half-even as money is. */
function linesFromEvents(claims: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`(
    with line as (
      select e.data->>'claimId' as claim_id, l->>'resolutionType' as resolution_type, l->>'reason' as reason, e.data->'valuation' as v,
        (l->>'paidValue')::numeric / (e.data->'valuation'->>'exchangeRate')::numeric as paid,
        (l->>'shippingAmount')::numeric / (e.data->'valuation'->>'exchangeRate')::numeric as shipping
      from events e cross join jsonb_array_elements(e.data->'resolutions') l
      where e.type = 'ClaimResolved' and e.data->>'claimId' in (select claim_id from ${claims} c)
        and l->>'id' not in (select jsonb_array_elements(data->'lines')->>'resolutionId' from events where type = 'ClaimResolutionReversed')
    ), owed as (
      select claim_id, resolution_type, reason, v->>'storeCurrency' as currency,
        case resolution_type
          when 'DENY' then 0
          when 'REFUND' then paid + shipping
          when 'RESHIP' then paid * (v->'rules'->>'replacementCostPercent')::numeric / 100
          when 'STORE_CREDIT' then case when v->'credit'->>'bonusType' = 'percentage' then paid * (1 + (v->'credit'->>'bonus')::numeric / 100) end
          else paid
        end as exact
      from line
    )
    select claim_id, resolution_type, reason, currency,
      case when exact - floor(exact) = 0.5 then floor(exact) + (floor(exact)::bigint % 2) else round(exact) end as amount
    from owed
  )`;
}

type Row = Record<string, unknown>;

/** The figures a direct SQL over the events (and the orders, for the claim rate) gives. */
async function expectedFigures(
  h: Harness,
  storeIds: readonly string[] | null,
  period: AnalyticsPeriod,
): Promise<AnalyticsFigures> {
  const db = h.runtime.ctx.database.db;
  const claims = claimsFromEvents(storeIds, period);
  const lines = linesFromEvents(claims);
  const stores = storeIds ? [...storeIds] : null;
  const one = async (query: RawBuilder<unknown>) => (await query.execute(db)).rows[0] as Row;
  const all = async (query: RawBuilder<unknown>) => (await query.execute(db)).rows as Row[];
  const t = await one(sql`select count(*) as filed, count(*) filter (where not is_ota) as protected_claims,
      count(*) filter (where status = 'RESOLVED') as approved, count(*) filter (where status = 'DENIED') as denied,
      count(responded_at) as responded,
      percentile_cont(0.5) within group (order by extract(epoch from responded_at - filed_at)) as response_median,
      percentile_cont(0.9) within group (order by extract(epoch from responded_at - filed_at)) as response_p90,
      count(decided_at) as resolved,
      percentile_cont(0.5) within group (order by extract(epoch from decided_at - filed_at)) as resolution_median,
      percentile_cont(0.9) within group (order by extract(epoch from decided_at - filed_at)) as resolution_p90,
      count(rating) as reviews, avg(rating) as average_rating
    from ${claims} c`);
  const orders = await one(sql`select count(*) as n from orders where (doc->>'protected')::boolean
    and (doc->>'createdAt')::timestamptz >= ${period.from}::timestamptz and (doc->>'createdAt')::timestamptz < ${period.to}::timestamptz
    and (${stores}::uuid[] is null or store_id = any(${stores}::uuid[]))`);
  const ratings = await all(sql`select rating, count(*) as n from ${claims} c where rating is not null group by 1`);
  const byDay = await all(
    sql`select to_char(filed_at at time zone 'UTC', 'YYYY-MM-DD') as date, claim_type, count(*) as n from ${claims} c group by 1, 2`,
  );
  const byCarrier = await all(sql`select carrier, count(*) as n from ${claims} c group by 1`);
  const byStatus = await all(sql`select shipment_status, count(*) as n from ${claims} c group by 1`);
  const reimbursed = await all(
    sql`select resolution_type, currency, sum(amount) as amount, count(*) as n from ${lines} l where resolution_type <> 'DENY' group by 1, 2`,
  );
  const reasons = await all(
    sql`select reason, count(*) as n from ${lines} l where resolution_type = 'DENY' group by 1`,
  );
  // Issued less reclaimed: a reclaim's amount is what it took from the balance.
  const credit = await all(sql`select data->>'currency' as currency,
      sum(case type when 'StoreCreditIssued' then 1 else -1 end * (data->>'amount')::bigint) as amount from events
    where type in ('StoreCreditIssued', 'StoreCreditReclaimed') and data->>'claimId' in (select claim_id from ${claims} c) group by 1`);

  const n = (value: unknown) => Number(value);
  const orNull = (value: unknown) => (value === null ? null : Number(value));
  const decided = n(t.approved) + n(t.denied);
  const ratingCount = new Map(ratings.map((r) => [n(r.rating), n(r.n)]));
  return {
    claimsFiled: n(t.filed),
    protectedClaims: n(t.protected_claims),
    protectedOrders: n(orders.n),
    claimRate: ratio(n(t.protected_claims), n(orders.n)),
    decided,
    approved: n(t.approved),
    denied: n(t.denied),
    approvalRate: ratio(n(t.approved), decided),
    denialRate: ratio(n(t.denied), decided),
    firstResponse: {
      count: n(t.responded),
      medianSeconds: orNull(t.response_median),
      p90Seconds: orNull(t.response_p90),
    },
    resolution: {
      count: n(t.resolved),
      medianSeconds: orNull(t.resolution_median),
      p90Seconds: orNull(t.resolution_p90),
    },
    reimbursed: reimbursed.map((r) => ({
      resolutionType: r.resolution_type as ResolutionType,
      currency: String(r.currency),
      amount: toDecimal(n(r.amount), String(r.currency)),
      lines: n(r.n),
    })),
    storeCreditIssued: credit.map((r) => ({
      currency: String(r.currency),
      amount: toDecimal(n(r.amount), String(r.currency)),
    })),
    reviews: {
      count: n(t.reviews),
      averageRating: orNull(t.average_rating),
      ratings: [1, 2, 3, 4, 5].map((rating) => ({ rating, count: ratingCount.get(rating) ?? 0 })),
    },
    topDenialReasons: reasons.map((r) => ({ reason: r.reason as ResolutionReason | null, count: n(r.n) })),
    filedByDay: byDay.map((r) => ({
      date: String(r.date),
      claimType: r.claim_type as AnalyticsFigures['filedByDay'][number]['claimType'],
      count: n(r.n),
    })),
    byCarrier: byCarrier.map((r) => ({ carrier: r.carrier as string | null, count: n(r.n) })),
    byShipmentStatus: byStatus.map((r) => ({
      status: r.shipment_status as AnalyticsFigures['byShipmentStatus'][number]['status'],
      count: n(r.n),
    })),
  };
}

/** Lists in a fixed order and floats to nine places, so two derivations of the same figures compare equal. */
function comparable(figures: AnalyticsFigures): unknown {
  const sorted = <T>(list: readonly T[]) => [...list].map((x) => JSON.stringify(x)).sort();
  return JSON.parse(
    JSON.stringify(
      {
        ...figures,
        reimbursed: sorted(figures.reimbursed),
        storeCreditIssued: sorted(figures.storeCreditIssued),
        topDenialReasons: sorted(figures.topDenialReasons),
        filedByDay: sorted(figures.filedByDay),
        byCarrier: sorted(figures.byCarrier),
        byShipmentStatus: sorted(figures.byShipmentStatus),
      },
      (_key, value: unknown) =>
        typeof value === 'number' && !Number.isInteger(value) ? Number(value.toFixed(9)) : value,
    ),
  );
}

describe('claim analytics: every figure equals a direct SQL over the events', () => {
  let h: Harness;
  let owner: string;
  let kumoOwner: string;
  let admin: string;
  let acme: string;
  let kumo: string;
  const period: AnalyticsPeriod = { from: ago(30), to: new Date(Date.now() + DAY).toISOString() };
  const query = (extra = '') =>
    `from=${encodeURIComponent(period.from)}&to=${encodeURIComponent(period.to)}&compare=previous${extra}`;

  beforeAll(async () => {
    h = await startHarness();
    owner = await h.login('acmeOwner');
    kumoOwner = await h.login('kumoOwner');
    admin = await h.login('admin');
    acme = await h.storeId('acme');
    kumo = await h.storeId('kumo');
    for (const c of CASES) {
      const storeId = c.store === 'acme' ? acme : kumo;
      const cookie = c.store === 'acme' ? owner : kumoOwner;
      await upsertOrder(h.runtime.ctx.database.db, storeId, `src-${c.number}`, orderOf(c));
      const email = `${c.number.toLowerCase()}@example.com`;
      const method =
        c.decision?.resolutionType === 'STORE_CREDIT' ? 'STORE_CREDIT' : c.store === 'kumo' ? 'RESHIP' : 'REFUND';
      const filed = await h.fileClaim(`src-${c.number}`, {
        email,
        fulfillmentIssues: [
          {
            sourceFulfillmentId: `${c.number}-f`,
            issues: [
              {
                sourceItemId: `${c.number}-li`,
                claimType: c.issue,
                quantity: 1,
                details: 'Analytics case.',
                images: [],
              },
            ],
          },
        ],
        resolution: { desiredMethod: method, customerSignature: 'Pat Doe', updatedShippingAddress: null },
      });
      // The shopper's own message is no response from the store.
      const asked = await h.call({
        method: 'POST',
        url: `/api/claims/${filed.token}/messages`,
        body: { messageContent: 'Any news?' },
      });
      expect(asked.statusCode, asked.body).toBe(201);
      if (c.storeMessage) {
        const sent = await h.call({
          method: 'POST',
          url: `/api/admin/claims/${filed.claimId}/messages`,
          cookie,
          body: { messageContent: 'Looking into it.' },
        });
        expect(sent.statusCode, sent.body).toBe(201);
      }
      if (c.decision) {
        await h.resolveClaim(cookie, filed.claimId, c.decision);
      }
      if (c.reversed) {
        // Reversed once its credit is issued: a line reversed before that is never issued (docs/decisions/store-credit.md).
        await h.runtime.settle();
        const reversed = await h.call({
          method: 'POST',
          url: `/api/admin/claims/${filed.claimId}/reverse-resolution`,
          cookie: admin,
          body: { reason: 'Paid twice.' },
        });
        expect(reversed.statusCode, reversed.body).toBe(200);
      }
      if (c.rating) {
        const reviewed = await h.call({
          method: 'POST',
          url: `/api/claims/${filed.token}/reviews`,
          body: { rating: c.rating, text: '' },
        });
        expect(reviewed.statusCode, reviewed.body).toBe(201);
      }
    }
    // Store credit is issued by a reaction to the decision, and reclaimed by one to its reversal.
    await eventually(async () => {
      const { rows } = await sql<{
        type: string;
        n: string;
      }>`select type, count(*) as n from events where type like 'StoreCredit%' group by 1 order by 1`.execute(
        h.runtime.ctx.database.db,
      );
      expect(rows.map((r) => [r.type, Number(r.n)])).toEqual([
        ['StoreCreditIssued', 2],
        ['StoreCreditReclaimed', 1],
      ]);
    });
    await h.runtime.settle();
  }, 180_000);
  afterAll(() => h.stop());

  const analytics = async (cookie: string, extra = '') => {
    const response = await h.call({ method: 'GET', url: `/api/admin/analytics?${query(extra)}`, cookie });
    expect(response.statusCode, response.body).toBe(200);
    return AnalyticsResponse.parse(json(response));
  };

  it("answers a merchant the figures of their store, the same as the events say, and the previous period's", async () => {
    const answer = await analytics(owner);
    const expected = await expectedFigures(h, [acme], period);
    // The cases above and the demo claim of order 1007, so the comparison below is over figures that say something.
    // A reversed claim still counts as decided as it first was; its lines and credit no longer count.
    expect(expected).toMatchObject({
      claimsFiled: 12,
      protectedClaims: 11,
      approved: 6,
      denied: 4,
      decided: 10,
      reviews: { count: 3 },
    });
    expect(expected.topDenialReasons).toEqual(
      expect.arrayContaining([
        { reason: 'PACKAGE_ARRIVED', count: 2 },
        { reason: 'POTENTIAL_FRAUD', count: 1 },
      ]),
    );
    expect(expected.firstResponse.count).toBe(3);
    const credited = answer.figures.reimbursed.filter((r) => r.resolutionType === 'STORE_CREDIT');
    expect(credited.map((r) => r.lines)).toEqual([1]);
    expect(answer.figures.storeCreditIssued).toEqual([{ currency: 'USD', amount: credited[0]!.amount }]);
    expect(comparable(answer.figures)).toEqual(comparable(expected));
    expect(answer.previous?.period).toEqual(previousPeriod(period));
    expect(comparable(answer.previous!.figures)).toEqual(
      comparable(await expectedFigures(h, [acme], previousPeriod(period))),
    );
  });

  it('keeps a merchant to their own stores', async () => {
    const answer = await analytics(kumoOwner);
    expect(comparable(answer.figures)).toEqual(comparable(await expectedFigures(h, [kumo], period)));
    expect(answer.figures.claimsFiled).toBe(1);
    expect(
      (await h.call({ method: 'GET', url: `/api/admin/analytics?${query(`&store=${acme}`)}`, cookie: kumoOwner }))
        .statusCode,
    ).toBe(404);
  });

  it('answers internal staff every store, or the one they filter by', async () => {
    expect(comparable((await analytics(admin)).figures)).toEqual(comparable(await expectedFigures(h, null, period)));
    expect(comparable((await analytics(admin, `&store=${kumo}`)).figures)).toEqual(
      comparable(await expectedFigures(h, [kumo], period)),
    );
    expect(
      (
        await h.call({
          method: 'GET',
          url: `/api/admin/analytics?${query('&store=00000000-0000-4000-8000-000000000009')}`,
          cookie: admin,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('refuses a backwards or too long period with a 400, and strangers with a 401', async () => {
    const backwards = await h.call({
      method: 'GET',
      url: `/api/admin/analytics?from=${encodeURIComponent(period.to)}&to=${encodeURIComponent(period.from)}`,
      cookie: owner,
    });
    expect(backwards.statusCode).toBe(400);
    const tooLong = await h.call({
      method: 'GET',
      url: `/api/admin/analytics?from=${encodeURIComponent(ago(400))}&to=${encodeURIComponent(period.to)}`,
      cookie: owner,
    });
    expect(tooLong.statusCode).toBe(400);
    expect((await h.call({ method: 'GET', url: `/api/admin/analytics?${query()}` })).statusCode).toBe(401);
  });

  it('exports the same figures as CSV', async () => {
    const response = await h.call({ method: 'GET', url: `/api/admin/analytics/export.csv?${query()}`, cookie: owner });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="claims-analytics-.*\.csv"$/);
    const rows = response.body
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    expect(rows[0]).toEqual(['period', 'from', 'to', 'section', 'figure', 'currency', 'value']);
    const expected = await expectedFigures(h, [acme], period);
    const value = (p: string, section: string, figure: string, currency = '') =>
      rows.find((r) => r[0] === p && r[3] === section && r[4] === figure && r[5] === currency)?.[6];
    expect(value('current', 'claims', 'filed')).toBe(String(expected.claimsFiled));
    expect(value('current', 'decisions', 'denied')).toBe(String(expected.denied));
    for (const r of expected.reimbursed)
      expect(value('current', 'reimbursed', r.resolutionType, r.currency)).toBe(String(r.amount));
    expect(value('previous', 'claims', 'filed')).toBe('0');
  });

  it('has the upgrade that taught the read model reversals count those recorded before it', async () => {
    const db = h.runtime.ctx.database.db;
    const before = comparable((await analytics(admin)).figures);
    // The read model as the release before kept it: the reversals passed over, the columns not there yet.
    await sql`alter table claim_analytics_lines drop column reversed`.execute(db);
    await sql`alter table claim_analytics_credits drop column reclaimed`.execute(db);
    await claimAnalyticsProjection.migrations['2600_claim_analytics_reversals']!.up(db);
    expect(comparable((await analytics(admin)).figures)).toEqual(before);
  });
});
