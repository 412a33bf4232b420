import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CustomerOrder,
  PublicStore,
  WhitelabelSettings,
  SettingsHistoryResponse,
  StoreSettingsView,
  type CapabilitiesSettings,
} from '@claims/contracts';
import { json, oneItemClaim, startHarness, type Harness } from './support/backofficeHarness.js';

/** Store settings as versions of the store's settings stream, read by the portal and the deciders at once (PostgreSQL). */
describe('store settings', () => {
  let h: Harness;
  let acme: string;
  let owner: string;
  let agent: string;
  const settingsUrl = (rest = '') => `/api/admin/stores/${acme}/settings${rest}`;

  beforeAll(async () => {
    h = await startHarness();
    acme = await h.storeId('acme');
    owner = await h.login('acmeOwner');
    agent = await h.login('acmeAgent');
  });
  afterAll(() => h?.stop());

  const lookUp = async (order: string, email: string) => {
    const response = await h.call({ method: 'GET', url: `/api/order-lookup?order=${order}&email=${email}` });
    expect(response.statusCode).toBe(200);
    return CustomerOrder.parse(json(response));
  };
  const capabilities = async (cookie = owner, query = '') => {
    const response = await h.call({ method: 'GET', url: settingsUrl(`/capabilities${query}`), cookie });
    expect(response.statusCode, response.body).toBe(200);
    const view = StoreSettingsView.parse(json(response));
    const group = view.groups[0];
    if (group?.group !== 'capabilities') throw new Error('no capabilities group');
    return { view, group };
  };
  const put = (group: string, value: unknown, cookie = owner, expectedVersion?: number) =>
    h.call({
      method: 'PUT',
      url: settingsUrl(`/${group}`),
      cookie,
      body: { value, ...(expectedVersion === undefined ? {} : { expectedVersion }) },
    });

  it('starts from the demo data as the first version, recorded by the seed', async () => {
    const response = await h.call({ method: 'GET', url: settingsUrl(), cookie: owner });
    expect(response.statusCode).toBe(200);
    const view = StoreSettingsView.parse(json(response));
    expect(view.version).toBe(1);
    expect(view.groups.map((g) => [g.group, g.updatable])).toEqual([
      ['general', false],
      ['capabilities', true],
      ['fulfillment', true],
      ['one-time-appeasements', true],
      ['replacement-cost', false],
      ['rev-share', false],
      ['claim-acknowledgment', true],
      ['customer-communication', true],
      ['metadata', true],
      ['widget', true],
      ['claim-filing', true],
      ['policies', true],
      ['pricing', false],
      ['notifications', true],
      ['contact', true],
      ['branding', false],
    ]);
    const { group } = await capabilities();
    expect(group.value.capabilities).toEqual({ credit: true, refund: true, reship: true, returns: true });
    expect(group.lastChange).toMatchObject({ version: 1, actor: { type: 'system', name: 'Demo data' } });
  });

  it("turns refunds off: the shopper's order, the store's public facts, filing and resolving all see it at once", async () => {
    expect((await lookUp('1001', 'ava@example.com')).settings.capabilities.refund).toBe(true);
    const { group: before, view } = await capabilities();
    const value: CapabilitiesSettings = {
      ...before.value,
      capabilities: { ...before.value.capabilities, refund: false },
    };
    const changed = await put('capabilities', value, owner, view.version);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(StoreSettingsView.parse(json(changed)).groups[0]).toMatchObject({
      value: { capabilities: { refund: false } },
      lastChange: { version: 2, actor: { type: 'user', name: 'Alex Owner' } },
    });

    expect((await lookUp('1001', 'ava@example.com')).settings.capabilities).toEqual({
      credit: true,
      refund: false,
      reship: true,
      returns: true,
    });
    const store = PublicStore.parse(json(await h.call({ method: 'GET', url: `/api/stores/${acme}` })));
    expect(store.capabilities.refund).toBe(false);

    const refund = await h.call({
      method: 'POST',
      url: '/api/claims/acme-5001',
      body: oneItemClaim('ava@example.com', 'f-1001-1', 'li-1', 'REFUND'),
    });
    expect([refund.statusCode, json<{ error: string }>(refund).error]).toEqual([422, 'unsupported_resolution']);
    const reship = await h.fileClaim('acme-5001', oneItemClaim('ava@example.com', 'f-1001-1', 'li-1', 'RESHIP'));
    const resolve = await h.call({
      method: 'POST',
      url: `/api/admin/claims/${reship.claimId}/resolve`,
      cookie: agent,
      body: { resolutionType: 'REFUND' },
    });
    expect([resolve.statusCode, json<{ error: string }>(resolve).error]).toEqual([422, 'unsupported_resolution']);

    // Saving the same value again records nothing.
    const again = await put('capabilities', value);
    expect(StoreSettingsView.parse(json(again)).version).toBe(2);
  });

  it('moves eligibility with the claim window and the waiting period', async () => {
    const [tooLate] = (await lookUp('1004', 'dan@example.com')).fulfillments;
    const [tooSoon] = (await lookUp('1003', 'cara@example.com')).fulfillments;
    expect([tooLate?.eligibilityCode, tooSoon?.eligibilityCode]).toEqual(['expired', 'too_soon']);
    const changed = await put('fulfillment', { claimWaitDays: 0, claimWindowDays: 60 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await lookUp('1004', 'dan@example.com')).fulfillments[0]).toMatchObject({
      eligible: true,
      eligibilityCode: null,
    });
    expect((await lookUp('1003', 'cara@example.com')).fulfillments[0]).toMatchObject({
      eligible: true,
      eligibilityCode: null,
    });
    await h.fileClaim('acme-5004', oneItemClaim('dan@example.com', 'f-1004-1', 'li-7', 'RESHIP'));

    const narrower = await put('fulfillment', { claimWaitDays: 0, claimWindowDays: 5 });
    expect(narrower.statusCode).toBe(200);
    expect((await lookUp('1008', 'hugo@example.com')).fulfillments[0]?.eligibilityCode).toBe('expired');
    const late = await h.call({
      method: 'POST',
      url: '/api/claims/acme-5008',
      body: oneItemClaim('hugo@example.com', 'f-1008-1', 'li-12', 'RESHIP'),
    });
    expect([late.statusCode, json<{ error: string }>(late).error]).toEqual([422, 'not_eligible']);
  });

  it('answers the settings as of an earlier time, and 404 before the first version', async () => {
    const history = SettingsHistoryResponse.parse(
      json(await h.call({ method: 'GET', url: settingsUrl('/history?group=capabilities'), cookie: owner })),
    );
    const refundsOff = history.entries.find((e) => e.kind === 'changed')!;
    const justBefore = new Date(Date.parse(refundsOff.at) - 1).toISOString();
    const then = await capabilities(owner, `?asOf=${justBefore}`);
    expect(then.group.value.capabilities.refund).toBe(true);
    expect([then.view.version, then.view.asOf, then.group.updatable]).toEqual([1, justBefore, false]);
    expect((await capabilities(owner, `?asOf=${refundsOff.at}`)).group.value.capabilities.refund).toBe(false);
    const overview = StoreSettingsView.parse(
      json(await h.call({ method: 'GET', url: settingsUrl(`?asOf=${justBefore}`), cookie: owner })),
    );
    expect(overview.groups.map((g) => g.group)).not.toContain('general');
    const beforeAll = await h.call({
      method: 'GET',
      url: settingsUrl('/capabilities?asOf=2000-01-01T00:00:00Z'),
      cookie: owner,
    });
    expect(beforeAll.statusCode).toBe(404);
  });

  it('lists every version with who made it and the fields it moved', async () => {
    const response = await h.call({ method: 'GET', url: settingsUrl('/history'), cookie: owner });
    const history = SettingsHistoryResponse.parse(json(response));
    expect(history.version).toBe(4);
    const changes = history.entries.filter((e) => e.kind === 'changed');
    expect(changes.map((e) => [e.version, e.group, e.actor.name])).toEqual([
      [4, 'fulfillment', 'Alex Owner'],
      [3, 'fulfillment', 'Alex Owner'],
      [2, 'capabilities', 'Alex Owner'],
    ]);
    expect(changes.at(-1)?.changes).toEqual([{ field: 'capabilities.refund', from: true, to: false }]);
    expect(changes[0]?.changes).toEqual([{ field: 'claimWindowDays', from: 60, to: 5 }]);
    expect(
      history.entries
        .filter((e) => e.kind === 'initialized')
        .every((e) => e.version === 1 && e.actor.name === 'Demo data'),
    ).toBe(true);
  });

  it('refuses an edit of a group changed since it was loaded, not of another group', async () => {
    const stale = await put('fulfillment', { claimWaitDays: 1, claimWindowDays: 30 }, owner, 3);
    expect([stale.statusCode, json<{ error: string }>(stale).error]).toEqual([409, 'version_conflict']);
    const other = await put('widget', { enabled: true, defaultProtected: true }, owner, 1);
    expect(other.statusCode, other.body).toBe(200);
  });

  it('validates each group: returns need their portal address, the window must not end before the wait', async () => {
    const { group } = await capabilities();
    const noPortal = await put('capabilities', { ...group.value, returns: { portalUrl: null, trackingUrl: null } });
    expect([noPortal.statusCode, json<{ error: string }>(noPortal).error]).toEqual([400, 'validation_failed']);
    const inverted = await put('fulfillment', { claimWaitDays: 10, claimWindowDays: 5 });
    expect(inverted.statusCode).toBe(400);
  });

  it("reads and changes each group with its own permission; another tenant's store is a 404", async () => {
    // Store support reads capabilities but may change no settings.
    expect((await capabilities(agent)).group.updatable).toBe(false);
    const byAgent = await put('capabilities', (await capabilities()).group.value, agent);
    expect([byAgent.statusCode, json<{ error: string }>(byAgent).error]).toEqual([403, 'forbidden']);
    const viewer = await h.login('acmeViewer');
    expect((await put('fulfillment', { claimWaitDays: 3, claimWindowDays: 30 }, viewer)).statusCode).toBe(403);
    // Finance changes the revenue share, not the capabilities.
    const finance = await h.login('finance');
    const financeView = StoreSettingsView.parse(
      json(await h.call({ method: 'GET', url: settingsUrl(), cookie: finance })),
    );
    expect(financeView.groups.map((g) => g.group)).toEqual([
      'general',
      'replacement-cost',
      'rev-share',
      'pricing',
      'quote-pricing',
    ]);
    expect((await put('rev-share', { merchantSharePercent: 12.5 }, finance)).statusCode).toBe(200);
    expect((await put('capabilities', (await capabilities()).group.value, finance)).statusCode).toBe(403);
    expect((await h.call({ method: 'GET', url: settingsUrl('/capabilities'), cookie: finance })).statusCode).toBe(403);
    expect(
      (await h.call({ method: 'GET', url: settingsUrl('/history?group=capabilities'), cookie: finance })).statusCode,
    ).toBe(403);
    // General is read-only for everyone, the owner included.
    expect((await put('general', { name: 'Acme' })).statusCode).toBe(403);
    expect((await h.call({ method: 'GET', url: settingsUrl('/general'), cookie: owner })).statusCode).toBe(200);
    // Kumo's owner does not see Acme at all; nobody signed in is a 401.
    const kumoOwner = await h.login('kumoOwner');
    expect((await h.call({ method: 'GET', url: settingsUrl(), cookie: kumoOwner })).statusCode).toBe(404);
    expect((await put('capabilities', (await capabilities()).group.value, kumoOwner)).statusCode).toBe(404);
    expect((await h.call({ method: 'GET', url: settingsUrl() })).statusCode).toBe(401);
  });

  it('gives the portal the claim acknowledgment at once while it is on, and none once it is off', async () => {
    const acknowledgment = async () =>
      PublicStore.parse(json(await h.call({ method: 'GET', url: `/api/stores/${acme}` }))).claimAcknowledgment;
    expect(await acknowledgment()).toBeNull();
    const message = 'Thanks! Our team answers every claim within one working day.';
    expect((await put('claim-acknowledgment', { enabled: true, message })).statusCode).toBe(200);
    expect(await acknowledgment()).toBe(message);
    expect((await put('claim-acknowledgment', { enabled: false, message })).statusCode).toBe(200);
    expect(await acknowledgment()).toBeNull();
  });

  it("gives the portal's footer the store's contact and policy links at once after a change", async () => {
    const chrome = async () =>
      WhitelabelSettings.parse(json(await h.call({ method: 'GET', url: '/api/whitelabel/settings?store=acme' })));
    expect(await chrome()).toMatchObject({
      contact: { supportEmail: null, supportPhone: null },
      policies: { termsUrl: null, privacyUrl: null, protectionTermsUrl: null },
    });
    const contact = { supportEmail: 'help@acme.test', supportPhone: '+1 555 0100' };
    const policies = {
      termsUrl: 'https://acme.test/terms',
      privacyUrl: 'https://acme.test/privacy',
      protectionTermsUrl: null,
    };
    expect((await put('contact', contact)).statusCode).toBe(200);
    expect((await put('policies', policies)).statusCode).toBe(200);
    expect(await chrome()).toMatchObject({ contact, policies });
    expect((await put('contact', { supportEmail: null, supportPhone: null })).statusCode).toBe(200);
    expect((await chrome()).contact).toEqual({ supportEmail: null, supportPhone: null });
  });
});
