import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES, PublicStore, UploadUrlResponse, WhitelabelSettings } from '@claims/contracts';
import type { Runtime } from '../src/index.js';
import { pathOf, startPgliteRuntime, type PgliteRuntime } from './support/pgliteRuntime.js';
import { PNG, putUpload } from './support/uploads.js';
import { contentMatchesExtension } from '../src/media/magicBytes.js';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);

let portal: PgliteRuntime;
let runtime: Runtime;
let now = new Date().toISOString();

beforeAll(async () => {
  portal = await startPgliteRuntime('portal-api', {}, { now: () => now });
  runtime = portal.runtime;
});

afterAll(async () => {
  await portal?.stop();
});

/** An upload URL, with the proof of a looked-up order the contract asks for. */
async function uploadUrl(filename: string, contentType: string, mediaType = 'CLAIM') {
  const lookup = await runtime.app.inject({ method: 'GET', url: '/api/order-lookup?email=ava@example.com&order=1001' });
  const orderId = lookup.json<{ systemOrderId: string }>().systemOrderId;
  return runtime.app.inject({
    method: 'POST',
    url: '/api/media/upload-url',
    payload: { filename, contentType, mediaType, orderId, email: 'ava@example.com' },
  });
}

/** The file PUT to a signed upload URL, with `contentType` as its header if given. */
const putFile = (signed: { signedUrl: string }, payload: Buffer, contentType?: string) =>
  putUpload(runtime, signed, payload, contentType ?? null);

describe('stores and whitelabel', () => {
  it('answers the public facts of a store by slug or id, and 404 for an unknown one', async () => {
    const bySlug = await runtime.app.inject({ method: 'GET', url: '/api/stores/acme' });
    expect(bySlug.statusCode).toBe(200);
    const store = PublicStore.parse(bySlug.json());
    expect(store).toMatchObject({
      slug: 'acme',
      name: 'Acme Outfitters',
      capabilities: { refund: true },
      credit: { bonus: 10, bonusType: 'percentage' },
    });
    expect(bySlug.json()).not.toHaveProperty('accountId');
    const byId = await runtime.app.inject({ method: 'GET', url: `/api/stores/${store.id}` });
    expect(byId.json()).toEqual(bySlug.json());
    const missing = await runtime.app.inject({
      method: 'GET',
      url: '/api/stores/00000000-0000-4000-8000-000000000000',
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: 'not_found' });
  });

  it('answers branding by store or by domain', async () => {
    const byDomain = await runtime.app.inject({ method: 'GET', url: '/api/whitelabel/settings?domain=HELP.kumo.test' });
    expect(byDomain.statusCode).toBe(200);
    expect(WhitelabelSettings.parse(byDomain.json())).toMatchObject({
      storeName: 'Kumo Tea',
      branding: { buttonStyle: 'ROUNDED_FULL' },
    });
    const byStore = await runtime.app.inject({ method: 'GET', url: '/api/whitelabel/settings?store=acme&domain=' });
    expect(byStore.json()).toMatchObject({ storeName: 'Acme Outfitters' });
    expect((await runtime.app.inject({ method: 'GET', url: '/api/whitelabel/settings' })).statusCode).toBe(404);
    expect(
      (await runtime.app.inject({ method: 'GET', url: '/api/whitelabel/settings?domain=nowhere.test' })).statusCode,
    ).toBe(404);
    // With neither, the Host the portal is served on: a store's custom domain.
    const byHost = await runtime.app.inject({
      method: 'GET',
      url: '/api/whitelabel/settings',
      headers: { host: 'help.kumo.test:3000' },
    });
    expect(byHost.json()).toMatchObject({ storeName: 'Kumo Tea' });
    expect(
      (await runtime.app.inject({ method: 'GET', url: '/api/whitelabel/settings', headers: { host: 'nowhere.test' } }))
        .statusCode,
    ).toBe(404);
  });
});

describe('media upload', () => {
  it('hands out a signed URL that accepts one upload, then serves the file', async () => {
    const res = await uploadUrl('Damage Photo.PNG', 'image/png');
    expect(res.statusCode).toBe(200);
    const signed = UploadUrlResponse.parse(res.json());
    expect(signed.fileName).toMatch(/^[0-9a-f-]{36}\.png$/);
    const put = await putFile(signed, PNG, 'image/png');
    expect(put.statusCode).toBe(201);
    const again = await putFile(signed, PNG, 'image/png');
    expect(again.statusCode).toBe(410);
    expect(again.json()).toMatchObject({ error: 'upload_expired' });
    const get = await runtime.app.inject({ method: 'GET', url: pathOf(signed.downloadLink) });
    expect(get.statusCode).toBe(200);
    expect(get.headers['content-type']).toBe('image/png');
    expect(get.headers['x-content-type-options']).toBe('nosniff');
    expect(get.rawPayload.equals(PNG)).toBe(true);
    expect(signed.publicUrl).toBe(signed.downloadLink);
  });

  it('accepts an upload without a content type header', async () => {
    const signed = UploadUrlResponse.parse((await uploadUrl('a.jpg', 'image/jpeg')).json());
    const put = await putFile(signed, JPEG);
    expect(put.statusCode).toBe(201);
  });

  it('refuses extensions and content types outside the accepted list', async () => {
    expect((await uploadUrl('notes.pdf', 'application/pdf')).statusCode).toBe(415);
    expect((await uploadUrl('script.svg', 'image/svg+xml')).statusCode).toBe(415);
    expect((await uploadUrl('photo.png', 'text/html')).statusCode).toBe(415);
    expect((await uploadUrl('a.png', 'image/png', 'OTHER')).statusCode).toBe(400);
  });

  it('refuses content whose magic bytes do not fit the extension', async () => {
    const signed = UploadUrlResponse.parse((await uploadUrl('photo.png', 'image/png')).json());
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const put = await putFile(signed, html, 'image/png');
    expect(put.statusCode).toBe(415);
    expect(put.json()).toMatchObject({ error: 'unsupported_media_type' });
    const jpegAsPng = await putFile(signed, JPEG, 'image/png');
    expect(jpegAsPng.statusCode).toBe(415);
    // The refused attempts did not use up the URL.
    const ok = await putFile(signed, PNG, 'image/png');
    expect(ok.statusCode).toBe(201);
  });

  it('refuses a tampered, expired or oversized upload', async () => {
    const signed = UploadUrlResponse.parse((await uploadUrl('photo.png', 'image/png')).json());
    const tampered = pathOf(signed.signedUrl).replace(/signature=[^&]+/, 'signature=AAAA');
    expect((await runtime.app.inject({ method: 'PUT', url: tampered, payload: PNG })).statusCode).toBe(403);
    const otherKey = pathOf(signed.signedUrl).replace(
      /upload\/[^?]+/,
      'upload/00000000-0000-4000-8000-000000000000.png',
    );
    expect((await runtime.app.inject({ method: 'PUT', url: otherKey, payload: PNG })).statusCode).toBe(403);
    const longer = pathOf(signed.signedUrl).replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 3600}`);
    expect((await runtime.app.inject({ method: 'PUT', url: longer, payload: PNG })).statusCode).toBe(403);

    const saved = now;
    now = new Date(Date.parse(saved) + 16 * 60_000).toISOString();
    try {
      const expired = await putFile(signed, PNG);
      expect(expired.statusCode).toBe(410);
    } finally {
      now = saved;
    }

    const big = UploadUrlResponse.parse((await uploadUrl('clip.mp4', 'video/mp4')).json());
    const huge = Buffer.alloc(MAX_UPLOAD_BYTES + 1);
    const tooLarge = await putFile(big, huge, 'video/mp4');
    expect(tooLarge.statusCode).toBe(413);
  });

  it('answers 404 for an unknown or malformed file key', async () => {
    expect(
      (await runtime.app.inject({ method: 'GET', url: '/api/media/files/00000000-0000-4000-8000-000000000000.png' }))
        .statusCode,
    ).toBe(404);
    expect((await runtime.app.inject({ method: 'GET', url: '/api/media/files/..%2F.signing-key' })).statusCode).toBe(
      400,
    );
  });

  it('checks signatures of every accepted kind', () => {
    const ftyp = (brand: string) =>
      Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from(`ftyp${brand}`, 'latin1'), Buffer.alloc(8)]);
    expect(contentMatchesExtension(Buffer.from('GIF89a....'), 'gif')).toBe(true);
    expect(contentMatchesExtension(Buffer.concat([Buffer.from('BM'), Buffer.alloc(20)]), 'bmp')).toBe(true);
    expect(contentMatchesExtension(Buffer.from('RIFF\0\0\0\0WEBPVP8 '), 'webp')).toBe(true);
    expect(contentMatchesExtension(ftyp('heic'), 'heic')).toBe(true);
    expect(contentMatchesExtension(ftyp('isom'), 'mp4')).toBe(true);
    expect(contentMatchesExtension(ftyp('qt  '), 'mov')).toBe(true);
    expect(contentMatchesExtension(ftyp('qt  '), 'mp4')).toBe(false);
    expect(contentMatchesExtension(ftyp('isom'), 'heic')).toBe(false);
    expect(contentMatchesExtension(PNG, 'jpg')).toBe(false);
  });
});

describe('portal hosting', () => {
  it('serves the SPA for non-API paths with security headers, and JSON 404 under /api', async () => {
    const page = await runtime.app.inject({ method: 'GET', url: '/view/some-token' });
    expect([200, 503]).toContain(page.statusCode);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    // Framed by its own origin only: the back-office's branding editor previews it.
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    const api = await runtime.app.inject({ method: 'GET', url: '/api/unknown' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ error: 'route_not_found' });
    const asset = await runtime.app.inject({ method: 'GET', url: '/assets/missing.js' });
    expect(asset.statusCode).toBe(404);
    const traversal = await runtime.app.inject({ method: 'GET', url: '/..%2F..%2Fpackage.json' });
    expect(traversal.body).not.toContain('"workspaces"');
  });
});
