import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerOrder, FileClaimRequest } from '@claims/contracts';
import { claimTimeline, listClaims, PROJECTIONS, rebuild } from '@claims/projections';
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import type { Runtime } from '../services/api/src/index.js';
import { eventually } from './support/testDatabase.js';
import { eventCount, readModelSnapshot } from './support/snapshots.js';
import { MODES, startTestRuntime } from './support/testRuntime.js';

const socksClaim: FileClaimRequest = {
  email: 'ava@example.com',
  fulfillmentIssues: [
    {
      sourceFulfillmentId: 'f-1001-1',
      issues: [
        { sourceItemId: 'li-2', claimType: 'DAMAGED', quantity: 2, details: 'Two pairs arrived torn.', images: [] },
      ],
    },
  ],
  resolution: { desiredMethod: 'REFUND', customerSignature: 'Ava Stone', updatedShippingAddress: null },
};

describe.each(MODES)('claims from lookup to read models on %s', (mode) => {
  let runtime: Runtime;
  let stop: () => Promise<void>;
  let filed: { claimId: string; token: string; claimNumber: string };

  beforeAll(async () => {
    ({ runtime, stop } = await startTestRuntime(mode));
  });
  afterAll(() => stop());

  const inject = (options: InjectOptions) => runtime.app.inject(options);

  it('looks up order 1001 by number and email, trimmed, with or without #, any case', async () => {
    const response = await inject({
      method: 'GET',
      url: '/api/order-lookup',
      query: { order: ' #1001 ', email: ' AVA@Example.com ' },
    });
    expect(response.statusCode).toBe(200);
    const order = response.json<CustomerOrder>();
    expect(order).toMatchObject({
      orderNumber: '1001',
      currency: 'USD',
      protected: true,
      eligibility: { 'li-1': 1, 'li-2': 3, 'li-3': 1 },
    });
    expect(order.fulfillments[0]).toMatchObject({ eligible: true, eligibilityCode: null });
    expect(order.fulfillments[0]!.items.find((i) => i.item.sourceItemId === 'li-2')!.item.price).toBe(18);
    const miss = await inject({
      method: 'GET',
      url: '/api/order-lookup',
      query: { order: '1001', email: 'ben@example.com' },
    });
    expect(miss.statusCode).toBe(404);
    expect(miss.json()).toMatchObject({ error: 'order_not_found' });
  });

  it('computes the edge cases of the demo orders', async () => {
    const code = async (order: string, email: string) =>
      (await inject({ method: 'GET', url: '/api/order-lookup', query: { order, email } })).json<CustomerOrder>();
    expect((await code('1003', 'cara@example.com')).fulfillments[0]!.eligibilityCode).toBe('too_soon');
    expect((await code('1004', 'dan@example.com')).fulfillments[0]!.eligibilityCode).toBe('expired');
    expect((await code('1005', 'eve@example.com')).fulfillments).toEqual([]);
    const unprotected = await code('1006', 'finn@example.com');
    expect(unprotected).toMatchObject({
      protected: false,
      isOneTimeAppeasement: true,
      fulfillments: [{ eligibilityCode: 'unprotected' }],
    });
    expect((await code('1007', 'gia@example.com')).eligibility).toEqual({ 'li-10': 2, 'li-11': 0 });
    expect((await code('K-2001', 'ivy@example.com')).fulfillments[0]!.items[0]!.item.price).toBe(2400);
  });

  it('files a claim, answers its token, and refuses bad input without storing anything', async () => {
    // The demo claim's reactions (its mail) may still be recording: let them land before counting.
    await runtime.settle();
    const before = await eventCount(runtime.ctx.database.db);
    const bad = await inject({
      method: 'POST',
      url: '/api/claims/acme-5001',
      payload: { ...socksClaim, fulfillmentIssues: [] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      error: 'validation_failed',
      message: expect.stringContaining('fulfillmentIssues'),
    });
    const wrongEmail = await inject({
      method: 'POST',
      url: '/api/claims/acme-5001',
      payload: { ...socksClaim, email: 'ben@example.com' },
    });
    expect(wrongEmail.statusCode).toBe(404);
    expect(await eventCount(runtime.ctx.database.db)).toBe(before);

    const response = await inject({ method: 'POST', url: '/api/claims/acme-5001', payload: socksClaim });
    expect(response.statusCode).toBe(201);
    filed = response.json();
    expect(filed.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const view = await inject({ method: 'GET', url: `/api/claims/${filed.token}` });
    expect(view.json()).toMatchObject({
      claimNumber: filed.claimNumber,
      status: 'NEW',
      statusLabel: 'New',
      items: [{ sourceItemId: 'li-2', quantity: 2, price: 18 }],
    });
    const forged = `${filed.token.slice(0, 30)}${'A'.repeat(13)}`;
    expect((await inject({ method: 'GET', url: `/api/claims/${forged}` })).statusCode).toBe(404);
    const again = await inject({ method: 'POST', url: '/api/claims/acme-5001', payload: socksClaim });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'already_claimed' });
  });

  it('lets exactly one of concurrent claims on the same items win', async () => {
    const claim: FileClaimRequest = {
      email: 'jon@example.com',
      fulfillmentIssues: [
        {
          sourceFulfillmentId: 'f-1010-1',
          issues: [{ sourceItemId: 'li-21', claimType: 'MISSING_ITEM', quantity: 1, details: '', images: [] }],
        },
      ],
      resolution: { desiredMethod: 'RESHIP', customerSignature: 'Jon Park' },
    };
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => inject({ method: 'POST', url: '/api/claims/acme-5010', payload: claim })),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
  });

  it('answers a retried submission with the claim it stored, never an error, when the portal sends an Idempotency-Key', async () => {
    const claim: FileClaimRequest = {
      email: 'ben@example.com',
      fulfillmentIssues: [
        {
          sourceFulfillmentId: 'f-1002-1',
          issues: [{ sourceItemId: 'li-4', claimType: 'DAMAGED', quantity: 1, details: 'Cracked', images: [] }],
        },
      ],
      resolution: { desiredMethod: 'REFUND', customerSignature: 'Ben Ortiz' },
    };
    const key = 'k7Qm2VxYp9Lr4TzWc8Nb3D';
    const file = (payload: FileClaimRequest, idempotencyKey = key) =>
      inject({ method: 'POST', url: '/api/claims/acme-5002', payload, headers: { 'idempotency-key': idempotencyKey } });
    // The first answer is lost on the way; the shopper's retries (also two at once) get the same claim and link.
    const first = await file(claim);
    expect(first.statusCode).toBe(201);
    const retries = await Promise.all([file(claim), file(claim)]);
    for (const retry of retries) {
      expect(retry.statusCode).toBe(201);
      expect(retry.json()).toEqual(first.json());
    }
    expect(
      (await inject({ method: 'GET', url: `/api/claims/${first.json<{ token: string }>().token}` })).statusCode,
    ).toBe(200);
    // The same key with another claim is refused; a weak key is refused before anything is stored.
    const other = await file({
      ...claim,
      fulfillmentIssues: [
        { sourceFulfillmentId: 'f-1002-1', issues: [{ ...claim.fulfillmentIssues[0]!.issues[0]!, details: 'Other' }] },
      ],
    });
    expect([other.statusCode, other.json<{ error: string }>().error]).toEqual([422, 'idempotency_key_reused']);
    expect((await file(claim, 'short')).statusCode).toBe(400);
    // Without a key a repeat is a new filing, which the ledger refuses.
    expect((await inject({ method: 'POST', url: '/api/claims/acme-5002', payload: claim })).json()).toMatchObject({
      error: 'already_claimed',
    });
  });

  it('exchanges messages and takes one review through the token', async () => {
    const sent = await inject({
      method: 'POST',
      url: `/api/claims/${filed.token}/messages`,
      payload: { messageContent: '<b>Photos</b> attached', medias: [] },
    });
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ senderType: 'customer', messageContent: 'Photos attached' });
    const thread = await inject({ method: 'GET', url: `/api/claims/${filed.token}/messages` });
    expect(thread.json()).toHaveLength(1);
    expect(
      (
        await inject({
          method: 'POST',
          url: `/api/claims/${filed.token}/reviews`,
          payload: { rating: 5, text: 'Quick' },
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (await inject({ method: 'POST', url: `/api/claims/${filed.token}/reviews`, payload: { rating: 0 } })).statusCode,
    ).toBe(400);
    expect((await inject({ method: 'GET', url: `/api/claims/${filed.token}/reviews` })).json()).toMatchObject([
      { rating: 5 },
    ]);
  });

  it('keeps a draft in a claim session across devices and deletes it once the claim is filed', async () => {
    const lookup = (
      await inject({ method: 'GET', url: '/api/order-lookup', query: { order: '1008', email: 'hugo@example.com' } })
    ).json<CustomerOrder>();
    const proof = { orderId: lookup.systemOrderId, email: 'hugo@example.com' };
    expect((await inject({ method: 'GET', url: '/api/sessions', query: proof })).statusCode).toBe(404);
    const metadata = {
      claim: {
        customer: { email: 'hugo@example.com', sourceOrderId: 'acme-5008' },
        fulfillments: {
          'f-1008-1': {
            id: 'f-1008-1',
            issues: [{ id: 'a1', sourceItemId: 'li-12', claimType: 'DAMAGED', quantity: 1, images: [] }],
          },
        },
        resolution: { desiredMethod: 'RESHIP' },
        messages: [],
      },
      currentShipmentId: 'f-1008-1',
    };
    expect(
      (
        await inject({
          method: 'PUT',
          url: '/api/sessions',
          payload: { email: 'hugo@example.com', orderId: lookup.systemOrderId, status: 'SELECTING_ITEMS' },
        })
      ).statusCode,
    ).toBe(200);
    const saved = await inject({
      method: 'PUT',
      url: '/api/sessions',
      payload: { email: 'hugo@example.com', orderId: lookup.systemOrderId, metadata },
    });
    expect(saved.json()).toMatchObject({ status: 'SELECTING_ITEMS', metadata: { currentShipmentId: 'f-1008-1' } });
    expect(
      (
        await inject({
          method: 'PUT',
          url: '/api/sessions',
          payload: { email: 'eve@example.com', orderId: lookup.systemOrderId, status: 'REVIEWING' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await inject({ method: 'GET', url: '/api/sessions', query: { orderId: lookup.systemOrderId } })).statusCode,
    ).toBe(404);
    expect(
      (await inject({ method: 'GET', url: '/api/sessions', query: { ...proof, email: 'eve@example.com' } })).statusCode,
    ).toBe(404);
    const restored = await inject({ method: 'GET', url: '/api/sessions', query: proof });
    expect(restored.json()).toMatchObject({
      metadata: { claim: { fulfillments: { 'f-1008-1': { issues: [{ sourceItemId: 'li-12' }] } } } },
    });
    const claim = await inject({
      method: 'POST',
      url: '/api/claims/acme-5008',
      payload: {
        email: 'hugo@example.com',
        fulfillmentIssues: [
          { sourceFulfillmentId: 'f-1008-1', issues: [{ sourceItemId: 'li-12', claimType: 'DAMAGED', quantity: 1 }] },
        ],
        resolution: {
          desiredMethod: 'RESHIP',
          customerSignature: 'Hugo Weber',
          updatedShippingAddress: {
            name: 'Hugo Weber',
            address1: 'Torstrasse 14',
            city: 'Berlin',
            country: 'Germany',
            countryCode: 'DE',
          },
        },
      },
    });
    expect(claim.statusCode).toBe(201);
    // Closing the draft is a reaction to the filed claim, after its commit.
    await eventually(async () =>
      expect((await inject({ method: 'GET', url: '/api/sessions', query: proof })).statusCode).toBe(404),
    );
  });

  it('shows the filed claim in the claim list and its history in the timeline', async () => {
    const db = runtime.ctx.database.db;
    const page = await eventually(async () => {
      const result = await listClaims(db, { storeIds: null, search: filed.claimNumber, limit: 10 });
      expect(result.rows).toHaveLength(1);
      expect(result.rows[0]!.message_count).toBe(1);
      return result;
    });
    expect(page.rows[0]).toMatchObject({
      claim_id: filed.claimId,
      status: 'NEW',
      order_number: '1001',
      protection_status: 'protected',
      requested_resolution: 'REFUND',
      claimed_value: 3600 - 200 + 288,
    });
    const timeline = await eventually(async () => {
      const entries = await claimTimeline(db, filed.claimId);
      expect(entries.filter((e) => e.source === 'claim').map((e) => e.eventType)).toEqual([
        'ClaimFiled',
        'ClaimMessageSent',
        'ClaimReviewed',
      ]);
      return entries;
    });
    expect(timeline[0]).toMatchObject({ status: 'NEW', actor: { type: 'customer' } });
  });

  it('rebuilds every read model from the events to the same rows', async () => {
    await runtime.settle();
    const db = runtime.ctx.database.db;
    const live = await eventually(async () => {
      const snapshot = await readModelSnapshot(db);
      // The demo's claim on 1007 and the four filed above (1001, 1010, 1002, 1008).
      expect(snapshot.claims).toHaveLength(5);
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from events where stream_type = 'claim'`.execute(db);
      expect(snapshot.timeline).toHaveLength(rows[0]!.n);
      return snapshot;
    });
    const indexes = async () =>
      (
        await sql<{ name: string; definition: string }>`
      select indexname as name, indexdef as definition from pg_indexes where schemaname = current_schema() order by indexname`.execute(
          db,
        )
      ).rows;
    const indexesBefore = await indexes();
    for (const projection of PROJECTIONS) await rebuild(db, projection);
    expect(await readModelSnapshot(db)).toEqual(live);
    // The indexes a rebuild builds after loading are back, as the migrations made them.
    expect(await indexes()).toEqual(indexesBefore);
  });
});
