import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminClaimDetail,
  AdminOrderRefList,
  AdminOrderView,
  FileClaimResponse,
  orderPremiumStreamOf,
  type StaffFileClaimRequest,
} from '@claims/contracts';
import { readStream } from '@claims/event-store';
import { ingestOrder } from '../src/catalog/ingestOrder.js';
import { json, startHarness, type DemoUser, type Harness } from './support/backofficeHarness.js';
import { systemMeta, testOrder } from './support/testOrders.js';

let orderCount = 0;

/** A delivered, protected order of one line. */
function freshOrder() {
  const number = `ORD-${++orderCount}`;
  return {
    number,
    sourceOrderId: `src-${number}`,
    input: testOrder(number, {
      policy: { insuredAmount: 49, premiumPaid: 1.5 },
      line: { sku: 'SKU-1', productName: 'Lamp', price: 49 },
    }),
  };
}

const staffClaim = (number: string): StaffFileClaimRequest => ({
  fulfillmentIssues: [
    {
      sourceFulfillmentId: `${number}-f`,
      issues: [
        { sourceItemId: `${number}-li`, claimType: 'DAMAGED', quantity: 1, details: 'Phoned in: broken.', images: [] },
      ],
    },
  ],
  resolution: {
    desiredMethod: 'REFUND',
    customerSignature: 'Riley Agent for the shopper',
    updatedShippingAddress: null,
  },
});

describe("the desk's order page: the order, its protection and a claim filed by staff", () => {
  let h: Harness;
  const cookies = new Map<DemoUser, string>();
  let acme = '';
  let kumo = '';
  const call = (user: DemoUser, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
    h.call({ method, url, cookie: cookies.get(user), body });
  async function seedOrder(storeId: string) {
    const order = freshOrder();
    const { order: stored } = await ingestOrder(h.runtime.ctx, storeId, order.sourceOrderId, order.input, systemMeta);
    return { ...order, id: stored.id };
  }

  beforeAll(async () => {
    h = await startHarness();
    for (const user of ['admin', 'acmeOwner', 'acmeAgent', 'acmeViewer', 'kumoOwner'] as const)
      cookies.set(user, await h.login(user));
    acme = await h.storeId('acme');
    kumo = await h.storeId('kumo');
  });
  afterAll(async () => h?.stop());

  it("finds an order by its system id or its source id, only in the caller's stores", async () => {
    const order = await seedOrder(acme);
    for (const ref of [order.id, order.sourceOrderId]) {
      const found = AdminOrderRefList.parse(
        json(await call('acmeAgent', 'GET', `/api/admin/orders?ref=${encodeURIComponent(ref)}`)),
      );
      expect(found.data.map((o) => o.id)).toEqual([order.id]);
    }
    const other = AdminOrderRefList.parse(
      json(await call('kumoOwner', 'GET', `/api/admin/orders?ref=${order.sourceOrderId}`)),
    );
    expect(other.data).toEqual([]);
  });

  it("shows the order with its items, shipments, protection and claims; another tenant's order is a 404", async () => {
    const order = await seedOrder(acme);
    const filed = await h.fileClaim(order.sourceOrderId, {
      ...staffClaim(order.number),
      email: order.input.customerEmail,
    });
    const response = await call('acmeAgent', 'GET', `/api/admin/orders/${order.id}`);
    expect(response.statusCode).toBe(200);
    const view = AdminOrderView.parse(json(response));
    expect(view).toMatchObject({
      orderNumber: order.number,
      sourceOrderId: order.sourceOrderId,
      protectionStatus: 'protected',
      policy: { premiumPaid: 1.5, insuredAmount: 49, premiumCurrency: 'USD', removedAt: null },
      items: [{ sourceItemId: `${order.number}-li`, price: 49, claimed: true }],
      fulfillments: [{ sourceFulfillmentId: `${order.number}-f` }],
      claims: [{ id: filed.claimId, claimNumber: filed.claimNumber, status: 'NEW' }],
    });
    expect((await call('kumoOwner', 'GET', `/api/admin/orders/${order.id}`)).statusCode).toBe(404);
    expect((await call('acmeAgent', 'GET', `/api/admin/orders/${crypto.randomUUID()}`)).statusCode).toBe(404);
  });

  it('removes and adds protection as premium events, refusing roles without the permission and other tenants', async () => {
    const order = await seedOrder(acme);
    const premium = orderPremiumStreamOf(order.id);
    const types = async () =>
      (await readStream(h.runtime.ctx.database.db, premium)).events.map((e) => [
        e.type,
        (e.data as { reason?: string }).reason,
      ]);
    expect(await types()).toEqual([['PremiumRecorded', undefined]]);
    // store_support and store_user hold neither protection:add nor protection:remove; kumo's owner cannot see acme's order.
    expect((await call('acmeAgent', 'DELETE', `/api/admin/orders/${order.id}/protection`)).statusCode).toBe(403);
    expect((await call('acmeViewer', 'DELETE', `/api/admin/orders/${order.id}/protection`)).statusCode).toBe(403);
    expect((await call('kumoOwner', 'DELETE', `/api/admin/orders/${order.id}/protection`)).statusCode).toBe(404);
    expect(await types()).toHaveLength(1);

    const removed = await call('acmeOwner', 'DELETE', `/api/admin/orders/${order.id}/protection`);
    expect(removed.statusCode).toBe(200);
    const afterRemove = AdminOrderView.parse(json(removed));
    expect(afterRemove.protectionStatus).toBe('removed');
    expect(await types()).toEqual([
      ['PremiumRecorded', undefined],
      ['PremiumReversed', 'protection_removed'],
    ]);
    const reversal = (await readStream(h.runtime.ctx.database.db, premium)).events[1]!;
    expect(reversal.metadata).toMatchObject({ actor: { type: 'user' } });
    expect((await call('acmeOwner', 'DELETE', `/api/admin/orders/${order.id}/protection`)).statusCode).toBe(422);

    expect((await call('acmeAgent', 'POST', `/api/admin/orders/${order.id}/protection`, {})).statusCode).toBe(403);
    // A stale version is a conflict and changes nothing.
    expect(
      (await call('acmeOwner', 'POST', `/api/admin/orders/${order.id}/protection`, { expectedVersion: 0 })).statusCode,
    ).toBe(409);
    expect(await types()).toHaveLength(2);
    const added = await call('acmeOwner', 'POST', `/api/admin/orders/${order.id}/protection`, {
      expectedVersion: afterRemove.protectionVersion,
    });
    expect(added.statusCode).toBe(200);
    expect(AdminOrderView.parse(json(added))).toMatchObject({
      protectionStatus: 'protected',
      policy: { premiumPaid: 1.5, removedAt: null },
    });
    expect(await types()).toEqual([
      ['PremiumRecorded', undefined],
      ['PremiumReversed', 'protection_removed'],
      ['PremiumRecorded', undefined],
    ]);
    expect((await call('acmeOwner', 'POST', `/api/admin/orders/${order.id}/protection`, {})).statusCode).toBe(422);
  });

  it('files a claim for the shopper through FileClaim, the staff member as its actor', async () => {
    const order = await seedOrder(acme);
    expect(
      (await call('kumoOwner', 'POST', `/api/admin/orders/${order.id}/claims`, staffClaim(order.number))).statusCode,
    ).toBe(404);
    const response = await call('acmeAgent', 'POST', `/api/admin/orders/${order.id}/claims`, staffClaim(order.number));
    expect(response.statusCode).toBe(201);
    const filed = FileClaimResponse.parse(json(response));
    const claim = AdminClaimDetail.parse(json(await call('acmeAgent', 'GET', `/api/admin/claims/${filed.claimId}`)));
    expect(claim).toMatchObject({
      claimNumber: filed.claimNumber,
      status: 'NEW',
      customer: { email: order.input.customerEmail },
    });
    const stream = await readStream(h.runtime.ctx.database.db, filed.claimId);
    expect(stream.events[0]!.metadata).toMatchObject({ actor: { type: 'user' } });
    // The same items again: the order's claim ledger refuses them.
    expect(
      (await call('acmeAgent', 'POST', `/api/admin/orders/${order.id}/claims`, staffClaim(order.number))).statusCode,
    ).toBe(409);
  });

  it('refuses a staff claim to a role without claim:create (finance) with 403', async () => {
    const order = await seedOrder(kumo);
    cookies.set('finance', await h.login('finance'));
    expect(
      (await call('finance', 'POST', `/api/admin/orders/${order.id}/claims`, staffClaim(order.number))).statusCode,
    ).toBe(403);
  });
});
