import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreSettingsView } from '@claims/contracts';
import { DEMO_PASSWORD, json, oneItemClaim, startHarness, type Harness } from './support/backofficeHarness.js';

/** The settings groups beyond the nine of docs/product.md#settings-groups: claim filing, policies, pricing, quote pricing, notifications, contact (PostgreSQL). */
describe('settings groups of the back-office resources', () => {
  let h: Harness;
  let acme: string;
  let kumo: string;
  let owner: string;
  let agent: string;
  let admin: string;
  let finance: string;
  let supportAdmin: string;
  let kumoOwner: string;
  const url = (group: string, store = acme) => `/api/admin/stores/${store}/settings/${group}`;
  const put = (group: string, value: unknown, cookie: string, store = acme) =>
    h.call({ method: 'PUT', url: url(group, store), cookie, body: { value } });
  const get = (group: string, cookie: string, store = acme) =>
    h.call({ method: 'GET', url: url(group, store), cookie });

  beforeAll(async () => {
    h = await startHarness();
    acme = await h.storeId('acme');
    kumo = await h.storeId('kumo');
    owner = await h.login('acmeOwner');
    agent = await h.login('acmeAgent');
    admin = await h.login('admin');
    finance = await h.login('finance');
    kumoOwner = await h.login('kumoOwner');
    const signedIn = await h.call({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: 'support-admin@orderprotection.test', password: DEMO_PASSWORD },
    });
    supportAdmin = String(signedIn.headers['set-cookie']).split(';')[0]!;
  });
  afterAll(() => h?.stop());

  it('reads each new group with its defaults and refuses bad values, changing nothing', async () => {
    const contact = StoreSettingsView.parse(json(await get('contact', owner))).groups[0];
    expect(contact).toMatchObject({ value: { supportEmail: null, supportPhone: null }, updatable: true });
    const bad = await put('contact', { supportEmail: 'not-an-email', supportPhone: 'call me' }, owner);
    expect([bad.statusCode, json<{ error: string }>(bad).error]).toEqual([400, 'validation_failed']);
    const badUrl = await put(
      'policies',
      { termsUrl: 'javascript:alert(1)', privacyUrl: null, protectionTermsUrl: null },
      owner,
    );
    expect(badUrl.statusCode).toBe(400);
    expect(StoreSettingsView.parse(json(await get('contact', owner))).version).toBe(1);
    const saved = await put('contact', { supportEmail: 'care@acme.test', supportPhone: '+1 555 010 0199' }, owner);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(StoreSettingsView.parse(json(saved)).groups[0]).toMatchObject({
      value: { supportEmail: 'care@acme.test' },
      lastChange: { actor: { name: 'Alex Owner' } },
    });
  });

  it('keeps pricing and quote pricing to Order Protection: finance reads, the admin changes, merchants read the premium only', async () => {
    expect((await get('pricing', owner)).statusCode).toBe(200);
    expect((await put('pricing', { premiumPercent: 0 }, owner)).statusCode).toBe(403);
    expect((await get('quote-pricing', owner)).statusCode).toBe(403);
    expect((await put('quote-pricing', { quotePercent: 2 }, owner)).statusCode).toBe(403);
    expect((await get('pricing', finance)).statusCode).toBe(200);
    expect((await put('pricing', { premiumPercent: 3 }, finance)).statusCode).toBe(403);
    const byAdmin = await put('pricing', { premiumPercent: 3.5 }, admin);
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect((await put('quote-pricing', { quotePercent: 101 }, admin)).statusCode).toBe(400);
  });

  it('lets the support admin change claim filing (docs/product.md#support-staff), and filing reads it at once', async () => {
    expect((await put('claim-filing', { acceptingClaims: false, photosRequired: false }, agent)).statusCode).toBe(403);
    expect((await put('claim-filing', { acceptingClaims: false, photosRequired: false }, kumoOwner)).statusCode).toBe(
      404,
    );
    const closed = await put('claim-filing', { acceptingClaims: false, photosRequired: false }, supportAdmin);
    expect(closed.statusCode, closed.body).toBe(200);
    const refused = await h.call({
      method: 'POST',
      url: '/api/claims/acme-5001',
      body: oneItemClaim('ava@example.com', 'f-1001-1', 'li-1'),
    });
    expect([refused.statusCode, json<{ error: string }>(refused).error]).toEqual([422, 'not_eligible']);

    expect((await put('claim-filing', { acceptingClaims: true, photosRequired: true }, owner)).statusCode).toBe(200);
    const withPhoto = oneItemClaim('ava@example.com', 'f-1001-1', 'li-1');
    const body = {
      ...withPhoto,
      fulfillmentIssues: withPhoto.fulfillmentIssues.map((f) => ({
        ...f,
        issues: f.issues.map((i) => ({ ...i, images: [] })),
      })),
    };
    const noPhoto = await h.call({ method: 'POST', url: '/api/claims/acme-5001', body });
    expect([noPhoto.statusCode, json<{ error: string }>(noPhoto).error]).toEqual([400, 'validation_failed']);
    // Another store is untouched.
    expect(StoreSettingsView.parse(json(await get('claim-filing', kumoOwner, kumo))).groups[0]).toMatchObject({
      value: { acceptingClaims: true },
    });
  });
});
