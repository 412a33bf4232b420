import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  AdminClaimDetail,
  ClaimFacts,
  ResolutionType,
  TimelineResponse,
  UploadUrlResponse,
  type FileClaimRequest,
  type OrderInput,
} from '@claims/contracts';
import { upsertOrder } from '../src/catalog/orderRepository.js';
import { json, startHarness, type DemoUser, type Harness } from './support/backofficeHarness.js';
import { PNG, putUpload } from './support/uploads.js';
import { testOrder } from './support/testOrders.js';

/** A 1×1 PNG: the same bytes uploaded twice are the same photo whatever the file is called. */
const OTHER_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const EMAIL = 'Repeat.Claimer@example.com';
const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

let h: Harness;
const cookies = new Map<DemoUser, string>();
let orderCount = 0;

/** A three-item order in one shipment with UPS tracking, for the claimer's email. */
async function order(slug: 'acme' | 'kumo'): Promise<{ sourceOrderId: string; orderId: string; input: OrderInput }> {
  const number = `FACTS-${slug}-${++orderCount}`;
  const currency = slug === 'kumo' ? 'JPY' : 'USD';
  const input = testOrder(number, {
    currency,
    customerEmail: EMAIL.toLowerCase(),
    shippingAddress: {
      name: 'Rae Claimer',
      address1: '9 Elm St',
      city: 'Springfield',
      zip: '12345',
      country: 'United States',
      countryCode: 'US',
    },
    lines: ['a', 'b', 'c'].map((x) => ({
      sourceItemId: `${number}-${x}`,
      sku: `SKU-${x}`,
      productName: `Thing ${x.toUpperCase()}`,
      price: currency === 'JPY' ? 2400 : 10,
      quantity: 2,
    })),
    shipment: { status: 'DELIVERED', trackingCompany: 'UPS', trackingNumbers: ['1Z999AA10123456784'] },
  });
  const stored = await upsertOrder(h.runtime.ctx.database.db, await h.storeId(slug), `src-${number}`, input);
  return { sourceOrderId: `src-${number}`, orderId: stored.id, input };
}

/** Uploads `bytes` as the shopper of `orderId` and answers its public URL. */
async function upload(orderId: string, bytes: Buffer): Promise<string> {
  const asked = await h.call({
    method: 'POST',
    url: '/api/media/upload-url',
    body: { filename: 'photo.png', contentType: 'image/png', mediaType: 'CLAIM', orderId, email: EMAIL },
  });
  expect(asked.statusCode, asked.body).toBe(200);
  const signed = UploadUrlResponse.parse(json(asked));
  const put = await putUpload(h.runtime, signed, bytes);
  expect(put.statusCode, put.body).toBe(201);
  return signed.publicUrl;
}

async function file(slug: 'acme' | 'kumo', photo: Buffer): Promise<{ claimId: string; claimNumber: string }> {
  const { sourceOrderId, orderId, input } = await order(slug);
  const url = await upload(orderId, photo);
  const body: FileClaimRequest = {
    email: EMAIL,
    fulfillmentIssues: [
      {
        sourceFulfillmentId: input.fulfillments[0]!.sourceFulfillmentId,
        issues: input.items.map((item, i) => ({
          sourceItemId: item.sourceItemId,
          claimType: 'DAMAGED' as const,
          quantity: 2,
          details: 'Crushed.',
          images: i === 0 ? [{ url }] : [],
        })),
      },
    ],
    resolution: {
      desiredMethod: slug === 'kumo' ? 'RESHIP' : 'REFUND',
      customerSignature: { kind: 'typed', value: 'Rae Claimer', signedAt: ago(0) },
      updatedShippingAddress: {
        name: 'Rae Claimer',
        address1: '1 New Rd',
        city: 'Shelbyville',
        country: 'United States',
        countryCode: 'US',
      },
    },
  };
  return h.fileClaim(sourceOrderId, body);
}

const facts = async (user: DemoUser, claimId: string) =>
  h.call({ method: 'GET', url: `/api/admin/claims/${claimId}/facts`, cookie: cookies.get(user) });

let current: { claimId: string; claimNumber: string };
let earlier: { claimId: string; claimNumber: string };
let unrelated: { claimId: string; claimNumber: string };
let kumo: { claimId: string; claimNumber: string };

beforeAll(async () => {
  h = await startHarness();
  for (const user of ['acmeAgent', 'kumoOwner', 'admin', 'acmeViewer'] as const) cookies.set(user, await h.login(user));
  earlier = await file('acme', PNG);
  unrelated = await file('acme', OTHER_PNG);
  kumo = await file('kumo', PNG);
  current = await file('acme', PNG);
  await h.runtime.settle();
});

afterAll(async () => {
  await h?.stop();
});

describe('GET /api/admin/claims/{id}/facts', () => {
  it('gives the agent the order, shipments with tracking links, both addresses, the signature and the decision terms', async () => {
    const res = await facts('acmeAgent', current.claimId);
    expect(res.statusCode, res.body).toBe(200);
    const body = ClaimFacts.parse(json(res));
    expect(body.order?.shippingAddress.address1).toBe('9 Elm St');
    expect(body.updatedShippingAddress?.address1).toBe('1 New Rd');
    expect(body.order?.fulfillments).toEqual([
      expect.objectContaining({
        trackingCompany: 'UPS',
        trackingNumbers: ['1Z999AA10123456784'],
        claimed: true,
        status: 'DELIVERED',
      }),
    ]);
    expect(body.signature).toMatchObject({ kind: 'typed', value: 'Rae Claimer' });
    // Every resolution type, in the contract's order.
    expect(body.decisionTerms.offeredResolutions).toEqual(ResolutionType.options);
  });

  it("lists the shopper's other claims and flags, only within the stores the caller may read", async () => {
    const agent = ClaimFacts.parse(json(await facts('acmeAgent', current.claimId)));
    expect(agent.otherClaims.map((c) => c.id).sort()).toEqual([earlier.claimId, unrelated.claimId].sort());
    expect(agent.flags.recentClaimsByEmail).toBe(3);
    // The same bytes on the earlier acme claim; the kumo claim with them is another tenant's, never named to acme.
    expect(agent.flags.reusedPhotos.map((p) => p.otherClaimNumber)).toEqual([earlier.claimNumber]);
    expect(JSON.stringify(agent)).not.toContain(kumo.claimId);

    const admin = ClaimFacts.parse(json(await facts('admin', current.claimId)));
    expect(admin.flags.recentClaimsByEmail).toBe(4);
    expect(admin.flags.reusedPhotos.map((p) => p.otherClaimId).sort()).toEqual([earlier.claimId, kumo.claimId].sort());

    const plain = ClaimFacts.parse(json(await facts('acmeAgent', unrelated.claimId)));
    expect(plain.flags.reusedPhotos).toEqual([]);
  });

  it("answers another tenant's claim and an unknown id with the same 404", async () => {
    for (const [user, id] of [
      ['kumoOwner', current.claimId],
      ['acmeAgent', kumo.claimId],
      ['acmeAgent', '00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const res = await facts(user, id);
      expect(res.statusCode, `${user} ${id}`).toBe(404);
      expect(json<{ error: string }>(res).error).toBe('claim_not_found');
    }
    expect((await h.call({ method: 'GET', url: `/api/admin/claims/${current.claimId}/facts` })).statusCode).toBe(401);
  });

  it('offers a store only the types it gives: kumo gives no refund, and a refund is refused with 422', async () => {
    const body = ClaimFacts.parse(json(await facts('kumoOwner', kumo.claimId)));
    expect(body.decisionTerms.offeredResolutions).not.toContain('REFUND');
    const claim = AdminClaimDetail.parse(
      json(await h.call({ method: 'GET', url: `/api/admin/claims/${kumo.claimId}`, cookie: cookies.get('kumoOwner') })),
    );
    const refused = await h.call({
      method: 'POST',
      url: `/api/admin/claims/${kumo.claimId}/resolve`,
      cookie: cookies.get('kumoOwner'),
      body: { resolutionType: 'RESHIP', items: [{ claimItemId: claim.items[0]!.id, resolutionType: 'REFUND' }] },
    });
    expect(refused.statusCode, refused.body).toBe(422);
  });
});

describe('the stored photo hash', () => {
  it('is the SHA-256 of the bytes, recorded at upload', async () => {
    const { rows } = await sql<{
      content_sha256: string;
    }>`select content_sha256 from media_uploads where content_sha256 is not null`.execute(h.runtime.ctx.database.db);
    const { createHash } = await import('node:crypto');
    expect(new Set(rows.map((r) => r.content_sha256))).toEqual(
      new Set([PNG, OTHER_PNG].map((b) => createHash('sha256').update(b).digest('hex'))),
    );
  });
});

describe('per-item decisions in passes', () => {
  it("decides two items, then the third; an item decided already is 409 and the timeline names each pass's lines", async () => {
    const agent = cookies.get('acmeAgent');
    const url = `/api/admin/claims/${current.claimId}`;
    const before = AdminClaimDetail.parse(json(await h.call({ method: 'GET', url, cookie: agent })));
    const [a, b, c] = before.items;
    const first = await h.call({
      method: 'POST',
      url: `${url}/resolve`,
      cookie: agent,
      body: {
        resolutionType: 'REFUND',
        expectedVersion: before.version,
        items: [
          { claimItemId: a!.id, resolutionType: 'REFUND', quantity: 1 },
          { claimItemId: b!.id, resolutionType: 'RESHIP', quantity: 2, reason: 'RESHIP' },
        ],
      },
    });
    expect(first.statusCode, first.body).toBe(200);
    const partial = AdminClaimDetail.parse(json(first));
    expect(partial.status).not.toBe('RESOLVED');
    expect(partial.resolvable).toBe(true);
    expect(partial.resolutions.find((r) => r.relatedClaimItemId === a!.id)?.paidValue).toBe(10);

    const again = await h.call({
      method: 'POST',
      url: `${url}/resolve`,
      cookie: agent,
      body: { resolutionType: 'DENY', reason: 'NOT_COVERED', items: [{ claimItemId: a!.id }] },
    });
    expect(again.statusCode).toBe(409);
    expect(json<{ error: string }>(again).error).toBe('already_resolved');

    const last = await h.call({
      method: 'POST',
      url: `${url}/resolve`,
      cookie: agent,
      body: { resolutionType: 'DENY', items: [{ claimItemId: c!.id, reason: 'NOT_COVERED' }] },
    });
    expect(last.statusCode, last.body).toBe(200);
    const done = AdminClaimDetail.parse(json(last));
    expect(done.status).toBe('RESOLVED');
    expect(done.resolvable).toBe(false);

    await h.runtime.settle();
    const timeline = TimelineResponse.parse(
      json(await h.call({ method: 'GET', url: `${url}/timeline`, cookie: agent })),
    );
    const passes = timeline.data.filter((e) => e.eventType === 'ClaimResolved').map((e) => e.summary.resolutionIds);
    const ids = (itemIds: string[]) =>
      done.resolutions.filter((r) => itemIds.includes(r.relatedClaimItemId ?? '')).map((r) => r.id);
    expect(passes).toEqual([ids([a!.id, b!.id]), ids([c!.id])]);
  });
});
