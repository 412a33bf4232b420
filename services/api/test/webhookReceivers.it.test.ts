import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateApiTokenResponse,
  CreateWebhookEndpointResponse,
  WebhookDeliveryAttemptPage,
  WebhookEndpoint,
} from '@claims/contracts';
import { json, oneItemClaim, startHarness, type Harness } from './support/backofficeHarness.js';
import { eventually } from '../../../test/support/testDatabase.js';
import { orderBody } from '../../../test/support/orderBody.js';
import { StandardWebhookReceiver } from '../../../test/support/standardWebhookReceiver.js';

/**
 * Receivers written as integrators write them (the `standardwebhooks` package verifies every delivery),
 * misbehaving the ways real ones do: hanging until the timeout beside a healthy one, going away and
 * coming back, failing for days. The 500, 429 and 410 answers are in webhooks.it.test.ts.
 */
describe('webhook receivers that hang, go away or keep failing', () => {
  let h: Harness;
  let acme: string;
  let token: string;
  let orderSeq = 8600;
  const receivers: StandardWebhookReceiver[] = [];

  const v1 = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    h.call({ method, url, body, token });

  /** A receiver with an endpoint for claim.filed (whose secret it verifies with). */
  async function receiverWithEndpoint(receiver: StandardWebhookReceiver) {
    receivers.push(receiver);
    const response = await v1('POST', '/api/v1/webhook-endpoints', {
      url: await receiver.start(),
      eventTypes: ['claim.filed'],
    });
    expect(response.statusCode, response.body).toBe(201);
    const endpoint = CreateWebhookEndpointResponse.parse(json(response));
    receiver.secrets.push(endpoint.secret);
    return endpoint;
  }

  async function fileClaim() {
    const number = String(orderSeq++);
    const put = await v1('PUT', `/api/v1/orders/rc-${number}`, orderBody(number));
    expect(put.statusCode, put.body).toBe(201);
    return h.fileClaim(
      `rc-${number}`,
      oneItemClaim(`buyer-${number}@example.com`, `${number}-f`, `${number}-li-0`, 'REFUND'),
    );
  }

  const attempts = async (endpointId: string) => {
    const response = await v1('GET', `/api/v1/webhook-endpoints/${endpointId}/deliveries?limit=200`);
    expect(response.statusCode, response.body).toBe(200);
    return WebhookDeliveryAttemptPage.parse(json(response)).data;
  };
  const endpointNow = async (endpointId: string) =>
    WebhookEndpoint.parse(json(await v1('GET', `/api/v1/webhook-endpoints/${endpointId}`)));
  const filedClaimIds = (receiver: StandardWebhookReceiver) =>
    receiver.deliveries.filter((d) => d.payload.type === 'claim.filed').map((d) => String(d.payload.data.claimId));

  beforeAll(async () => {
    // The backlog below is made of test deliveries: more than one endpoint's limit of them a minute.
    h = await startHarness({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TESTS_PER_MINUTE: '100' });
    acme = await h.storeId('acme');
    const created = await h.call({
      method: 'POST',
      url: `/api/stores/${acme}/api-tokens`,
      cookie: await h.login('acmeOwner'),
      body: {
        name: 'receivers',
        permissions: ['webhook:create', 'webhook:read', 'webhook:update', 'webhook:delete', 'order:create'],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    token = CreateApiTokenResponse.parse(json(created)).token;
  });
  afterAll(async () => {
    await h?.stop();
    await Promise.all(receivers.map((r) => r.stop()));
  });

  it('keeps delivering to a receiver that answers at once while another hangs until the timeout, which holds few senders', async () => {
    const limit = h.runtime.ctx.config.webhookMaxInFlightPerEndpoint;
    const hanging = new StandardWebhookReceiver(() => 'hang');
    const fast = new StandardWebhookReceiver();
    const dead = await receiverWithEndpoint(hanging);
    const healthy = await receiverWithEndpoint(fast);
    // A backlog owed to the hanging receiver, larger than everything the worker sends at once.
    for (let i = 0; i < 40; i++)
      expect((await v1('POST', `/api/v1/webhook-endpoints/${dead.id}/test`)).statusCode).toBe(202);
    await eventually(async () => expect(hanging.open).toBe(limit), 10_000, 50);

    const filed = await fileClaim();
    const arrived = await eventually(
      async () => {
        const found = fast.deliveries.find((d) => d.payload.data.claimId === filed.claimId);
        expect(found).toBeDefined();
        return found!;
      },
      9_000,
      50,
    );
    // It arrived while the first attempts to the hanging receiver were still open, none of them answered yet.
    expect(hanging.open).toBe(limit);
    expect(hanging.deliveries.filter((d) => d.payload.type === 'claim.filed')).toHaveLength(0);
    expect(arrived.verified).toBe(true);
    expect(hanging.maxOpen).toBe(limit);

    // The hanging attempts end at the timeout: recorded as such, and retried with the same webhook-id.
    const timedOut = await eventually(
      async () => {
        const found = (await attempts(dead.id)).filter((a) => a.error?.startsWith('no answer within'));
        expect(found.length).toBeGreaterThanOrEqual(limit);
        return found;
      },
      20_000,
      100,
    );
    expect(timedOut.every((a) => a.statusCode === null && !a.succeeded && a.responseExcerpt === null)).toBe(true);
    expect(hanging.maxOpen).toBe(limit);
    expect(hanging.deliveries.every((d) => d.verified)).toBe(true);
    expect((await attempts(healthy.id)).map((a) => [a.statusCode, a.succeeded])).toEqual([[204, true]]);
    // Deleting the endpoint cancels its backlog, so the test leaves no hanging work behind.
    expect((await v1('DELETE', `/api/v1/webhook-endpoints/${dead.id}`)).statusCode).toBe(204);
    await hanging.stop();
  }, 60_000);

  it('delivers every event once per webhook-id to a receiver that went away, missed events and came back', async () => {
    const receiver = new StandardWebhookReceiver(() => ({ status: 200, body: 'stored' }));
    const endpoint = await receiverWithEndpoint(receiver);
    const before = await fileClaim();
    await eventually(async () => expect(filedClaimIds(receiver)).toContain(before.claimId), 10_000, 50);

    await receiver.stop();
    const missed = [await fileClaim(), await fileClaim(), await fileClaim()];
    // Each was tried while nobody listened: refused connections, recorded and due again.
    await eventually(
      async () => {
        const refused = (await attempts(endpoint.id)).filter((a) => a.error?.includes('ECONNREFUSED'));
        expect(refused.length).toBeGreaterThanOrEqual(missed.length);
        expect(refused.every((a) => a.deliveryStatus === 'pending' && a.nextAttemptAt !== null)).toBe(true);
      },
      10_000,
      50,
    );

    await receiver.start();
    await eventually(
      async () => {
        expect(new Set(filedClaimIds(receiver))).toEqual(new Set([before.claimId, ...missed.map((c) => c.claimId)]));
      },
      20_000,
      100,
    );
    await h.runtime.settle();
    expect([...receiver.counts().values()]).toEqual([1, 1, 1, 1]);
    expect(receiver.deliveries.every((d) => d.verified)).toBe(true);
    const log = await attempts(endpoint.id);
    expect(log.filter((a) => a.succeeded).map((a) => a.responseExcerpt)).toEqual([
      'stored',
      'stored',
      'stored',
      'stored',
    ]);
    expect(new Set(log.map((a) => a.webhookId))).toEqual(new Set(receiver.counts().keys()));
    expect(await endpointNow(endpoint.id)).toMatchObject({ status: 'enabled' });
  }, 60_000);

  it('turns off an endpoint whose every attempt failed for the window, records it, and resumes it cleanly', async () => {
    const config = h.runtime.ctx.config;
    const threeDays = config.webhookDisableAfterFailingMs;
    expect(threeDays).toBe(3 * 86_400_000);
    config.webhookDisableAfterFailingMs = 3_000;
    try {
      const receiver = new StandardWebhookReceiver(() => ({ status: 500, body: 'database down' }));
      const endpoint = await receiverWithEndpoint(receiver);
      const filed = await fileClaim();
      // Attempt 1 fails and starts the run; the retry 5 s later fails past the 3 s window: off.
      const off = await eventually(
        async () => {
          const now = await endpointNow(endpoint.id);
          expect(now.status).toBe('disabled');
          return now;
        },
        20_000,
        100,
      );
      expect(off.disabledReason).toBe(
        'Every delivery attempt failed for 3 seconds, so the endpoint was turned off; fix the receiver, then resume it: what it missed is sent then.',
      );
      const log = await attempts(endpoint.id);
      expect(log.map((a) => [a.statusCode, a.responseExcerpt])).toEqual([
        [500, 'database down'],
        [500, 'database down'],
      ]);
      const { rows } = await sql<{ stream_id: string; data: Record<string, unknown>; actor: string }>`
        select stream_id, data, metadata -> 'actor' ->> 'type' as actor from events
        where type = 'WebhookEndpointDisabled' and data ->> 'endpointId' = ${endpoint.id}`.execute(
        h.runtime.ctx.database.db,
      );
      expect(rows).toEqual([
        {
          stream_id: `store-webhooks:${acme}`,
          actor: 'system',
          data: expect.objectContaining({
            storeId: acme,
            reason: 'persistent_failure',
            url: endpoint.url,
            failingSince: expect.any(String),
            message: off.disabledReason,
          }),
        },
      ]);

      // Fixed and resumed: what it was owed arrives, and a new run of failures would start from scratch.
      receiver.answerWith(() => ({ status: 204 }));
      const resumed = await v1('PATCH', `/api/v1/webhook-endpoints/${endpoint.id}`, { status: 'enabled' });
      expect(json(resumed)).toMatchObject({ status: 'enabled', disabledReason: null });
      await eventually(
        async () => expect(filedClaimIds(receiver).filter((id) => id === filed.claimId).length).toBe(3),
        20_000,
        100,
      );
      expect(await endpointNow(endpoint.id)).toMatchObject({ status: 'enabled' });
      expect(receiver.deliveries.every((d) => d.verified)).toBe(true);
    } finally {
      config.webhookDisableAfterFailingMs = threeDays;
    }
  }, 60_000);
});
