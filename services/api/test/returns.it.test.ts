import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ClaimReturn,
  ClaimReturnList,
  CustomerClaimView,
  ReturnList,
  TimelineResponse,
  type OrderInput,
} from '@claims/contracts';
import { readStream } from '@claims/event-store';
import { upsertOrder } from '../src/catalog/orderRepository.js';
import { json, oneItemClaim, startHarness, type DemoUser, type Harness } from './support/backofficeHarness.js';
import { testOrder } from './support/testOrders.js';

let orderCount = 0;
function freshOrder(currency: 'USD' | 'JPY'): { number: string; input: OrderInput } {
  const number = `RET-${++orderCount}`;
  return {
    number,
    input: testOrder(number, {
      currency,
      line: { sku: 'SKU-R', productName: 'Lantern', quantity: 2 },
    }),
  };
}

/** Returns over HTTP on PostgreSQL: the shopper starts them by the claim's token, the desk lists and works them per the permission table. */
describe('returns', () => {
  let h: Harness;
  const cookies = new Map<DemoUser, string>();
  const stores = new Map<'acme' | 'kumo', string>();

  async function fileOn(slug: 'acme' | 'kumo') {
    const { number, input } = freshOrder(slug === 'kumo' ? 'JPY' : 'USD');
    await upsertOrder(h.runtime.ctx.database.db, stores.get(slug)!, `src-${number}`, input);
    const body = oneItemClaim(input.customerEmail, `${number}-f`, `${number}-li`);
    body.fulfillmentIssues[0]!.issues[0]!.quantity = 2;
    const filed = await h.fileClaim(`src-${number}`, body);
    const view = CustomerClaimView.parse(json(await h.call({ method: 'GET', url: `/api/claims/${filed.token}` })));
    return { ...filed, itemId: view.items[0]!.id };
  }
  const start = (token: string, body: unknown) => h.call({ method: 'POST', url: `/api/claims/${token}/returns`, body });
  const move = (user: DemoUser, claimId: string, returnId: string, to: string, extra: object = {}) =>
    h.call({
      method: 'POST',
      url: `/api/admin/claims/${claimId}/returns/${returnId}/status`,
      cookie: cookies.get(user),
      body: { to, ...extra },
    });

  beforeAll(async () => {
    h = await startHarness();
    for (const user of ['acmeOwner', 'acmeAgent', 'acmeViewer', 'kumoOwner', 'admin'] as const)
      cookies.set(user, await h.login(user));
    stores.set('acme', await h.storeId('acme'));
    stores.set('kumo', await h.storeId('kumo'));
  }, 120_000);
  afterAll(() => h?.stop());

  it("sends a return of a store with its own returns portal there, and handles another store's here with a code for its label", async () => {
    const acme = await fileOn('acme');
    const toPortal = await start(acme.token, {
      items: [{ claimItemId: acme.itemId, quantity: 1 }],
      reason: 'DAMAGED',
      method: 'DROP_OFF',
    });
    expect(toPortal.statusCode, toPortal.body).toBe(201);
    expect(ClaimReturn.parse(json(toPortal))).toMatchObject({
      handling: 'store_portal',
      status: 'REDIRECTED',
      portalUrl: 'https://returns.acme.test',
    });

    const kumo = await fileOn('kumo');
    const here = await start(kumo.token, {
      items: [{ claimItemId: kumo.itemId, quantity: 2 }],
      reason: 'DEFECTIVE',
      method: 'PICKUP',
      comment: ' Box kept ',
    });
    expect(here.statusCode, here.body).toBe(201);
    const started = ClaimReturn.parse(json(here));
    expect(started).toMatchObject({
      handling: 'here',
      status: 'REQUESTED',
      statusLabel: 'Requested',
      portalUrl: null,
      code: expect.stringMatching(/^R.+-1$/),
      comment: 'Box kept',
      items: [{ claimItemId: kumo.itemId, quantity: 2, name: 'Lantern', sku: 'SKU-R' }],
    });
    const listed = await h.call({ method: 'GET', url: `/api/claims/${kumo.token}/returns` });
    expect(listed.statusCode).toBe(200);
    expect(json<ClaimReturn[]>(listed).map((r) => r.code)).toEqual([started.code]);
  });

  it('refuses bad input with a clear error and records nothing', async () => {
    const kumo = await fileOn('kumo');
    const before = (await readStream(h.runtime.ctx.database.db, kumo.claimId)).version;
    const cases: Array<[unknown, number, string]> = [
      [{ items: [], reason: 'DAMAGED', method: 'DROP_OFF' }, 400, 'validation_failed'],
      [
        { items: [{ claimItemId: kumo.itemId, quantity: 1 }], reason: 'BORED', method: 'DROP_OFF' },
        400,
        'validation_failed',
      ],
      [
        { items: [{ claimItemId: kumo.itemId, quantity: 3 }], reason: 'DAMAGED', method: 'DROP_OFF' },
        422,
        'invalid_quantity',
      ],
      [
        { items: [{ claimItemId: kumo.claimId, quantity: 1 }], reason: 'DAMAGED', method: 'DROP_OFF' },
        422,
        'unknown_item',
      ],
    ];
    for (const [body, status, code] of cases) {
      const response = await start(kumo.token, body);
      expect(response.statusCode, response.body).toBe(status);
      expect(json<{ error: string; message: string }>(response)).toMatchObject({
        error: code,
        message: expect.stringMatching(/\S/),
      });
    }
    expect((await start(`${kumo.token.slice(0, -2)}AA`, cases[2]![0])).statusCode).toBe(404);
    expect((await readStream(h.runtime.ctx.database.db, kumo.claimId)).version).toBe(before);
  });

  it('lets the desk list and work returns with the returns permissions, per tenant', async () => {
    const kumo = await fileOn('kumo');
    const acme = await fileOn('acme');
    const { id: returnId } = ClaimReturn.parse(
      json(
        await start(kumo.token, {
          items: [{ claimItemId: kumo.itemId, quantity: 1 }],
          reason: 'WRONG_ITEM',
          method: 'DROP_OFF',
        }),
      ),
    );
    const acmeReturn = ClaimReturn.parse(
      json(
        await start(acme.token, {
          items: [{ claimItemId: acme.itemId, quantity: 1 }],
          reason: 'OTHER',
          method: 'DROP_OFF',
        }),
      ),
    );
    await h.runtime.settle();

    // Another tenant's claim, return or store: 404, never 403.
    expect(
      (
        await h.call({
          method: 'GET',
          url: `/api/admin/claims/${kumo.claimId}/returns`,
          cookie: cookies.get('acmeOwner'),
        })
      ).statusCode,
    ).toBe(404);
    expect((await move('acmeOwner', kumo.claimId, returnId, 'APPROVED')).statusCode).toBe(404);
    expect(
      (
        await h.call({
          method: 'GET',
          url: `/api/admin/returns?storeId=${stores.get('kumo')}`,
          cookie: cookies.get('acmeOwner'),
        })
      ).statusCode,
    ).toBe(404);
    // The store's support and user roles read returns but may not work them.
    expect(
      (
        await h.call({
          method: 'GET',
          url: `/api/admin/claims/${acme.claimId}/returns`,
          cookie: cookies.get('acmeAgent'),
        })
      ).statusCode,
    ).toBe(200);
    for (const user of ['acmeAgent', 'acmeViewer'] as const) {
      const refused = await move(user, acme.claimId, acmeReturn.id, 'CANCELLED');
      expect(refused.statusCode, refused.body).toBe(403);
    }
    expect((await h.call({ method: 'GET', url: '/api/admin/returns' })).statusCode).toBe(401);

    const kumoList = ReturnList.parse(
      json(await h.call({ method: 'GET', url: '/api/admin/returns', cookie: cookies.get('kumoOwner') })),
    );
    expect(kumoList.data.map((r) => r.id)).toContain(returnId);
    expect(kumoList.data.every((r) => r.storeId === stores.get('kumo'))).toBe(true);
    const acmeList = ReturnList.parse(
      json(await h.call({ method: 'GET', url: '/api/admin/returns', cookie: cookies.get('acmeOwner') })),
    );
    expect(acmeList.data.map((r) => r.id)).toContain(acmeReturn.id);
    expect(acmeList.data.map((r) => r.id)).not.toContain(returnId);

    const { version } = ClaimReturnList.parse(
      json(
        await h.call({
          method: 'GET',
          url: `/api/admin/claims/${kumo.claimId}/returns`,
          cookie: cookies.get('kumoOwner'),
        }),
      ),
    );
    const approved = await move('kumoOwner', kumo.claimId, returnId, 'APPROVED', {
      note: 'Label sent',
      expectedVersion: version,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(ClaimReturn.parse(json(approved)).status).toBe('APPROVED');
    expect((await move('kumoOwner', kumo.claimId, returnId, 'APPROVED', { expectedVersion: version })).statusCode).toBe(
      409,
    );
    const skipped = await move('kumoOwner', kumo.claimId, returnId, 'COMPLETED');
    expect(skipped.statusCode).toBe(422);
    expect(json<{ error: string }>(skipped).error).toBe('invalid_transition');
    expect((await move('kumoOwner', kumo.claimId, returnId, 'RECEIVED')).statusCode).toBe(200);
    expect((await move('admin', kumo.claimId, returnId, 'COMPLETED')).statusCode).toBe(200);
    await h.runtime.settle();

    const completed = ReturnList.parse(
      json(
        await h.call({
          method: 'GET',
          url: `/api/admin/returns?status=COMPLETED&storeId=${stores.get('kumo')}`,
          cookie: cookies.get('kumoOwner'),
        }),
      ),
    );
    expect(completed.data.map((r) => r.id)).toEqual([returnId]);
    const timeline = TimelineResponse.parse(
      json(
        await h.call({
          method: 'GET',
          url: `/api/admin/claims/${kumo.claimId}/timeline`,
          cookie: cookies.get('kumoOwner'),
        }),
      ),
    );
    expect(timeline.data.map((e) => e.eventType).filter((t) => t.startsWith('Return'))).toEqual([
      'ReturnStarted',
      'ReturnStatusChanged',
      'ReturnStatusChanged',
      'ReturnStatusChanged',
    ]);
  });
});
