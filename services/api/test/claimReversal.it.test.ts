import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  AdminClaimDetail,
  AdminClaimPage,
  OrderInput,
  TimelineResponse,
  type FileClaimRequest,
} from '@claims/contracts';
import { claimAssignmentProjection, claimListProjection, claimTimelineProjection, rebuild } from '@claims/projections';
import { upsertOrder } from '../src/catalog/orderRepository.js';
import { json, projectionsCaughtUp, startHarness, type Harness } from './support/backofficeHarness.js';
import { testOrder } from './support/testOrders.js';

const READERS = [claimListProjection, claimTimelineProjection, claimAssignmentProjection];

/** A protected order of two items (a jacket and a mug), for a decision on one of them. */
function twoItemOrder(orderNumber: string): OrderInput {
  const one = testOrder(orderNumber);
  const mug = { ...one.items[0]!, sourceItemId: `${orderNumber}-mug`, sku: 'MUG', productName: 'Mug', price: 12 };
  return OrderInput.parse({
    ...one,
    items: [...one.items, mug],
    fulfillments: [
      {
        ...one.fulfillments[0]!,
        items: [...one.fulfillments[0]!.items, { sourceItemId: mug.sourceItemId, quantity: 1 }],
      },
    ],
  });
}

const claimOf = (orderNumber: string, sourceItemIds: readonly string[]): FileClaimRequest => ({
  email: `${orderNumber.toLowerCase()}@example.com`,
  fulfillmentIssues: [
    {
      sourceFulfillmentId: `${orderNumber}-f`,
      issues: sourceItemIds.map((sourceItemId) => ({
        sourceItemId,
        claimType: 'DAMAGED' as const,
        quantity: 1,
        details: 'Arrived broken.',
        images: [],
      })),
    },
  ],
  resolution: { desiredMethod: 'REFUND', customerSignature: 'Pat Doe', updatedShippingAddress: null },
});

/**
 * A reversed resolution as the desk reads it on PostgreSQL: the queue's row (what its CSV export is made of) without a
 * resolution until the next decision, and the history's line with the reason and who, whether the status moves or not.
 */
describe("a reversed resolution in the desk's queue and history", () => {
  let h: Harness;
  let owner: string;
  let acme: string;
  /** RV-1: refunded, then reversed (back to OPEN). RV-2: one of two items decided, then reversed (status stays). */
  const claims = new Map<string, { claimId: string; claimNumber: string }>();

  const call = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const response = await h.call({ method, url, cookie: owner, body });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(200);
    return json(response);
  };
  const rowOf = async (orderNumber: string) => {
    await projectionsCaughtUp(h, READERS);
    const page = AdminClaimPage.parse(
      await call('GET', `/api/admin/claims?store=${acme}&search=${claims.get(orderNumber)!.claimNumber}`),
    );
    expect(page.data).toHaveLength(1);
    return page.data[0]!;
  };
  const historyOf = async (orderNumber: string) => {
    await projectionsCaughtUp(h, READERS);
    return TimelineResponse.parse(await call('GET', `/api/admin/claims/${claims.get(orderNumber)!.claimId}/timeline`))
      .data;
  };

  beforeAll(async () => {
    h = await startHarness();
    owner = await h.login('acmeOwner');
    acme = await h.storeId('acme');
    const db = h.runtime.ctx.database.db;
    await upsertOrder(db, acme, 'src-RV-1', testOrder('RV-1'));
    await upsertOrder(db, acme, 'src-RV-2', twoItemOrder('RV-2'));
    claims.set('RV-1', await h.fileClaim('src-RV-1', claimOf('RV-1', ['RV-1-li'])));
    claims.set('RV-2', await h.fileClaim('src-RV-2', claimOf('RV-2', ['RV-2-li', 'RV-2-mug'])));
  });
  afterAll(() => h?.stop());

  it("takes a decided claim's resolution out of its queue row until it is decided again, and tells the history why", async () => {
    const { claimId } = claims.get('RV-1')!;
    await call('POST', `/api/admin/claims/${claimId}/resolve`, { resolutionType: 'REFUND' });
    expect(await rowOf('RV-1')).toMatchObject({
      status: 'RESOLVED',
      resolutionType: 'REFUND',
      resolvedAt: expect.any(String),
    });

    const reversed = AdminClaimDetail.parse(
      await call('POST', `/api/admin/claims/${claimId}/reverse-resolution`, { reason: 'Charged back' }),
    );
    const row = await rowOf('RV-1');
    expect(row).toMatchObject({ status: 'OPEN', resolutionType: null, resolvedAt: null });
    expect(row.version).toBe(reversed.version);
    const history = await historyOf('RV-1');
    expect(history.slice(-2).map((e) => [e.eventType, e.status])).toEqual([
      ['ClaimResolutionReversed', null],
      ['ClaimStatusChanged', 'OPEN'],
    ]);
    expect(history.at(-2)).toMatchObject({
      actor: { type: 'user', name: 'Alex Owner' },
      summary: { reason: 'Charged back' },
    });

    await call('POST', `/api/admin/claims/${claimId}/resolve`, { resolutionType: 'RESHIP' });
    expect(await rowOf('RV-1')).toMatchObject({
      status: 'RESOLVED',
      resolutionType: 'RESHIP',
      resolvedAt: expect.any(String),
    });
  });

  it('takes back a decision on one item of two while the claim keeps its status, and the history still has the line', async () => {
    const { claimId } = claims.get('RV-2')!;
    const filed = AdminClaimDetail.parse(await call('GET', `/api/admin/claims/${claimId}`));
    const jacket = filed.items.find((i) => i.sourceItemId === 'RV-2-li')!;
    await call('POST', `/api/admin/claims/${claimId}/resolve`, {
      resolutionType: 'REFUND',
      items: [{ claimItemId: jacket.id }],
    });
    expect(await rowOf('RV-2')).toMatchObject({ status: 'NEW', resolutionType: 'REFUND', resolvedAt: null });

    await call('POST', `/api/admin/claims/${claimId}/reverse-resolution`, { reason: 'Decided the wrong item' });
    expect(await rowOf('RV-2')).toMatchObject({ status: 'NEW', resolutionType: null, resolvedAt: null });
    const history = await historyOf('RV-2');
    expect(history.at(-1)).toMatchObject({
      eventType: 'ClaimResolutionReversed',
      status: null,
      summary: { reason: 'Decided the wrong item' },
    });
  });

  it('has the upgrade repair the rows and history lines of reversals recorded before the readers handled them', async () => {
    const db = h.runtime.ctx.database.db;
    const before = {
      rows: [await rowOf('RV-1'), await rowOf('RV-2')],
      history: [await historyOf('RV-1'), await historyOf('RV-2')],
    };
    // The read models as the release before left them: the reversals passed over, so RV-1 kept its first decision's
    // type (the refund, not the reship after it) and RV-2 its taken-back decision, a version behind.
    await sql`update claim_list set resolution_type = 'REFUND' where claim_id = ${claims.get('RV-1')!.claimId}`.execute(
      db,
    );
    await sql`update claim_list set resolution_type = 'REFUND', version = version - 1 where claim_id = ${claims.get('RV-2')!.claimId}`.execute(
      db,
    );
    await sql`delete from claim_timeline where event_type = 'ClaimResolutionReversed'`.execute(db);
    expect((await rowOf('RV-1')).resolutionType).toBe('REFUND');

    await claimListProjection.migrations['2610_claim_list_reversals']!.up(db);
    await claimTimelineProjection.migrations['2620_claim_timeline_reversals']!.up(db);
    expect({
      rows: [await rowOf('RV-1'), await rowOf('RV-2')],
      history: [await historyOf('RV-1'), await historyOf('RV-2')],
    }).toEqual(before);
  });

  it('gives the same rows and lines when both read models are rebuilt from the events (their migrations run in the new schema)', async () => {
    const db = h.runtime.ctx.database.db;
    const before = {
      rows: [await rowOf('RV-1'), await rowOf('RV-2')],
      history: [await historyOf('RV-1'), await historyOf('RV-2')],
    };
    await rebuild(db, claimListProjection);
    await rebuild(db, claimTimelineProjection);
    expect({
      rows: [await rowOf('RV-1'), await rowOf('RV-2')],
      history: [await historyOf('RV-1'), await historyOf('RV-2')],
    }).toEqual(before);
  });
});
