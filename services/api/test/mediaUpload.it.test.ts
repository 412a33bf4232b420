import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustomerOrder, FileClaimResponse, MAX_UPLOAD_BYTES, UPLOAD_QUOTA, UploadUrlResponse } from '@claims/contracts';
import type { Runtime } from '../src/index.js';
import { sweepOrphanedMedia } from '../src/media/mediaRoutes.js';
import { pathOf, startPgliteRuntime, type PgliteRuntime } from './support/pgliteRuntime.js';
import { PNG, putUpload } from './support/uploads.js';

/** Uploads take the proof of an order or a claim, are capped per URL, per proof and per IP, stream, and are swept when orphaned. */

const UPLOADS_PER_IP = 60;

let started: PgliteRuntime;
let runtime: Runtime;
let dataDir: string;
let now = new Date().toISOString();
let orderId: string;
let claim: { token: string };
let referenced: UploadUrlResponse;

beforeAll(async () => {
  started = await startPgliteRuntime(
    'media-upload',
    { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_UPLOAD_PER_IP: String(UPLOADS_PER_IP) },
    { now: () => now },
  );
  ({ runtime, dataDir } = started);
  const lookup = await runtime.app.inject({ method: 'GET', url: '/api/order-lookup?email=ava@example.com&order=1001' });
  orderId = CustomerOrder.parse(lookup.json()).systemOrderId;
  referenced = await signedUrl({ orderId, email: 'ava@example.com' });
  expect((await put(referenced, PNG)).statusCode).toBe(201);
  const filed = await runtime.app.inject({
    method: 'POST',
    url: '/api/claims/acme-5001',
    payload: {
      email: 'ava@example.com',
      fulfillmentIssues: [
        {
          sourceFulfillmentId: 'f-1001-1',
          issues: [
            {
              sourceItemId: 'li-1',
              claimType: 'DAMAGED',
              quantity: 1,
              details: 'Torn.',
              images: [{ url: referenced.publicUrl }],
            },
          ],
        },
      ],
      resolution: { desiredMethod: 'REFUND', customerSignature: 'Ava Stone', updatedShippingAddress: null },
    },
  });
  expect(filed.statusCode, filed.body).toBe(201);
  claim = FileClaimResponse.parse(filed.json());
});

afterAll(() => started?.stop());

const askUrl = (proof: Record<string, string>, remoteAddress = '127.0.0.1', filename = 'photo.png') =>
  runtime.app.inject({
    method: 'POST',
    url: '/api/media/upload-url',
    remoteAddress,
    payload: { filename, contentType: 'image/png', mediaType: 'CLAIM', ...proof },
  });

async function signedUrl(proof: Record<string, string>): Promise<UploadUrlResponse> {
  const res = await askUrl(proof);
  expect(res.statusCode, res.body).toBe(200);
  return UploadUrlResponse.parse(res.json());
}

const put = (signed: UploadUrlResponse, payload: Buffer | Readable) => putUpload(runtime, signed, payload);

const mediaFiles = () => readdirSync(path.join(dataDir, 'media')).filter((n) => !n.startsWith('.'));

describe('asking for an upload URL', () => {
  it('answers 404 and no URL without a valid proof of an order or a claim', async () => {
    const attempts: Array<Record<string, string>> = [
      {},
      { orderId },
      { email: 'ava@example.com' },
      { orderId, email: 'mallory@example.com' },
      { orderId: 'not-a-uuid', email: 'ava@example.com' },
      { orderId: '00000000-0000-4000-8000-000000000000', email: 'ava@example.com' },
      { claimToken: 'x'.repeat(43) },
      { claimToken: `${claim.token.slice(0, -2)}AA` },
      { claimToken: 'short' },
    ];
    for (const proof of attempts) {
      const res = await askUrl(proof, '10.0.0.1');
      expect(res.statusCode, JSON.stringify(proof)).toBe(404);
      expect(res.body).not.toContain('signedUrl');
      expect(res.body).not.toContain('/api/media/upload/');
    }
  });

  it('hands one out for a looked-up order (email in any case) and for a claim token', async () => {
    expect((await askUrl({ orderId, email: '  AVA@Example.com ' }, '10.0.0.2')).statusCode).toBe(200);
    const byClaim = await askUrl({ claimToken: claim.token }, '10.0.0.2');
    expect(byClaim.statusCode).toBe(200);
    UploadUrlResponse.parse(byClaim.json());
  });

  it('is rate-limited per client address', async () => {
    const answers: number[] = [];
    for (let i = 0; i <= UPLOADS_PER_IP; i++) answers.push((await askUrl({}, '10.0.0.3')).statusCode);
    expect(answers.slice(0, UPLOADS_PER_IP).every((s) => s === 404)).toBe(true);
    expect(answers.at(-1)).toBe(429);
  });

  it('refuses URLs past the quota of one claim with a clear 422', async () => {
    const other = await runtime.app.inject({
      method: 'GET',
      url: '/api/order-lookup?email=ben@example.com&order=1002',
    });
    const proof = { orderId: CustomerOrder.parse(other.json()).systemOrderId, email: 'ben@example.com' };
    for (let i = 0; i < UPLOAD_QUOTA.files; i++) expect((await askUrl(proof, '10.0.0.4')).statusCode).toBe(200);
    const over = await askUrl(proof, '10.0.0.5');
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ error: 'upload_quota_exceeded' });
    expect(over.json<{ message: string }>().message).toContain(`${UPLOAD_QUOTA.files} files`);
  });
});

describe('uploading to the URL', () => {
  it('accepts one upload, then refuses, and streams the file back', async () => {
    const signed = await signedUrl({ claimToken: claim.token });
    expect((await put(signed, PNG)).statusCode).toBe(201);
    const again = await put(signed, PNG);
    expect(again.statusCode).toBe(410);
    expect(again.json()).toMatchObject({ error: 'upload_expired' });
    const get = await runtime.app.inject({ method: 'GET', url: pathOf(signed.downloadLink) });
    expect(get.statusCode).toBe(200);
    expect(get.headers['content-length']).toBe(String(PNG.length));
    expect(get.rawPayload.equals(PNG)).toBe(true);
  });

  it('writes the body to disk while it is still arriving', async () => {
    const signed = await signedUrl({ claimToken: claim.token });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const half = Buffer.concat([PNG, Buffer.alloc(512 * 1024)]);
    const body = Readable.from(
      (async function* () {
        yield half;
        await gate;
        yield Buffer.alloc(512 * 1024);
      })(),
    );
    const answer = put(signed, body);
    // The first half is on disk in a partial file before the second half is even sent.
    let partial = 0;
    for (let i = 0; i < 400 && partial < half.length; i++) {
      const part = mediaFiles().find((n) => n.endsWith('.part'));
      partial = part ? statSync(path.join(dataDir, 'media', part)).size : 0;
      if (partial < half.length) await sleep(10);
    }
    release();
    expect(partial).toBeGreaterThanOrEqual(half.length);
    const res = await answer;
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ size: half.length + 512 * 1024 });
  });

  it('refuses a body over the cap, stops reading it and keeps nothing', async () => {
    const signed = await signedUrl({ claimToken: claim.token });
    const before = mediaFiles();
    const chunk = Buffer.alloc(256 * 1024);
    let pulled = 0;
    const endless = new Readable({
      read() {
        pulled += chunk.length;
        this.push(pulled === chunk.length ? Buffer.concat([PNG, chunk.subarray(PNG.length)]) : chunk);
      },
    });
    const res = await put(signed, endless);
    endless.destroy();
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: 'payload_too_large' });
    expect(pulled).toBeLessThan(MAX_UPLOAD_BYTES + 4 * 1024 * 1024);
    expect(mediaFiles()).toEqual(before);
    expect((await runtime.app.inject({ method: 'GET', url: pathOf(signed.downloadLink) })).statusCode).toBe(404);
  });
});

describe('the orphan sweep', () => {
  it('deletes an upload no claim references after a day and keeps a referenced one', async () => {
    const orphan = await signedUrl({ orderId, email: 'ava@example.com' });
    expect((await put(orphan, PNG)).statusCode).toBe(201);
    const served = (signed: UploadUrlResponse) =>
      runtime.app.inject({ method: 'GET', url: pathOf(signed.downloadLink) });

    expect(await sweepOrphanedMedia(runtime.ctx, new Date(Date.parse(now) + 23 * 3600_000).toISOString())).toBe(0);
    expect((await served(orphan)).statusCode).toBe(200);

    const saved = now;
    now = new Date(Date.parse(saved) + 25 * 3600_000).toISOString();
    try {
      expect(await sweepOrphanedMedia(runtime.ctx, now)).toBeGreaterThan(0);
    } finally {
      now = saved;
    }
    expect((await served(orphan)).statusCode).toBe(404);
    expect(mediaFiles()).not.toContain(orphan.fileName);
    expect((await served(referenced)).statusCode).toBe(200);
    expect(mediaFiles()).toContain(referenced.fileName);
  });
});
