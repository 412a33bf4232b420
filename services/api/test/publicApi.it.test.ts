import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClaim,
  ApiClaimPage,
  ApiTokenSummary,
  CreateApiTokenResponse,
  UpsertOrderResponse,
  orderPremiumStreamOf,
} from '@claims/contracts';
import { sql } from 'kysely';
import { orderPremiumDecider } from '@claims/domain';
import { readStream } from '@claims/event-store';
import { foldRecorded } from '../src/eventsourcing/commandHandler.js';
import { json, oneItemClaim, startHarness, type Harness } from './support/backofficeHarness.js';
import { orderBody as oneOrder } from '../../../test/support/orderBody.js';

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

/** Two items unless told otherwise. */
const orderBody = (orderNumber: string, items = 2) => oneOrder(orderNumber, items);

describe('API tokens and the public API v1', () => {
  let h: Harness;
  let owner: string;
  let acme: string;
  let kumo: string;
  let token: string;
  let tokenId: string;

  beforeAll(async () => {
    h = await startHarness();
    owner = await h.login('acmeOwner');
    acme = await h.storeId('acme');
    kumo = await h.storeId('kumo');
  });
  afterAll(() => h.stop());

  const v1 = (
    method: 'GET' | 'PUT' | 'POST',
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
    bearer = token,
  ) => h.call({ method, url, body, headers, token: bearer });

  const newToken = async (permissions: string[], name = 'integration') => {
    const response = await h.call({
      method: 'POST',
      url: `/api/stores/${acme}/api-tokens`,
      cookie: owner,
      body: { name, permissions },
    });
    expect(response.statusCode, response.body).toBe(201);
    return CreateApiTokenResponse.parse(json(response));
  };

  it('creates a token shown once, lists it without the secret, and stores only a hash', async () => {
    const created = await newToken(['order:create', 'claim:read', 'claim:resolve']);
    token = created.token;
    tokenId = created.id;
    expect(token).toMatch(/^opk_[\w-]{43}$/);
    expect(created.permissions).toEqual(['claim:read', 'claim:resolve', 'order:create']);
    const list = json<{ data: unknown[] }>(
      await h.call({ method: 'GET', url: `/api/stores/${acme}/api-tokens`, cookie: owner }),
    );
    const summaries = list.data.map((row) => ApiTokenSummary.parse(row));
    expect(summaries.map((s) => s.id)).toContain(tokenId);
    expect(JSON.stringify(list)).not.toContain(token);
    expect(token.startsWith(summaries.find((s) => s.id === tokenId)!.prefix)).toBe(true);
  });

  it("refuses permissions wider than the creator's, unknown permissions and another tenant's store", async () => {
    const wider = await h.call({
      method: 'POST',
      url: `/api/stores/${acme}/api-tokens`,
      cookie: owner,
      body: { name: 'x', permissions: ['claim:read', 'admin-users:read'] },
    });
    expect(wider.statusCode).toBe(403);
    expect(json<{ message: string }>(wider).message).toContain('admin-users:read');
    const unknown = await h.call({
      method: 'POST',
      url: `/api/stores/${acme}/api-tokens`,
      cookie: owner,
      body: { name: 'x', permissions: ['claim:fly'] },
    });
    expect(unknown.statusCode).toBe(400);
    const agent = await h.login('acmeAgent');
    const agentsToken = await h.call({
      method: 'POST',
      url: `/api/stores/${acme}/api-tokens`,
      cookie: agent,
      body: { name: 'x', permissions: ['claim:read'] },
    });
    expect(agentsToken.statusCode).toBe(403);
    const otherTenant = await h.call({
      method: 'POST',
      url: `/api/stores/${kumo}/api-tokens`,
      cookie: owner,
      body: { name: 'x', permissions: ['claim:read'] },
    });
    expect(otherTenant.statusCode).toBe(404);
    expect((await h.call({ method: 'GET', url: `/api/stores/${kumo}/api-tokens`, cookie: owner })).statusCode).toBe(
      404,
    );
  });

  it('answers 401 without a token, with an unknown one and with a session cookie', async () => {
    for (const bearer of ['', 'opk_unknown', 'garbage']) {
      const response = await h.call({ method: 'GET', url: '/api/v1/claims', token: bearer || undefined });
      expect(response.statusCode, bearer).toBe(401);
      expect(json(response)).toMatchObject({ error: 'unauthenticated' });
      expect(response.headers['www-authenticate']).toContain('Bearer');
    }
    expect((await h.call({ method: 'GET', url: '/api/v1/claims', cookie: owner })).statusCode).toBe(401);
  });

  it('creates and replaces orders with PUT /api/v1/orders/{sourceOrderId}', async () => {
    const first = await v1('PUT', '/api/v1/orders/ext-1', orderBody('7001'));
    expect(first.statusCode, first.body).toBe(201);
    const created = UpsertOrderResponse.parse(json(first));
    expect(created).toMatchObject({ storeId: acme, sourceOrderId: 'ext-1', orderNumber: '7001', created: true });
    const again = await v1('PUT', '/api/v1/orders/ext-1', { ...orderBody('7001'), tax: 4 });
    expect(again.statusCode).toBe(200);
    expect(UpsertOrderResponse.parse(json(again))).toMatchObject({ id: created.id, created: false });
    // The order is the store's: a shopper finds it and money went in as decimals.
    const lookup = await h.call({ method: 'GET', url: '/api/order-lookup?order=%237001&email=BUYER-7001@example.com' });
    expect(lookup.statusCode).toBe(200);
    expect(
      json<{ fulfillments: Array<{ items: Array<{ item: { price: number } }> }> }>(lookup).fulfillments[0]!.items[0]!
        .item.price,
    ).toBe(19.99);
    const invalid = await v1('PUT', '/api/v1/orders/ext-2', { ...orderBody('7002'), createdAt: '14 days ago' });
    expect(invalid.statusCode).toBe(400);
  });

  it('takes orders sent at once each on its own: every order and premium recorded, a resent order’s row and premium agreeing, a revoked token refused', async () => {
    const fresh = Array.from({ length: 30 }, (_, i) => `7100${i}`);
    const resent = [1.25, 2.5, 2.5, 0.75].map((premiumPaid) => {
      const body = orderBody('7199');
      return { ...body, policy: { ...body.policy, premiumPaid } };
    });
    const revoked = await newToken(['order:create'], 'revoked');
    const revoke = await h.call({
      method: 'DELETE',
      url: `/api/stores/${acme}/api-tokens/${revoked.id}`,
      cookie: owner,
    });
    expect(revoke.statusCode).toBe(204);
    const [answers, refused] = await Promise.all([
      Promise.all([
        ...fresh.map((n) => v1('PUT', `/api/v1/orders/ext-${n}`, orderBody(n))),
        ...resent.map((body) => v1('PUT', '/api/v1/orders/ext-7199', body)),
      ]),
      Promise.all(
        ['7198', '7197'].map((n) => v1('PUT', `/api/v1/orders/ext-${n}`, orderBody(n), undefined, revoked.token)),
      ),
    ]);
    // Calls of a revoked token read at the same time as the others are refused all the same.
    expect(refused.map((a) => a.statusCode)).toEqual([401, 401]);
    expect(answers.slice(0, fresh.length).map((a) => a.statusCode)).toEqual(fresh.map(() => 201));
    expect(
      answers
        .slice(fresh.length)
        .map((a) => a.statusCode)
        .sort(),
    ).toEqual([200, 200, 200, 201]);
    const db = h.runtime.ctx.database.db;
    for (const answer of answers.slice(0, fresh.length)) {
      const { id } = UpsertOrderResponse.parse(json(answer));
      expect((await readStream(db, orderPremiumStreamOf(id))).events.map((e) => e.type)).toEqual(['PremiumRecorded']);
    }
    const { id } = UpsertOrderResponse.parse(json(answers.at(-1)!));
    const premium = foldRecorded(orderPremiumDecider, (await readStream(db, orderPremiumStreamOf(id))).events);
    const { rows } = await sql<{ paid: number }>`
      select (doc->'policy'->>'premiumPaid')::int as paid from orders where id = ${id}::uuid`.execute(db);
    expect(premium?.premiumPaid).toBe(rows[0]!.paid);
  });

  it('lists, reads and resolves claims; checks versions; never shows another tenant', async () => {
    await v1('PUT', '/api/v1/orders/ext-3', orderBody('7003', 2));
    const filed = await h.fileClaim('ext-3', oneItemClaim('buyer-7003@example.com', '7003-f', '7003-li-0', 'REFUND'));
    const second = await h.fileClaim('ext-3', oneItemClaim('buyer-7003@example.com', '7003-f', '7003-li-1', 'REFUND'));
    await h.runtime.settle();

    const one = await v1('GET', `/api/v1/claims/${filed.claimId}`);
    expect(one.statusCode).toBe(200);
    const claim = ApiClaim.parse(json(one));
    expect(claim).toMatchObject({
      id: filed.claimId,
      claimNumber: filed.claimNumber,
      status: 'NEW',
      sourceOrderId: 'ext-3',
      version: 1,
      resolutions: [],
    });
    expect(claim.items[0]).toMatchObject({ sourceItemId: '7003-li-0', price: 19.99, quantity: 1 });

    // Two claims filed in the same millisecond tie on time; the keyset orders them by id then.
    const page1 = ApiClaimPage.parse(json(await v1('GET', '/api/v1/claims?limit=1')));
    expect(page1.data).toHaveLength(1);
    expect(page1.nextCursor).not.toBeNull();
    const page2 = ApiClaimPage.parse(json(await v1('GET', `/api/v1/claims?limit=1&cursor=${page1.nextCursor}`)));
    expect([...page1.data, ...page2.data].map((c) => c.id).sort()).toEqual([filed.claimId, second.claimId].sort());
    const everything = ApiClaimPage.parse(json(await v1('GET', '/api/v1/claims?limit=100')));
    expect(everything.data.every((c) => c.storeId === acme)).toBe(true);
    const recent = ApiClaimPage.parse(
      json(await v1('GET', `/api/v1/claims?limit=100&status=NEW&createdFrom=${encodeURIComponent(ago(1))}`)),
    );
    expect(recent.data.map((c) => c.id).sort()).toEqual([filed.claimId, second.claimId].sort());
    const old = ApiClaimPage.parse(
      json(await v1('GET', `/api/v1/claims?limit=100&createdTo=${encodeURIComponent(ago(1))}`)),
    );
    expect(old.data.map((c) => c.id)).not.toContain(filed.claimId);

    // Another tenant's claim is as unknown as a made-up one.
    const kumoClaim = (await h.fileClaim('kumo-9001', oneItemClaim('ivy@example.com', 'f-k2001-1', 'k-1'))).claimId;
    for (const id of [kumoClaim, '00000000-0000-4000-8000-000000000000', 'not-a-claim']) {
      expect((await v1('GET', `/api/v1/claims/${id}`)).statusCode).toBe(404);
      expect((await v1('POST', `/api/v1/claims/${id}/resolve`, { resolutionType: 'REFUND' })).statusCode).toBe(404);
    }

    const stale = await v1('POST', `/api/v1/claims/${filed.claimId}/resolve`, {
      resolutionType: 'REFUND',
      reason: 'REFUND',
      expectedVersion: 0,
    });
    expect(stale.statusCode).toBe(409);
    expect(json(stale)).toMatchObject({ error: 'version_conflict' });
    const resolved = await v1('POST', `/api/v1/claims/${filed.claimId}/resolve`, {
      resolutionType: 'REFUND',
      reason: 'REFUND',
      expectedVersion: 1,
    });
    expect(resolved.statusCode, resolved.body).toBe(200);
    const after = ApiClaim.parse(json(resolved));
    expect(after).toMatchObject({ status: 'RESOLVED', version: 2 });
    expect(after.resolutions).toHaveLength(1);
    expect(after.resolutions[0]).toMatchObject({
      resolutionType: 'REFUND',
      paidValue: 19.99,
      resolvedBy: { type: 'api-token', id: tokenId },
    });
    const twice = await v1('POST', `/api/v1/claims/${filed.claimId}/resolve`, { resolutionType: 'RESHIP' });
    expect(twice.statusCode).toBe(409);
    expect(json(twice)).toMatchObject({ error: 'already_resolved' });

    const flat = await v1('POST', `/api/v1/claims/${second.claimId}/resolve`, {
      resolutionType: 'FLAT_RATE',
      amount: 7.5,
      reason: 'FLAT_RATE',
    });
    expect(flat.statusCode).toBe(200);
    expect(ApiClaim.parse(json(flat)).resolutions[0]).toMatchObject({ paidValue: 7.5, relatedClaimItemId: null });
  });

  it("decides a claim item by item over several passes, as the contract's v1 resolve describes", async () => {
    await v1('PUT', '/api/v1/orders/ext-items', orderBody('7010', 3));
    const filed = await h.fileClaim('ext-items', {
      email: 'buyer-7010@example.com',
      fulfillmentIssues: [
        {
          sourceFulfillmentId: '7010-f',
          issues: [0, 1, 2].map((i) => ({
            sourceItemId: `7010-li-${i}`,
            claimType: 'DAMAGED' as const,
            quantity: 1,
            details: '',
            images: [],
          })),
        },
      ],
      resolution: { desiredMethod: 'REFUND', customerSignature: 'Lee Buyer' },
    });
    const items = ApiClaim.parse(json(await v1('GET', `/api/v1/claims/${filed.claimId}`))).items.map((i) => i.id);
    const resolve = (body: object) => v1('POST', `/api/v1/claims/${filed.claimId}/resolve`, body);
    // First pass: item 0 reshipped (the body's type), item 1 denied with its own type and reason.
    const first = await resolve({
      resolutionType: 'RESHIP',
      items: [{ claimItemId: items[0] }, { claimItemId: items[1], resolutionType: 'DENY', reason: 'PHOTO_VERIFIED' }],
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(ApiClaim.parse(json(first))).toMatchObject({
      status: 'NEW',
      resolutions: [
        { relatedClaimItemId: items[0], resolutionType: 'RESHIP' },
        { relatedClaimItemId: items[1], resolutionType: 'DENY', reason: 'PHOTO_VERIFIED' },
      ],
    });
    // An item already decided is not decided again.
    const again = await resolve({ resolutionType: 'REFUND', items: [{ claimItemId: items[1] }] });
    expect([again.statusCode, json<{ error: string }>(again).error]).toEqual([409, 'already_resolved']);
    // With no items, every item not yet decided: only item 2 is left, and the claim is resolved with it.
    const rest = await resolve({ resolutionType: 'REFUND' });
    expect(ApiClaim.parse(json(rest))).toMatchObject({ status: 'RESOLVED', version: 3 });
    expect(ApiClaim.parse(json(rest)).resolutions.map((r) => [r.relatedClaimItemId, r.resolutionType])).toEqual([
      [items[0], 'RESHIP'],
      [items[1], 'DENY'],
      [items[2], 'REFUND'],
    ]);
    const nothingLeft = await resolve({ resolutionType: 'REFUND' });
    expect([nothingLeft.statusCode, json<{ error: string }>(nothingLeft).error]).toEqual([409, 'already_resolved']);
  });

  it('answers 422 for a resolution type the store does not offer, for the whole claim or one item, and records nothing', async () => {
    // Kumo has refunds turned off: a token of its own store.
    const kumoOwner = await h.login('kumoOwner');
    const created = await h.call({
      method: 'POST',
      url: `/api/stores/${kumo}/api-tokens`,
      cookie: kumoOwner,
      body: { name: 'kumo', permissions: ['order:create', 'claim:read', 'claim:resolve'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const kumoToken = CreateApiTokenResponse.parse(json(created)).token;
    expect((await v1('PUT', '/api/v1/orders/ext-kumo', orderBody('7020', 2), undefined, kumoToken)).statusCode).toBe(
      201,
    );
    const filed = await h.fileClaim('ext-kumo', {
      email: 'buyer-7020@example.com',
      fulfillmentIssues: [
        {
          sourceFulfillmentId: '7020-f',
          issues: [0, 1].map((i) => ({
            sourceItemId: `7020-li-${i}`,
            claimType: 'DAMAGED' as const,
            quantity: 1,
            details: '',
            images: [],
          })),
        },
      ],
      resolution: { desiredMethod: 'RESHIP', customerSignature: 'Lee Buyer' },
    });
    const resolve = (body: object) => v1('POST', `/api/v1/claims/${filed.claimId}/resolve`, body, undefined, kumoToken);
    const items = ApiClaim.parse(
      json(await v1('GET', `/api/v1/claims/${filed.claimId}`, undefined, undefined, kumoToken)),
    ).items.map((i) => i.id);

    const whole = await resolve({ resolutionType: 'REFUND' });
    expect([whole.statusCode, json<{ error: string }>(whole).error]).toEqual([422, 'unsupported_resolution']);
    const oneItem = await resolve({
      resolutionType: 'RESHIP',
      items: [{ claimItemId: items[0] }, { claimItemId: items[1], resolutionType: 'REFUND' }],
    });
    expect([oneItem.statusCode, json<{ error: string }>(oneItem).error]).toEqual([422, 'unsupported_resolution']);
    // Neither refusal decided anything: the offered type still decides both items.
    expect(
      ApiClaim.parse(json(await v1('GET', `/api/v1/claims/${filed.claimId}`, undefined, undefined, kumoToken))),
    ).toMatchObject({ version: 1, resolutions: [] });
    const reshipped = await resolve({ resolutionType: 'RESHIP' });
    expect(reshipped.statusCode, reshipped.body).toBe(200);
    expect(ApiClaim.parse(json(reshipped))).toMatchObject({ status: 'RESOLVED', version: 2 });
  });

  it('holds a token to its permissions, and a revoked token gets 401', async () => {
    const reader = await newToken(['claim:read'], 'reader');
    expect((await v1('GET', '/api/v1/claims', undefined, undefined, reader.token)).statusCode).toBe(200);
    const anyClaim = ApiClaimPage.parse(
      json(await v1('GET', '/api/v1/claims?limit=1', undefined, undefined, reader.token)),
    ).data[0]!;
    const refused = await v1(
      'POST',
      `/api/v1/claims/${anyClaim.id}/resolve`,
      { resolutionType: 'REFUND' },
      undefined,
      reader.token,
    );
    expect(refused.statusCode).toBe(403);
    expect((await v1('PUT', '/api/v1/orders/ext-9', orderBody('7009'), undefined, reader.token)).statusCode).toBe(403);

    const revoke = await h.call({
      method: 'DELETE',
      url: `/api/stores/${acme}/api-tokens/${reader.id}`,
      cookie: owner,
    });
    expect(revoke.statusCode).toBe(204);
    const after = await v1('GET', '/api/v1/claims', undefined, undefined, reader.token);
    expect(after.statusCode).toBe(401);
    const list = json<{ data: unknown[] }>(
      await h.call({ method: 'GET', url: `/api/stores/${acme}/api-tokens`, cookie: owner }),
    ).data.map((r) => ApiTokenSummary.parse(r));
    expect(list.find((t) => t.id === reader.id)?.revokedAt).not.toBeNull();
    expect(
      (
        await h.call({
          method: 'DELETE',
          url: `/api/stores/${acme}/api-tokens/00000000-0000-4000-8000-000000000000`,
          cookie: owner,
        })
      ).statusCode,
    ).toBe(404);
  });

  describe('Idempotency-Key', () => {
    it('replays the first answer for the same body and refuses another body with 422', async () => {
      const key = { 'idempotency-key': 'order-7010-create' };
      const body = orderBody('7010');
      const first = await v1('PUT', '/api/v1/orders/ext-10', body, key);
      expect(first.statusCode).toBe(201);
      const replay = await v1('PUT', '/api/v1/orders/ext-10', structuredClone(body), key);
      expect(replay.statusCode).toBe(201);
      expect(replay.body).toBe(first.body);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      const other = await v1('PUT', '/api/v1/orders/ext-10', { ...body, tax: 9 }, key);
      expect(other.statusCode).toBe(422);
      expect(json(other)).toMatchObject({ error: 'idempotency_key_reused' });
      const otherPath = await v1('PUT', '/api/v1/orders/ext-11', body, key);
      expect(otherPath.statusCode).toBe(422);
      // Without the key the same PUT is simply a replacement.
      expect((await v1('PUT', '/api/v1/orders/ext-10', orderBody('7010'))).statusCode).toBe(200);
    });

    it('replays a resolution instead of answering already_resolved', async () => {
      await v1('PUT', '/api/v1/orders/ext-12', orderBody('7012', 1));
      const filed = await h.fileClaim('ext-12', oneItemClaim('buyer-7012@example.com', '7012-f', '7012-li-0'));
      const key = { 'idempotency-key': `resolve-${filed.claimId}` };
      const body = { resolutionType: 'RESHIP', reason: 'RESHIP' };
      const first = await v1('POST', `/api/v1/claims/${filed.claimId}/resolve`, body, key);
      expect(first.statusCode).toBe(200);
      const again = await v1('POST', `/api/v1/claims/${filed.claimId}/resolve`, body, key);
      expect(again.statusCode).toBe(200);
      expect(again.body).toBe(first.body);
      const withoutKey = await v1('POST', `/api/v1/claims/${filed.claimId}/resolve`, body);
      expect(withoutKey.statusCode).toBe(409);
      // Concurrent repeats of one key run the request once.
      await v1('PUT', '/api/v1/orders/ext-13', orderBody('7013', 1));
      const next = await h.fileClaim('ext-13', oneItemClaim('buyer-7013@example.com', '7013-f', '7013-li-0'));
      const nextKey = { 'idempotency-key': `resolve-${next.claimId}` };
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => v1('POST', `/api/v1/claims/${next.claimId}/resolve`, body, nextKey)),
      );
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    });

    it('keys are per token', async () => {
      const otherToken = await newToken(['order:create'], 'second');
      const key = { 'idempotency-key': 'shared-key' };
      expect((await v1('PUT', '/api/v1/orders/ext-20', orderBody('7020'), key)).statusCode).toBe(201);
      expect((await v1('PUT', '/api/v1/orders/ext-21', orderBody('7021'), key, otherToken.token)).statusCode).toBe(201);
    });
  });

  it('lets exactly one of 20 simultaneous resolutions of a claim through; the rest get 409', async () => {
    await v1('PUT', '/api/v1/orders/ext-30', orderBody('7030', 3));
    const filed = await h.fileClaim('ext-30', {
      ...oneItemClaim('buyer-7030@example.com', '7030-f', '7030-li-0'),
      fulfillmentIssues: [
        {
          sourceFulfillmentId: '7030-f',
          issues: [0, 1, 2].map((i) => ({
            sourceItemId: `7030-li-${i}`,
            claimType: 'DAMAGED' as const,
            quantity: 1,
            details: 'Broken',
            images: [],
          })),
        },
      ],
    });
    const types = ['REFUND', 'RESHIP', 'STORE_CREDIT', 'DENY'] as const;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const resolutionType = types[i % types.length]!;
        const body = { resolutionType, reason: resolutionType === 'DENY' ? 'NOT_COVERED' : resolutionType };
        // Half go through the public API, half through the back-office.
        return i % 2 === 0
          ? v1('POST', `/api/v1/claims/${filed.claimId}/resolve`, body)
          : h.call({ method: 'POST', url: `/api/admin/claims/${filed.claimId}/resolve`, cookie: owner, body });
      }),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    for (const answer of answers.filter((a) => a.statusCode === 409)) {
      expect(['already_resolved', 'version_conflict']).toContain(json<{ error: string }>(answer).error);
    }
    const final = ApiClaim.parse(json(await v1('GET', `/api/v1/claims/${filed.claimId}`)));
    expect(final.version).toBe(2);
    expect(final.resolutions.length).toBe(3);
    expect(new Set(final.resolutions.map((r) => r.resolutionType)).size).toBe(1);
  });

  it('documents every new route in /api/openapi.json', async () => {
    const doc = json<{ paths: Record<string, Record<string, unknown>> }>(
      await h.call({ method: 'GET', url: '/api/openapi.json' }),
    );
    const expectedRoutes: Array<[string, string]> = [
      ['/api/auth/login', 'post'],
      ['/api/auth/logout', 'post'],
      ['/api/auth/me', 'get'],
      ['/api/admin/claims', 'get'],
      ['/api/admin/claims/{claimId}', 'get'],
      ['/api/admin/claims/{claimId}/timeline', 'get'],
      ['/api/admin/claims/{claimId}/resolve', 'post'],
      ['/api/admin/claims/{claimId}/status', 'post'],
      ['/api/admin/claims/{claimId}/messages', 'post'],
      ['/api/stores/{storeId}/api-tokens', 'post'],
      ['/api/stores/{storeId}/api-tokens', 'get'],
      ['/api/stores/{storeId}/api-tokens/{tokenId}', 'delete'],
      ['/api/v1/orders/{sourceOrderId}', 'put'],
      ['/api/v1/claims', 'get'],
      ['/api/v1/claims/{claimId}', 'get'],
      ['/api/v1/claims/{claimId}/resolve', 'post'],
      ['/api/claim-links', 'post'],
      ['/api/admin/notification-preferences', 'get'],
      ['/api/admin/stores/{storeId}/notification-preferences', 'put'],
    ];
    for (const [path, method] of expectedRoutes) expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
  });
});
