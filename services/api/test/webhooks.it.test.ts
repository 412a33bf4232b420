import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  WebhookTestResponse,
  CreateApiTokenResponse,
  CreateWebhookEndpointResponse,
  WEBHOOK_EVENT_TYPES,
  WebhookDeliveryAttemptPage,
  WebhookEndpointList,
  WebhookPayload,
  WebhookReplayResponse,
} from '@claims/contracts';
import { rebuild, webhookOutboxProjection } from '@claims/projections';
import { claimDueDeliveries } from '../src/webhooks/deliveryQueue.js';
import { json, oneItemClaim, startHarness, type Harness } from './support/backofficeHarness.js';
import { eventually } from '../../../test/support/testDatabase.js';
import { orderBody } from '../../../test/support/orderBody.js';
import { nextAttemptAfterFailure, RETRY_FOR_MS, retryDelayMs } from '../src/webhooks/retrySchedule.js';
import { signWebhook } from '../src/webhooks/signature.js';
import { isPrivateAddress } from '../src/webhooks/addressPolicy.js';
import { recordAttempt } from '../src/webhooks/deliveryWorker.js';
import { loadConfig, startRuntime, type Runtime } from '../src/index.js';
import { StandardWebhookReceiver } from '../../../test/support/standardWebhookReceiver.js';

const SECOND = 1000;
const HOUR = 3_600_000;

describe('webhook retry schedule (pure)', () => {
  it('grows from 5 s to 8 h and then repeats 8 h', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 25].map(retryDelayMs)).toEqual([
      5 * SECOND,
      30 * SECOND,
      120 * SECOND,
      600 * SECOND,
      1800 * SECOND,
      HOUR,
      2 * HOUR,
      4 * HOUR,
      8 * HOUR,
      8 * HOUR,
      8 * HOUR,
    ]);
  });

  it('retries a receiver that is always down for at least 24 hours, the first retry within 30 s', () => {
    const first = new Date('2030-01-01T00:00:00Z');
    const attempts = [first];
    for (let failed = 1; failed < 100; failed++) {
      const next = nextAttemptAfterFailure({
        failedAttempts: failed,
        firstAttemptAt: first,
        failedAt: attempts.at(-1)!,
      });
      if (!next) break;
      attempts.push(next);
    }
    const gaps = attempts.slice(1).map((at, i) => at.getTime() - attempts[i]!.getTime());
    expect(gaps[0]).toBeLessThanOrEqual(30 * SECOND);
    expect(gaps).toEqual([...gaps].sort((a, b) => a - b));
    expect(attempts.at(-1)!.getTime() - first.getTime()).toBeGreaterThanOrEqual(RETRY_FOR_MS);
    expect(attempts.length).toBeLessThan(20);
  });

  it('stops once a failure comes 24 h after the first attempt', () => {
    const first = new Date('2030-01-01T00:00:00Z');
    expect(
      nextAttemptAfterFailure({
        failedAttempts: 11,
        firstAttemptAt: first,
        failedAt: new Date(first.getTime() + RETRY_FOR_MS - 1),
      }),
    ).not.toBeNull();
    expect(
      nextAttemptAfterFailure({
        failedAttempts: 11,
        firstAttemptAt: first,
        failedAt: new Date(first.getTime() + RETRY_FOR_MS),
      }),
    ).toBeNull();
  });

  it('turns every event type of WEBHOOK_EVENT_TYPES into deliveries', () => {
    for (const type of Object.keys(WEBHOOK_EVENT_TYPES)) expect([...webhookOutboxProjection.handles]).toContain(type);
  });

  it('signs like the Standard Webhooks reference test vector', () => {
    expect(
      signWebhook(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('knows loopback, private and link-local addresses, IPv4 and IPv6', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '100.64.0.1',
      '::1',
      '::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:a00:1',
      '[::1]',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });
});

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
  verified: boolean;
}

/** What an integrator's receiver does: the `standardwebhooks` package, with any of the endpoint's secrets. */
function verifiedByStandardWebhooks(
  secrets: readonly string[],
  headers: http.IncomingHttpHeaders,
  body: string,
): boolean {
  const wanted = {
    'webhook-id': String(headers['webhook-id']),
    'webhook-timestamp': String(headers['webhook-timestamp']),
    'webhook-signature': String(headers['webhook-signature']),
  };
  return secrets.some((secret) => {
    try {
      new Webhook(secret).verify(body, wanted);
      return true;
    } catch {
      return false;
    }
  });
}

/** The receiver's own check, written from the Standard Webhooks specification. */
function verifyStandardWebhook(secret: string, headers: http.IncomingHttpHeaders, body: string): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

describe('webhooks through the public API v1', () => {
  let h: Harness;
  let acme: string;
  let kumo: string;
  let token: string;
  let kumoToken: string;
  let receiver: http.Server;
  let base: string;
  const received: Received[] = [];
  /** Each receiver path's secrets, for verifying every delivery it gets. */
  const secretsOf = new Map<string, string[]>();
  let orderSeq = 8100;
  let gone = true;

  const v1 = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    bearer = token,
    headers?: Record<string, string>,
  ) => h.call({ method, url, body, token: bearer, headers });

  const newToken = async (cookie: string, storeId: string, permissions: string[]) => {
    const response = await h.call({
      method: 'POST',
      url: `/api/stores/${storeId}/api-tokens`,
      cookie,
      body: { name: 'webhooks', permissions },
    });
    expect(response.statusCode, response.body).toBe(201);
    return CreateApiTokenResponse.parse(json(response)).token;
  };

  const createEndpoint = async (path: string, eventTypes?: string[], bearer = token) => {
    const response = await v1(
      'POST',
      '/api/v1/webhook-endpoints',
      { url: `${base}${path}`, ...(eventTypes ? { eventTypes } : {}) },
      bearer,
    );
    expect(response.statusCode, response.body).toBe(201);
    const created = CreateWebhookEndpointResponse.parse(json(response));
    secretsOf.set(path, [...(secretsOf.get(path) ?? []), created.secret]);
    return created;
  };

  /** Files a one-item claim on a fresh order of acme, through the customer API. */
  const fileAcmeClaim = async () => {
    const number = String(orderSeq++);
    const put = await v1('PUT', `/api/v1/orders/wh-${number}`, orderBody(number));
    expect(put.statusCode, put.body).toBe(201);
    return h.fileClaim(
      `wh-${number}`,
      oneItemClaim(`buyer-${number}@example.com`, `${number}-f`, `${number}-li-0`, 'REFUND'),
    );
  };

  const at = (path: string) => received.filter((r) => r.path === path);
  const payloadOf = (r: Received) => WebhookPayload.parse(JSON.parse(r.body));
  const attempts = async (endpointId: string, query = '') => {
    const response = await v1('GET', `/api/v1/webhook-endpoints/${endpointId}/deliveries${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return WebhookDeliveryAttemptPage.parse(json(response)).data;
  };

  beforeAll(async () => {
    receiver = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '';
        const body = Buffer.concat(chunks).toString('utf8');
        const entry = {
          path,
          headers: request.headers,
          body,
          at: Date.now(),
          verified: verifiedByStandardWebhooks(secretsOf.get(path) ?? [], request.headers, body),
        };
        received.push(entry);
        // /flaky fails the first two attempts of every delivery, told apart by webhook-id.
        const tries = received.filter(
          (r) => r.path === entry.path && r.headers['webhook-id'] === entry.headers['webhook-id'],
        ).length;
        response.statusCode = entry.path === '/flaky' && tries <= 2 ? 500 : 204;
        // /gone says the endpoint is no more while `gone` is set; /busy asks for 2 s on the first try of each delivery.
        if (entry.path === '/gone' && gone) response.statusCode = 410;
        // /moved points deliveries at another address of this host (a redirect to a private address).
        if (entry.path === '/moved') {
          response.statusCode = 302;
          response.setHeader('location', `${base}/redirect-target`);
        }
        if (entry.path === '/busy' && tries === 1) {
          response.statusCode = 429;
          response.setHeader('retry-after', '2');
        }
        response.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

    h = await startHarness();
    // What `make dev` and the tests set (contract): the receiver runs on loopback.
    h.runtime.ctx.config.webhookAllowPrivateUrls = true;
    acme = await h.storeId('acme');
    kumo = await h.storeId('kumo');
    const owner = await h.login('acmeOwner');
    token = await newToken(owner, acme, [
      'webhook:create',
      'webhook:read',
      'webhook:update',
      'webhook:delete',
      'order:create',
      'claim:read',
      'claim:resolve',
    ]);
    kumoToken = await newToken(await h.login('kumoOwner'), kumo, [
      'webhook:create',
      'webhook:read',
      'webhook:update',
      'webhook:delete',
    ]);
  });
  afterAll(async () => {
    await h?.stop();
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('creates an endpoint with a whsec_ secret shown once and lists it without the secret', async () => {
    const created = await createEndpoint('/created', ['claim.filed']);
    expect(created).toMatchObject({ url: `${base}/created`, storeId: acme, eventTypes: ['claim.filed'] });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(created.secret.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24);
    const list = await v1('GET', '/api/v1/webhook-endpoints');
    expect(list.statusCode).toBe(200);
    expect(WebhookEndpointList.parse(json(list)).data.map((e) => e.id)).toContain(created.id);
    expect(list.body).not.toContain(created.secret);
    const one = await v1('GET', `/api/v1/webhook-endpoints/${created.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.body).not.toContain(created.secret);
    // Idempotency-Key: the repeat answers the first answer, the same endpoint.
    const key = { 'idempotency-key': 'webhook-create-1' };
    const first = await v1('POST', '/api/v1/webhook-endpoints', { url: `${base}/idem` }, token, key);
    const again = await v1('POST', '/api/v1/webhook-endpoints', { url: `${base}/idem` }, token, key);
    expect(first.statusCode).toBe(201);
    secretsOf.set('/idem', [json<{ secret: string }>(first).secret]);
    expect(again.statusCode).toBe(201);
    expect(json<{ id: string }>(again).id).toBe(json<{ id: string }>(first).id);
  });

  it('rotates a secret with an overlap: both signatures, new first, until the old one expires', async () => {
    const created = await createEndpoint('/rotated', ['claim.filed']);
    const rotated = await v1('POST', `/api/v1/webhook-endpoints/${created.id}/rotate-secret`, { overlapSeconds: 3600 });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { secret } = json<{ secret: string }>(rotated);
    expect(secret).not.toBe(created.secret);
    secretsOf.get('/rotated')!.push(secret);
    const filed = await fileAcmeClaim();
    const delivery = await eventually(async () => {
      const found = at('/rotated').find((r) => payloadOf(r).data.claimId === filed.claimId);
      expect(found).toBeDefined();
      return found!;
    });
    const signatures = String(delivery.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    expect(
      verifyStandardWebhook(secret, { ...delivery.headers, 'webhook-signature': signatures[0] }, delivery.body),
    ).toBe(true);
    expect(
      verifyStandardWebhook(created.secret, { ...delivery.headers, 'webhook-signature': signatures[1] }, delivery.body),
    ).toBe(true);
    // With no overlap the old secret is gone at once: one signature, the new one.
    const again = json<{ secret: string }>(
      await v1('POST', `/api/v1/webhook-endpoints/${created.id}/rotate-secret`, { overlapSeconds: 0 }),
    );
    secretsOf.get('/rotated')!.push(again.secret);
    const next = await fileAcmeClaim();
    const single = await eventually(async () => {
      const found = at('/rotated').find((r) => payloadOf(r).data.claimId === next.claimId);
      expect(found).toBeDefined();
      return found!;
    });
    expect(String(single.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifyStandardWebhook(again.secret, single.headers, single.body)).toBe(true);
  });

  it('disables an endpoint whose receiver answers 410, and delivers what it was owed once enabled again', async () => {
    const created = await createEndpoint('/gone', ['claim.filed']);
    const first = await fileAcmeClaim();
    await eventually(async () => {
      const endpoint = json<{ status: string; disabledReason: string | null }>(
        await v1('GET', `/api/v1/webhook-endpoints/${created.id}`),
      );
      expect(endpoint).toMatchObject({ status: 'disabled', disabledReason: expect.stringContaining('410') });
    });
    // Recorded once in the store's webhooks stream, though several attempts may have met the 410.
    const { rows: disabled } = await sql<{ stream_id: string; data: { endpointId: string; reason: string } }>`
      select stream_id, data from events where type = 'WebhookEndpointDisabled' and data ->> 'endpointId' = ${created.id}`.execute(
      h.runtime.ctx.database.db,
    );
    expect(disabled).toEqual([
      {
        stream_id: `store-webhooks:${acme}`,
        data: expect.objectContaining({ endpointId: created.id, reason: 'receiver_gone' }),
      },
    ]);
    const tried = at('/gone').length;
    const second = await fileAcmeClaim();
    await h.runtime.settle();
    expect(at('/gone')).toHaveLength(tried);
    gone = false;
    const enabled = await v1('PATCH', `/api/v1/webhook-endpoints/${created.id}`, { status: 'enabled' });
    expect(json(enabled)).toMatchObject({ status: 'enabled', disabledReason: null });
    await eventually(async () => {
      const delivered = at('/gone')
        .slice(tried)
        .map((r) => payloadOf(r).data.claimId);
      expect(new Set(delivered)).toEqual(new Set([first.claimId, second.claimId]));
    }, 40_000);
  }, 60_000);

  it('tries a receiver that asked for time (429 with Retry-After) no sooner than it asked', async () => {
    await createEndpoint('/busy', ['claim.filed']);
    const filed = await fileAcmeClaim();
    const tries = await eventually(async () => {
      const found = at('/busy').filter((r) => payloadOf(r).data.claimId === filed.claimId);
      expect(found.length).toBeGreaterThanOrEqual(2);
      return found;
    }, 30_000);
    expect(tries[0]!.headers['webhook-id']).toBe(tries[1]!.headers['webhook-id']);
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(2_000);
  }, 40_000);

  it('refuses loopback, private and link-local URLs unless WEBHOOK_ALLOW_PRIVATE_URLS, and non-http URLs', async () => {
    h.runtime.ctx.config.webhookAllowPrivateUrls = false;
    try {
      for (const url of [
        `${base}/x`,
        'http://localhost:8080/x',
        'http://[::1]/x',
        'https://10.1.2.3/x',
        'http://172.16.5.4/x',
        'http://192.168.1.1/x',
        'http://169.254.169.254/latest/meta-data',
        'http://0.0.0.0/x',
        'http://[fd00::1]/x',
        'http://[::ffff:127.0.0.1]/x',
        'http://2130706433/x',
      ]) {
        const response = await v1('POST', '/api/v1/webhook-endpoints', { url });
        expect(response.statusCode, `${url}: ${response.body}`).toBe(422);
        expect(json(response)).toMatchObject({ error: 'webhook_url_not_allowed' });
      }
    } finally {
      h.runtime.ctx.config.webhookAllowPrivateUrls = true;
    }
    for (const body of [
      { url: 'ftp://example.com/x' },
      { url: 'not a url' },
      { url: `${base}/x`, eventTypes: ['claim.exploded'] },
      { url: `${base}/x`, eventTypes: [] },
    ]) {
      expect((await v1('POST', '/api/v1/webhook-endpoints', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('delivers claim.filed within seconds, signed per Standard Webhooks, without secrets', async () => {
    const endpoint = await createEndpoint('/all');
    const filedAt = Date.now();
    const filed = await fileAcmeClaim();
    const delivery = await eventually(
      async () => {
        const found = at('/all').find(
          (r) => payloadOf(r).type === 'claim.filed' && payloadOf(r).data.claimId === filed.claimId,
        );
        if (!found) throw new Error('not delivered yet');
        return found;
      },
      10_000,
      50,
    );
    expect(delivery.at - filedAt).toBeLessThan(5_000);
    expect(verifyStandardWebhook(endpoint.secret, delivery.headers, delivery.body)).toBe(true);
    expect(
      verifyStandardWebhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, delivery.headers, delivery.body),
    ).toBe(false);
    expect(delivery.headers['webhook-id']).toMatch(/^msg_\w+$/);
    expect(Math.abs(Number(delivery.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(delivery.headers['content-type']).toBe('application/json');
    const payload = payloadOf(delivery);
    expect(Object.keys(payload).sort()).toEqual(['data', 'timestamp', 'type']);
    expect(payload.data).toMatchObject({ claimId: filed.claimId, storeId: acme, claimNumber: filed.claimNumber });
    expect(delivery.body).not.toContain('tokenHash');
    expect(delivery.body).not.toContain(filed.token);
    // The receiver answers before the worker records the attempt.
    await eventually(
      async () =>
        expect((await attempts(endpoint.id)).find((a) => a.webhookId === delivery.headers['webhook-id'])).toMatchObject(
          { attempt: 1, statusCode: 204, error: null, succeeded: true, eventType: 'claim.filed' },
        ),
      5_000,
      50,
    );
  });

  it("filters by eventTypes and never sends another store's events", async () => {
    const all = await createEndpoint('/all-2');
    await createEndpoint('/resolved-only', ['claim.resolved']);
    const kumoEndpoint = await createEndpoint('/kumo', undefined, kumoToken);
    expect(kumoEndpoint.storeId).toBe(kumo);
    const filed = await fileAcmeClaim();
    const resolved = await v1('POST', `/api/v1/claims/${filed.claimId}/resolve`, {
      resolutionType: 'REFUND',
      reason: 'REFUND',
    });
    expect(resolved.statusCode, resolved.body).toBe(200);
    const kumoClaim = await h.fileClaim('kumo-9001', oneItemClaim('ivy@example.com', 'f-k2001-1', 'k-1'));
    await eventually(
      async () => {
        expect(at('/resolved-only').map((r) => payloadOf(r).type)).toContain('claim.resolved');
        expect(
          at('/all-2')
            .map((r) => payloadOf(r).type)
            .sort(),
        ).toEqual(expect.arrayContaining(['claim.filed', 'claim.resolved']));
        expect(at('/kumo').map((r) => payloadOf(r).data.claimId)).toContain(kumoClaim.claimId);
      },
      10_000,
      50,
    );
    await h.runtime.settle();
    expect(at('/resolved-only').every((r) => payloadOf(r).type === 'claim.resolved')).toBe(true);
    const resolvedPayload = payloadOf(at('/resolved-only')[0]!);
    expect(resolvedPayload.data).toMatchObject({ claimId: filed.claimId, storeId: acme, outcome: expect.any(String) });
    const acmePaths = received.filter((r) => r.path !== '/kumo');
    expect(acmePaths.every((r) => payloadOf(r).data.storeId === acme)).toBe(true);
    expect(acmePaths.map((r) => payloadOf(r).data.claimId)).not.toContain(kumoClaim.claimId);
    expect(at('/kumo').every((r) => payloadOf(r).data.storeId === kumo)).toBe(true);
    expect((await attempts(all.id)).every((a) => a.succeeded)).toBe(true);
  });

  it('sends a decision on one of two items as claim.items_resolved only, and claim.resolved once, with both items, when the claim is decided', async () => {
    await createEndpoint('/decisions', ['claim.resolved', 'claim.items_resolved']);
    await createEndpoint('/whole-only', ['claim.resolved']);
    const number = String(orderSeq++);
    expect((await v1('PUT', `/api/v1/orders/wh-${number}`, orderBody(number, 2))).statusCode).toBe(201);
    const filed = await h.fileClaim(`wh-${number}`, {
      email: `buyer-${number}@example.com`,
      fulfillmentIssues: [
        {
          sourceFulfillmentId: `${number}-f`,
          issues: [0, 1].map((i) => ({
            sourceItemId: `${number}-li-${i}`,
            claimType: 'DAMAGED' as const,
            quantity: 1,
            details: 'Broken.',
            images: [],
          })),
        },
      ],
      resolution: { desiredMethod: 'REFUND', customerSignature: 'Lee Buyer', updatedShippingAddress: null },
    });
    const items = json<{ items: Array<{ id: string; name: string }> }>(
      await v1('GET', `/api/v1/claims/${filed.claimId}`),
    ).items;
    expect(items).toHaveLength(2);
    const ours = (path: string) =>
      at(path)
        .map(payloadOf)
        .filter((p) => p.data.claimId === filed.claimId);

    const first = await v1('POST', `/api/v1/claims/${filed.claimId}/resolve`, {
      resolutionType: 'REFUND',
      items: [{ claimItemId: items[0]!.id }],
    });
    expect(first.statusCode, first.body).toBe(200);
    await eventually(
      async () => expect(ours('/decisions').map((p) => p.type)).toEqual(['claim.items_resolved']),
      10_000,
      50,
    );
    expect(ours('/decisions')[0]!.data).toMatchObject({
      status: 'NEW',
      outcome: 'APPROVED',
      resolutions: [{ relatedClaimItemId: items[0]!.id, resolutionType: 'REFUND' }],
    });

    const second = await v1('POST', `/api/v1/claims/${filed.claimId}/resolve`, {
      resolutionType: 'DENY',
      reason: 'NOT_COVERED',
      items: [{ claimItemId: items[1]!.id }],
    });
    expect(second.statusCode, second.body).toBe(200);
    await eventually(async () => expect(ours('/whole-only')).toHaveLength(1), 10_000, 50);
    await h.runtime.settle();
    expect(ours('/decisions').map((p) => p.type)).toEqual(['claim.items_resolved', 'claim.resolved']);
    const [resolved] = ours('/whole-only');
    expect(resolved).toMatchObject({
      type: 'claim.resolved',
      data: { claimId: filed.claimId, storeId: acme, status: 'RESOLVED', outcome: 'APPROVED' },
    });
    expect(
      (resolved!.data['resolutions'] as Array<{ relatedClaimItemId: string; resolutionType: string }>).map((r) => [
        r.relatedClaimItemId,
        r.resolutionType,
      ]),
    ).toEqual([
      [items[0]!.id, 'REFUND'],
      [items[1]!.id, 'DENY'],
    ]);
  });

  it("never follows a receiver's redirect (to a private address or anywhere): the attempt fails and is retried", async () => {
    const created = await createEndpoint('/moved', ['claim.filed']);
    const filed = await fileAcmeClaim();
    const [attempt] = await eventually(async () => {
      const found = await attempts(created.id);
      expect(found.length).toBeGreaterThan(0);
      return found;
    });
    expect(attempt).toMatchObject({ statusCode: 302, succeeded: false, error: 'receiver answered HTTP 302' });
    expect(at('/moved').some((r) => payloadOf(r).data.claimId === filed.claimId)).toBe(true);
    expect(at('/redirect-target')).toEqual([]);
  });

  it('retries a failing receiver with the same webhook-id: fails twice, then 3 attempts recorded', async () => {
    const endpoint = await createEndpoint('/flaky', ['claim.filed']);
    const filed = await fileAcmeClaim();
    const db = h.runtime.ctx.database.db;
    const delivery = async () => {
      const { rows } = await sql<{
        id: string;
        next_attempt_at: Date | null;
        last_attempt_at: Date | null;
        status: string;
        attempts: number;
      }>`
        select id, next_attempt_at, last_attempt_at, status, attempts from webhook_deliveries where endpoint_id = ${endpoint.id}::uuid`.execute(
        db,
      );
      expect(rows).toHaveLength(1);
      return rows[0]!;
    };
    // The first retry comes by itself, 5 s after the first failure.
    const afterFirst = await eventually(
      async () => {
        const row = await delivery();
        expect(row.attempts).toBe(1);
        return row;
      },
      10_000,
      50,
    );
    expect(afterFirst.next_attempt_at!.getTime() - afterFirst.last_attempt_at!.getTime()).toBeGreaterThanOrEqual(5_000);
    expect(afterFirst.next_attempt_at!.getTime() - afterFirst.last_attempt_at!.getTime()).toBeLessThan(5_000 + 1_000);
    const afterSecond = await eventually(
      async () => {
        const row = await delivery();
        expect(row.attempts).toBe(2);
        return row;
      },
      15_000,
      100,
    );
    expect(afterSecond.next_attempt_at!.getTime() - afterSecond.last_attempt_at!.getTime()).toBeGreaterThanOrEqual(
      30_000,
    );
    expect(afterSecond.next_attempt_at!.getTime() - afterSecond.last_attempt_at!.getTime()).toBeLessThan(
      30_000 + 1_000,
    );
    expect(afterSecond.status).toBe('pending');
    // Rather than wait the 30 s, the test moves the retry forward.
    await sql`update webhook_deliveries set next_attempt_at = now() where id = ${afterSecond.id}::uuid`.execute(db);
    await eventually(async () => expect((await delivery()).status).toBe('succeeded'), 10_000, 50);
    expect((await delivery()).next_attempt_at).toBeNull();

    const list = await attempts(endpoint.id);
    expect(list.map((a) => [a.attempt, a.statusCode, a.succeeded])).toEqual([
      [3, 204, true],
      [2, 500, false],
      [1, 500, false],
    ]);
    expect(list[1]!.error).toContain('500');
    expect(new Set(list.map((a) => a.webhookId)).size).toBe(1);
    expect(new Set(list.map((a) => a.deliveryId))).toEqual(new Set([afterFirst.id]));
    const sent = at('/flaky');
    expect(sent).toHaveLength(3);
    expect(sent.map((r) => r.headers['webhook-id'])).toEqual([
      list[0]!.webhookId,
      list[0]!.webhookId,
      list[0]!.webhookId,
    ]);
    expect(
      sent.every(
        (r) => verifyStandardWebhook(endpoint.secret, r.headers, r.body) && payloadOf(r).data.claimId === filed.claimId,
      ),
    ).toBe(true);
    expect(sent[1]!.at - sent[0]!.at).toBeGreaterThanOrEqual(4_500);

    // Replay: the same delivery again, same webhook-id, a fourth attempt marked as a replay.
    const replay = await v1('POST', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${afterFirst.id}/replay`);
    expect(replay.statusCode, replay.body).toBe(202);
    expect(WebhookReplayResponse.parse(json(replay))).toMatchObject({
      deliveryId: afterFirst.id,
      webhookId: list[0]!.webhookId,
      status: 'pending',
    });
    await eventually(async () => expect(await attempts(endpoint.id)).toHaveLength(4), 10_000, 50);
    const replayed = (await attempts(endpoint.id, `?deliveryId=${afterFirst.id}&limit=1`))[0]!;
    expect(replayed).toMatchObject({ attempt: 4, replay: true, succeeded: true, webhookId: list[0]!.webhookId });
    expect(at('/flaky').at(-1)!.headers['webhook-id']).toBe(list[0]!.webhookId);
    // Paging walks every attempt once.
    const page1 = WebhookDeliveryAttemptPage.parse(
      json(await v1('GET', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=3`)),
    );
    const page2 = WebhookDeliveryAttemptPage.parse(
      json(await v1('GET', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=3&cursor=${page1.nextCursor}`)),
    );
    expect([...page1.data, ...page2.data].map((a) => a.attempt)).toEqual([4, 3, 2, 1]);
    expect(page2.nextCursor).toBeNull();
    expect(
      (
        await v1(
          'POST',
          `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/00000000-0000-4000-8000-000000000000/replay`,
        )
      ).statusCode,
    ).toBe(404);
    expect((await v1('GET', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries?cursor=bogus`)).statusCode).toBe(400);
  }, 60_000);

  it("checks permissions: 403 without webhook:create or webhook:read, 404 for another store's endpoint, 401 without a token", async () => {
    const endpoint = await createEndpoint('/perm');
    const owner = await h.login('acmeOwner');
    const readOnly = await newToken(owner, acme, ['webhook:read']);
    const createOnly = await newToken(owner, acme, ['webhook:create']);
    const denied = await v1('POST', '/api/v1/webhook-endpoints', { url: `${base}/nope` }, readOnly);
    expect(denied.statusCode).toBe(403);
    expect(json(denied)).toMatchObject({ error: 'forbidden' });
    expect(
      (await v1('GET', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries`, undefined, createOnly)).statusCode,
    ).toBe(403);
    expect((await v1('GET', '/api/v1/webhook-endpoints', undefined, createOnly)).statusCode).toBe(403);
    expect((await v1('DELETE', `/api/v1/webhook-endpoints/${endpoint.id}`, undefined, readOnly)).statusCode).toBe(403);
    expect(
      (await v1('GET', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries`, undefined, readOnly)).statusCode,
    ).toBe(200);
    for (const [method, url] of [
      ['GET', `/api/v1/webhook-endpoints/${endpoint.id}`],
      ['GET', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries`],
      ['DELETE', `/api/v1/webhook-endpoints/${endpoint.id}`],
      ['POST', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/00000000-0000-4000-8000-000000000000/replay`],
    ] as const) {
      const response = await v1(method, url, undefined, kumoToken);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(
      WebhookEndpointList.parse(json(await v1('GET', '/api/v1/webhook-endpoints', undefined, kumoToken))).data.every(
        (e) => e.storeId === kumo,
      ),
    ).toBe(true);
    expect(
      (await h.call({ method: 'POST', url: '/api/v1/webhook-endpoints', body: { url: `${base}/x` } })).statusCode,
    ).toBe(401);
    expect((await h.call({ method: 'GET', url: '/api/v1/webhook-endpoints', cookie: owner })).statusCode).toBe(401);
  });

  it('stops delivering to a deleted endpoint', async () => {
    const endpoint = await createEndpoint('/deleted');
    expect((await v1('DELETE', `/api/v1/webhook-endpoints/${endpoint.id}`)).statusCode).toBe(204);
    expect((await v1('DELETE', `/api/v1/webhook-endpoints/${endpoint.id}`)).statusCode).toBe(404);
    expect((await v1('GET', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries`)).statusCode).toBe(404);
    expect(
      WebhookEndpointList.parse(json(await v1('GET', '/api/v1/webhook-endpoints'))).data.map((e) => e.id),
    ).not.toContain(endpoint.id);
    const filed = await fileAcmeClaim();
    await eventually(
      async () => expect(at('/all').map((r) => payloadOf(r).data.claimId)).toContain(filed.claimId),
      10_000,
      50,
    );
    await h.runtime.settle();
    expect(at('/deleted')).toHaveLength(0);
  });

  it('is crash-safe: a rebuild of the outbox adds nothing, and a claim whose worker died is sent again after its lease', async () => {
    const db = h.runtime.ctx.database.db;
    await h.runtime.settle();
    const count = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from webhook_deliveries`.execute(db)).rows[0]!.n;
    const before = await count();
    expect(before).toBeGreaterThan(0);
    await rebuild(db, webhookOutboxProjection);
    expect(await count()).toBe(before);

    // A delivery made due in an hour; a worker (clock one hour ahead) claims it and dies before sending.
    const { rows } = await sql<{ id: string; webhook_id: string }>`
      update webhook_deliveries set status = 'pending', next_attempt_at = now() + interval '1 hour'
      where id = (select d.id from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
                  where e.url = ${`${base}/all`} order by d.created_at limit 1)
      returning id, webhook_id`.execute(db);
    const target = rows[0]!;
    const later = Date.now() + HOUR + 5 * SECOND;
    const lease = 60 * SECOND;
    const claimed = (await claimDueDeliveries(db, new Date(later), 100, lease)).find((d) => d.id === target.id);
    expect(claimed).toMatchObject({ webhookId: target.webhook_id });
    // While the lease runs, nobody else takes it; after it, it is due again with the same webhook-id.
    expect((await claimDueDeliveries(db, new Date(later + lease - SECOND), 100, lease)).map((d) => d.id)).not.toContain(
      target.id,
    );
    const reclaimed = (await claimDueDeliveries(db, new Date(later + lease + SECOND), 100, lease)).find(
      (d) => d.id === target.id,
    );
    expect(reclaimed).toMatchObject({ webhookId: target.webhook_id });
    // The first worker, had it come back, records its attempt but no longer decides what comes next.
    await recordAttempt(
      h.runtime.ctx,
      claimed!,
      { statusCode: 500, error: 'late', succeeded: false, durationMs: 1, retryAfterMs: null, responseExcerpt: null },
      new Date(later + lease + 2 * SECOND),
    );
    await recordAttempt(
      h.runtime.ctx,
      reclaimed!,
      { statusCode: 200, error: null, succeeded: true, durationMs: 1, retryAfterMs: null, responseExcerpt: null },
      new Date(later + lease + 3 * SECOND),
    );
    const { rows: after } = await sql<{
      status: string;
    }>`select status from webhook_deliveries where id = ${target.id}::uuid`.execute(db);
    expect(after[0]!.status).toBe('succeeded');
  });

  it('signed every delivery any receiver got so that the standardwebhooks package accepts it', () => {
    expect(received.length).toBeGreaterThan(20);
    expect(received.filter((r) => !r.verified).map((r) => `${r.path} ${String(r.headers['webhook-id'])}`)).toEqual([]);
  });

  it('documents the endpoints in the OpenAPI document', async () => {
    const doc = json<{ paths: Record<string, unknown> }>(await h.call({ method: 'GET', url: '/api/openapi.json' }));
    // Every type an endpoint may subscribe to, the partial decision's too.
    expect(JSON.stringify(doc.paths['/api/v1/webhook-endpoints'])).toContain('"claim.items_resolved"');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/webhook-endpoints',
        '/api/v1/webhook-endpoints/{endpointId}',
        '/api/v1/webhook-endpoints/{endpointId}/deliveries',
        '/api/v1/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/replay',
        '/api/v1/webhook-endpoints/{endpointId}/replays',
        '/api/v1/webhook-endpoints/{endpointId}/test',
      ]),
    );
  });
});

/**
 * New deliveries wake the delivery worker (the outbox projection's notification at its commit): with a poll of an
 * hour, a filing's webhook still arrives, whether the worker runs beside the projector or in a process of its own.
 */
describe('webhook delivery woken by new deliveries', () => {
  const HOURLY = { WEBHOOK_POLL_MS: String(HOUR), WEBHOOK_ALLOW_PRIVATE_URLS: 'true' };
  let h: Harness;
  let deliveryProcess: Runtime | null = null;
  const receiver = new StandardWebhookReceiver();
  let orderSeq = 8900;
  let receiverUrl: string;

  beforeAll(async () => {
    receiverUrl = await receiver.start();
  });
  afterAll(async () => {
    await deliveryProcess?.stop();
    await h?.stop();
    await receiver.stop();
  });

  /** Files a claim on a fresh acme order; answers its id. */
  async function fileClaim(token: string): Promise<string> {
    const number = String(orderSeq++);
    const put = await h.call({ method: 'PUT', url: `/api/v1/orders/wk-${number}`, body: orderBody(number), token });
    expect(put.statusCode, put.body).toBe(201);
    return (
      await h.fileClaim(
        `wk-${number}`,
        oneItemClaim(`buyer-${number}@example.com`, `${number}-f`, `${number}-li-0`, 'REFUND'),
      )
    ).claimId;
  }

  async function endpointToken(): Promise<string> {
    const acme = await h.storeId('acme');
    const created = await h.call({
      method: 'POST',
      url: `/api/stores/${acme}/api-tokens`,
      cookie: await h.login('acmeOwner'),
      body: { name: 'wake-up', permissions: ['webhook:create', 'order:create'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const token = CreateApiTokenResponse.parse(json(created)).token;
    const endpoint = await h.call({
      method: 'POST',
      url: '/api/v1/webhook-endpoints',
      token,
      body: { url: receiverUrl, eventTypes: ['claim.filed'] },
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    receiver.secrets.push(CreateWebhookEndpointResponse.parse(json(endpoint)).secret);
    return token;
  }

  const arrived = (claimId: string) =>
    eventually(
      async () => {
        expect(receiver.deliveries.filter((d) => d.verified).map((d) => d.payload.data.claimId)).toContain(claimId);
      },
      15_000,
      50,
    );

  it('delivers at once from the process that projects the outbox', async () => {
    h = await startHarness(HOURLY);
    const token = await endpointToken();
    await arrived(await fileClaim(token));
  });

  it('delivers at once from a delivery process of its own, the projector in another', async () => {
    await h.stop();
    h = await startHarness({ ...HOURLY, WORKERS: 'relay,projectors,reactions,timers' });
    const config = h.runtime.ctx.config;
    deliveryProcess = await startRuntime(
      loadConfig({
        ...process.env,
        ...HOURLY,
        DATABASE_URL: config.databaseUrl,
        KAFKA_BROKERS: '',
        DATA_DIR: config.dataDir,
        SEED_DEMO: 'false',
        WORKERS: 'delivery',
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      }),
      { listen: false },
    );
    const token = await endpointToken();
    await arrived(await fileClaim(token));
  });

  it('sends a test delivery, a replay and what a paused endpoint was owed at once, from the delivery process', async () => {
    // A receiver of its own: the endpoints of the tests above also get every filing.
    const own = new StandardWebhookReceiver();
    const acme = await h.storeId('acme');
    const created = await h.call({
      method: 'POST',
      url: `/api/stores/${acme}/api-tokens`,
      cookie: await h.login('acmeOwner'),
      body: { name: 'asked-for', permissions: ['webhook:create', 'webhook:update', 'order:create'] },
    });
    const token = CreateApiTokenResponse.parse(json(created)).token;
    const endpoint = CreateWebhookEndpointResponse.parse(
      json(
        await h.call({
          method: 'POST',
          url: '/api/v1/webhook-endpoints',
          token,
          body: { url: await own.start(), eventTypes: ['claim.filed'] },
        }),
      ),
    );
    own.secrets.push(endpoint.secret);
    const received = (webhookId: string) =>
      own.deliveries.filter((d) => d.verified && d.webhookId === webhookId).length;
    const endpointUrl = `/api/v1/webhook-endpoints/${endpoint.id}`;
    try {
      const test = WebhookTestResponse.parse(json(await h.call({ method: 'POST', url: `${endpointUrl}/test`, token })));
      await eventually(async () => expect(received(test.webhookId)).toBe(1), 15_000, 50);

      const replay = await h.call({
        method: 'POST',
        url: `${endpointUrl}/deliveries/${test.deliveryId}/replay`,
        token,
      });
      expect(replay.statusCode, replay.body).toBe(202);
      await eventually(async () => expect(received(test.webhookId)).toBe(2), 15_000, 50);

      expect(
        (await h.call({ method: 'PATCH', url: endpointUrl, token, body: { status: 'disabled' } })).statusCode,
      ).toBe(200);
      const owed = await fileClaim(token);
      await h.runtime.settle();
      const owedArrived = () => own.deliveries.some((d) => d.verified && d.payload.data.claimId === owed);
      expect(owedArrived()).toBe(false);
      expect((await h.call({ method: 'PATCH', url: endpointUrl, token, body: { status: 'enabled' } })).statusCode).toBe(
        200,
      );
      await eventually(async () => expect(owedArrived()).toBe(true), 15_000, 50);
    } finally {
      await own.stop();
    }
  });
});
