import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateApiTokenResponse,
  CreateWebhookEndpointResponse,
  ReplayWebhookRangeResponse,
  RotateWebhookSecretResponse,
  WebhookDeliveryAttemptPage,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookTestResponse,
} from '@claims/contracts';
import { EVIL_ORIGIN, json, startHarness, type Harness } from './support/backofficeHarness.js';
import { eventually } from '../../../test/support/testDatabase.js';
import { StandardWebhookReceiver } from '../../../test/support/standardWebhookReceiver.js';

/** The back-office's webhook routes: the v1 operations on a signed-in user's store, with the role table and tenancy enforced. */
describe('webhooks in the back-office', () => {
  let h: Harness;
  let acme: string;
  let kumo: string;
  let owner: string;
  const receiver = new StandardWebhookReceiver((delivery) => ({
    status: 200,
    body: `thanks for ${delivery.webhookId}`,
  }));
  let url: string;

  const admin = (path = '') => `/api/admin/stores/${acme}/webhook-endpoints${path}`;
  const as = (cookie: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) =>
    h.call({ method, url: path, cookie, body });
  const log = async (endpointId: string) =>
    WebhookDeliveryAttemptPage.parse(json(await as(owner, 'GET', admin(`/${endpointId}/deliveries`)))).data;

  beforeAll(async () => {
    h = await startHarness({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    acme = await h.storeId('acme');
    kumo = await h.storeId('kumo');
    owner = await h.login('acmeOwner');
    url = await receiver.start();
  });
  afterAll(async () => {
    await h?.stop();
    await receiver.stop();
  });

  it('adds an endpoint with a description, shows its secret once, and the public API sees the same endpoint', async () => {
    const created = await as(owner, 'POST', admin(), {
      url,
      eventTypes: ['claim.filed', 'claim.resolved'],
      description: '  Order sync  ',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const endpoint = CreateWebhookEndpointResponse.parse(json(created));
    expect(endpoint).toMatchObject({
      storeId: acme,
      url,
      description: 'Order sync',
      status: 'enabled',
      eventTypes: ['claim.filed', 'claim.resolved'],
    });
    receiver.secrets.push(endpoint.secret);

    const list = await as(owner, 'GET', admin());
    expect(WebhookEndpointList.parse(json(list)).data.map((e) => e.id)).toEqual([endpoint.id]);
    expect(list.body).not.toContain(endpoint.secret);
    const one = await as(owner, 'GET', admin(`/${endpoint.id}`));
    expect(one.body).not.toContain(endpoint.secret);

    const token = CreateApiTokenResponse.parse(
      json(await as(owner, 'POST', `/api/stores/${acme}/api-tokens`, { name: 'read', permissions: ['webhook:read'] })),
    ).token;
    const viaV1 = await h.call({ method: 'GET', url: `/api/v1/webhook-endpoints/${endpoint.id}`, token });
    expect(WebhookEndpoint.parse(json(viaV1))).toEqual(WebhookEndpoint.parse(json(one)));
  });

  it('sends a test event, pauses, resumes, rotates the secret, replays one delivery or a time range, and deletes', async () => {
    const endpoint = CreateWebhookEndpointResponse.parse(json(await as(owner, 'POST', admin(), { url })));
    receiver.secrets.push(endpoint.secret);
    const started = new Date().toISOString();

    const test = await as(owner, 'POST', admin(`/${endpoint.id}/test`));
    expect(test.statusCode, test.body).toBe(202);
    const { deliveryId, webhookId } = WebhookTestResponse.parse(json(test));
    await eventually(
      async () => expect((await log(endpoint.id)).map((a) => a.deliveryId)).toContain(deliveryId),
      10_000,
      50,
    );
    const [attempt] = await log(endpoint.id);
    expect(attempt).toMatchObject({
      webhookId,
      eventType: 'webhook.test',
      statusCode: 200,
      succeeded: true,
      deliveryStatus: 'succeeded',
      nextAttemptAt: null,
      responseExcerpt: `thanks for ${webhookId}`,
    });
    expect(receiver.deliveries.find((d) => d.webhookId === webhookId)).toMatchObject({
      verified: true,
      payload: { type: 'webhook.test', data: { endpointId: endpoint.id, storeId: acme } },
    });

    // Paused: a test delivery waits, and is sent once resumed.
    const paused = WebhookEndpoint.parse(
      json(await as(owner, 'PATCH', admin(`/${endpoint.id}`), { status: 'disabled' })),
    );
    expect(paused).toMatchObject({
      status: 'disabled',
      disabledReason: expect.stringContaining('Paused in the back-office by'),
    });
    const waiting = WebhookTestResponse.parse(json(await as(owner, 'POST', admin(`/${endpoint.id}/test`))));
    await h.runtime.settle();
    expect(receiver.counts().has(waiting.webhookId)).toBe(false);
    expect(
      WebhookEndpoint.parse(json(await as(owner, 'PATCH', admin(`/${endpoint.id}`), { status: 'enabled' }))),
    ).toMatchObject({ status: 'enabled', disabledReason: null });
    await eventually(async () => expect(receiver.counts().get(waiting.webhookId)).toBe(1), 10_000, 50);

    const rotated = await as(owner, 'POST', admin(`/${endpoint.id}/rotate-secret`), { overlapSeconds: 60 });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { secret } = RotateWebhookSecretResponse.parse(json(rotated));
    receiver.secrets.splice(0, receiver.secrets.length, secret);

    const replay = await as(owner, 'POST', admin(`/${endpoint.id}/deliveries/${deliveryId}/replay`));
    expect(replay.statusCode, replay.body).toBe(202);
    await eventually(
      async () => expect((await log(endpoint.id)).filter((a) => a.replay).map((a) => a.webhookId)).toEqual([webhookId]),
      10_000,
      50,
    );
    expect(receiver.counts().get(webhookId)).toBe(2);
    const range = await as(owner, 'POST', admin(`/${endpoint.id}/replays`), {
      from: started,
      to: new Date(Date.now() + 1000).toISOString(),
    });
    expect(ReplayWebhookRangeResponse.parse(json(range))).toEqual({ replayed: 2 });
    await eventually(
      async () => expect([receiver.counts().get(webhookId), receiver.counts().get(waiting.webhookId)]).toEqual([3, 2]),
      10_000,
      50,
    );
    // The receiver answers before the attempt is recorded.
    await eventually(async () => expect((await log(endpoint.id)).filter((a) => a.replay)).toHaveLength(3), 10_000, 50);
    // Signed with the new secret (and the old one, within the overlap): the receiver knows only the new one now.
    expect(receiver.deliveries.every((d) => d.verified)).toBe(true);
    expect((await as(owner, 'POST', admin(`/${endpoint.id}/replays`), { from: started, to: started })).statusCode).toBe(
      400,
    );

    expect((await as(owner, 'DELETE', admin(`/${endpoint.id}`))).statusCode).toBe(204);
    expect((await as(owner, 'GET', admin(`/${endpoint.id}`))).statusCode).toBe(404);
    expect((await as(owner, 'DELETE', admin(`/${endpoint.id}`))).statusCode).toBe(404);
  });

  it("follows the role table, answers 404 for another tenant's store or endpoint, and refuses foreign origins", async () => {
    const endpoint = CreateWebhookEndpointResponse.parse(json(await as(owner, 'POST', admin(), { url })));
    receiver.secrets.push(endpoint.secret);
    const agent = await h.login('acmeAgent');
    const viewer = await h.login('acmeViewer');
    for (const cookie of [agent, viewer]) {
      expect((await as(cookie, 'GET', admin())).statusCode).toBe(403);
      expect((await as(cookie, 'POST', admin(), { url })).statusCode).toBe(403);
      expect((await as(cookie, 'POST', admin(`/${endpoint.id}/test`))).statusCode).toBe(403);
    }
    const kumoOwner = await h.login('kumoOwner');
    for (const [method, path] of [
      ['GET', admin()],
      ['GET', admin(`/${endpoint.id}`)],
      ['GET', admin(`/${endpoint.id}/deliveries`)],
      ['POST', admin(`/${endpoint.id}/test`)],
      ['DELETE', admin(`/${endpoint.id}`)],
      ['GET', `/api/admin/stores/${kumo}/webhook-endpoints/${endpoint.id}`],
      ['POST', `/api/admin/stores/${kumo}/webhook-endpoints/${endpoint.id}/rotate-secret`],
    ] as const) {
      const response = await as(
        kumoOwner,
        method,
        path,
        method === 'POST' && path.endsWith('rotate-secret') ? {} : undefined,
      );
      expect(response.statusCode, `${method} ${path}: ${response.body}`).toBe(404);
    }
    // Order Protection's admin reaches every store.
    expect((await as(await h.login('admin'), 'GET', admin(`/${endpoint.id}`))).statusCode).toBe(200);
    expect((await h.call({ method: 'GET', url: admin() })).statusCode).toBe(401);
    expect(
      (await h.call({ method: 'POST', url: admin(`/${endpoint.id}/test`), cookie: owner, origin: EVIL_ORIGIN }))
        .statusCode,
    ).toBe(403);
    expect((await as(owner, 'POST', admin(), { url: 'ftp://example.com/x' })).statusCode).toBe(400);
  });
});
