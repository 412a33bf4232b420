import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateApiTokenResponse,
  CreateWebhookEndpointResponse,
  CustomerOrder,
  Message,
  UPLOAD_QUOTA,
  UploadUrlResponse,
} from '@claims/contracts';
import { json, oneItemClaim, startHarness, type Harness } from './support/backofficeHarness.js';
import { PNG, putUpload } from './support/uploads.js';

/** What an outsider or a merchant could send too much of, or point elsewhere: webhook sends, attachment links, the upload quota. */

let h: Harness;
let acme: string;
let owner: string;
beforeAll(async () => {
  // The per-IP upload limit off: the quota itself is under test.
  h = await startHarness({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', RATE_LIMIT_UPLOAD_PER_IP: '0' });
  acme = await h.storeId('acme');
  owner = await h.login('acmeOwner');
});
afterAll(() => h?.stop());

describe('sends on request to a webhook endpoint', () => {
  const admin = (path = '') => `/api/admin/stores/${acme}/webhook-endpoints${path}`;
  const endpoint = async () =>
    CreateWebhookEndpointResponse.parse(
      json(await h.call({ method: 'POST', url: admin(), cookie: owner, body: { url: 'http://127.0.0.1:9/hook' } })),
    );

  it("stops a loop of test sends at the endpoint's limit, counted over the API and the back-office together", async () => {
    const flooded = await endpoint();
    const other = await endpoint();
    const token = CreateApiTokenResponse.parse(
      json(
        await h.call({
          method: 'POST',
          url: `/api/stores/${acme}/api-tokens`,
          cookie: owner,
          body: { name: 'hooks', permissions: ['webhook:update'] },
        }),
      ),
    ).token;
    const max = h.runtime.ctx.config.webhookSendLimits.testsPerMinute;
    expect(max).toBe(10);
    const statuses: number[] = [];
    for (let i = 0; i < max; i++)
      statuses.push(
        (await h.call({ method: 'POST', url: `/api/v1/webhook-endpoints/${flooded.id}/test`, token })).statusCode,
      );
    expect(statuses).toEqual(Array(max).fill(202));
    const refused = await h.call({ method: 'POST', url: admin(`/${flooded.id}/test`), cookie: owner });
    expect(refused.statusCode).toBe(429);
    expect(json(refused)).toMatchObject({ error: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(
      (await h.call({ method: 'POST', url: `/api/v1/webhook-endpoints/${flooded.id}/test`, token })).statusCode,
    ).toBe(429);
    // Another endpoint of the same store is not held back.
    expect((await h.call({ method: 'POST', url: admin(`/${other.id}/test`), cookie: owner })).statusCode).toBe(202);
  });

  it("stops a loop of range replays at the endpoint's limit", async () => {
    const flooded = await endpoint();
    const range = { from: new Date(Date.now() - 86_400_000).toISOString(), to: new Date().toISOString() };
    const max = h.runtime.ctx.config.webhookSendLimits.rangeReplaysPerHour;
    expect(max).toBe(10);
    const statuses: number[] = [];
    for (let i = 0; i <= max; i++)
      statuses.push(
        (await h.call({ method: 'POST', url: admin(`/${flooded.id}/replays`), cookie: owner, body: range })).statusCode,
      );
    expect(statuses).toEqual([...Array(max).fill(202), 429]);
  });
});

describe('message attachments', () => {
  let claim: { claimId: string; token: string };
  let agent: string;
  beforeAll(async () => {
    claim = await h.fileClaim('acme-5008', oneItemClaim('hugo@example.com', 'f-1008-1', 'li-12'));
    agent = await h.login('acmeAgent');
  });

  const uploaded = async (proof: Record<string, string>): Promise<UploadUrlResponse> => {
    const signed = UploadUrlResponse.parse(
      json(
        await h.call({
          method: 'POST',
          url: '/api/media/upload-url',
          body: { filename: 'box.png', contentType: 'image/png', mediaType: 'CLAIM', ...proof },
        }),
      ),
    );
    expect((await putUpload(h.runtime, signed, PNG)).statusCode).toBe(201);
    return signed;
  };
  const attach = (downloadLink: string, fileKey: string) => ({
    downloadLink,
    fileKey,
    fileType: 'image/png',
    filename: 'box.png',
  });
  const shopperSends = (medias: unknown[]) =>
    h.call({
      method: 'POST',
      url: `/api/claims/${claim.token}/messages`,
      body: { messageContent: 'See the box.', medias },
    });
  const messages = async () =>
    Message.array().parse(json(await h.call({ method: 'GET', url: `/api/claims/${claim.token}/messages` })));

  it('refuses links to anything but a file uploaded to this claim, and records nothing', async () => {
    const mine = await uploaded({ claimToken: claim.token });
    const other = await h.fileClaim('acme-5001', oneItemClaim('ava@example.com', 'f-1001-1', 'li-1'));
    const theirs = await uploaded({ claimToken: other.token });
    const before = (await messages()).length;
    for (const media of [
      attach('https://evil.example/box.png', mine.fileName),
      attach(`https://evil.example/api/media/files/${mine.fileName}`, mine.fileName),
      attach('javascript:alert(1)', mine.fileName),
      attach(`/api/media/files/${crypto.randomUUID()}.png`, 'x.png'),
      attach(theirs.downloadLink, theirs.fileName),
    ]) {
      const refused = await shopperSends([media]);
      expect(refused.statusCode, media.downloadLink).toBe(400);
      expect(json(refused)).toMatchObject({ error: 'validation_failed' });
    }
    const agentRefused = await h.call({
      method: 'POST',
      url: `/api/admin/claims/${claim.claimId}/messages`,
      cookie: agent,
      body: { messageContent: 'Label', medias: [attach('https://evil.example/label.png', mine.fileName)] },
    });
    expect(agentRefused.statusCode).toBe(400);
    expect(await messages()).toHaveLength(before);

    const sent = await shopperSends([attach(mine.downloadLink, mine.fileName)]);
    expect(sent.statusCode, sent.body).toBe(201);
    expect(await messages()).toHaveLength(before + 1);
  });
});

describe("a claim's photos", () => {
  it('must be files uploaded for the order being claimed: anything else is 400 and files no claim', async () => {
    const lookup = async (email: string, order: string) =>
      CustomerOrder.parse(json(await h.call({ method: 'GET', url: `/api/order-lookup?email=${email}&order=${order}` })))
        .systemOrderId;
    const upload = async (orderId: string, email: string) => {
      const signed = UploadUrlResponse.parse(
        json(
          await h.call({
            method: 'POST',
            url: '/api/media/upload-url',
            body: { filename: 'torn.png', contentType: 'image/png', mediaType: 'CLAIM', orderId, email },
          }),
        ),
      );
      expect((await putUpload(h.runtime, signed, PNG)).statusCode).toBe(201);
      return signed.publicUrl;
    };
    const own = await upload(await lookup('ben@example.com', '1002'), 'ben@example.com');
    const otherOrders = await upload(await lookup('ava@example.com', '1001'), 'ava@example.com');
    const withPhoto = (url: string) => {
      const body = oneItemClaim('ben@example.com', 'f-1002-1', 'li-4');
      body.fulfillmentIssues[0]!.issues[0]!.images = [{ url }];
      return body;
    };
    const claims = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from streams`.execute(h.runtime.ctx.database.db)).rows[0]!.n;
    const before = await claims();
    for (const url of [
      'https://evil.example/torn.png',
      'javascript:alert(1)',
      `/api/media/files/${crypto.randomUUID()}.png`,
      otherOrders,
    ]) {
      const refused = await h.call({ method: 'POST', url: '/api/claims/acme-5002', body: withPhoto(url) });
      expect(refused.statusCode, url).toBe(400);
      expect(json(refused)).toMatchObject({ error: 'validation_failed' });
    }
    expect(await claims()).toBe(before);
    const filed = await h.call({ method: 'POST', url: '/api/claims/acme-5002', body: withPhoto(own) });
    expect(filed.statusCode, filed.body).toBe(201);
  });
});

describe('the upload quota', () => {
  it('hands out no more URLs than the quota to concurrent requests', async () => {
    const lookup = await h.call({ method: 'GET', url: '/api/order-lookup?email=hugo@example.com&order=1008' });
    const orderId = CustomerOrder.parse(json(lookup)).systemOrderId;
    const ask = () =>
      h.call({
        method: 'POST',
        url: '/api/media/upload-url',
        body: { filename: 'p.png', contentType: 'image/png', mediaType: 'CLAIM', orderId, email: 'hugo@example.com' },
      });
    const answers = await Promise.all(Array.from({ length: UPLOAD_QUOTA.files + 20 }, ask));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(UPLOAD_QUOTA.files);
    expect(statuses.filter((s) => s === 422)).toHaveLength(20);
  });
});
