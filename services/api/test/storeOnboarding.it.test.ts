import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AccountStores,
  AccountView,
  CustomerOrder,
  MeResponse,
  OnboardingList,
  StoreOnboardingView,
  StoreSettingsView,
  type CapabilitiesSettings,
} from '@claims/contracts';
import { upsertOrder } from '../src/catalog/orderRepository.js';
import { noordOrder } from '../../../test/support/noordOrder.js';
import { mailedInvitationToken } from './support/invitations.js';
import { DEMO_PASSWORD, json, oneItemClaim, startHarness, type Harness } from './support/backofficeHarness.js';

/** Order Protection staff create an account and a store and take it through onboarding; then its owner sets it up (PostgreSQL). */
describe('accounts, stores and onboarding', () => {
  let h: Harness;
  let admin: string;
  let implementation: string;
  let acmeOwner: string;
  let acmeAgent: string;
  let kumoOwner: string;
  let accountId: string;
  let storeId: string;

  const signIn = async (email: string, password = DEMO_PASSWORD) => {
    const response = await h.call({ method: 'POST', url: '/api/auth/login', body: { email, password } });
    expect(response.statusCode, response.body).toBe(200);
    return String(response.headers['set-cookie']).split(';')[0]!;
  };
  const step = (cookie: string, body: Record<string, unknown>, id = storeId) =>
    h.call({ method: 'POST', url: `/api/admin/stores/${id}/onboarding/steps`, cookie, body });
  const lookUp = (number: string, email: string) =>
    h.call({ method: 'GET', url: `/api/order-lookup?order=${number}&email=${email}` });

  beforeAll(async () => {
    h = await startHarness();
    admin = await h.login('admin');
    acmeOwner = await h.login('acmeOwner');
    acmeAgent = await h.login('acmeAgent');
    kumoOwner = await h.login('kumoOwner');
    implementation = await signIn('implementation@orderprotection.test');
  });
  afterAll(() => h?.stop());

  it('lets only Order Protection staff create accounts, with unique slugs', async () => {
    for (const cookie of [acmeOwner, implementation, acmeAgent]) {
      const refused = await h.call({
        method: 'POST',
        url: '/api/admin/accounts',
        cookie,
        body: { name: 'Noord', slug: 'noord' },
      });
      expect(refused.statusCode, refused.body).toBe(403);
    }
    const created = await h.call({
      method: 'POST',
      url: '/api/admin/accounts',
      cookie: admin,
      body: { name: 'Noord Group', slug: 'noord-group' },
    });
    expect(created.statusCode, created.body).toBe(201);
    accountId = AccountView.parse(json(created)).id;
    const again = await h.call({
      method: 'POST',
      url: '/api/admin/accounts',
      cookie: admin,
      body: { name: 'Other', slug: 'noord-group' },
    });
    expect([again.statusCode, json<{ error: string }>(again).error]).toEqual([409, 'already_exists']);
    const bad = await h.call({
      method: 'POST',
      url: '/api/admin/accounts',
      cookie: admin,
      body: { name: 'Bad', slug: 'Not A Slug' },
    });
    expect(bad.statusCode).toBe(400);
    const accounts = await h.call({ method: 'GET', url: '/api/admin/accounts', cookie: implementation });
    expect(json<{ data: AccountView[] }>(accounts).data.map((a) => a.slug)).toContain('noord-group');
    // A merchant reads only the accounts of their own stores.
    const own = await h.call({ method: 'GET', url: '/api/admin/accounts', cookie: acmeOwner });
    expect(json<{ data: AccountView[] }>(own).data.map((a) => a.slug)).toEqual(['acme-group']);
  });

  it("creates a store as the onboarding's first step, inactive, and the catalog reads it at once", async () => {
    const body = { accountId, name: 'Noord Linen', slug: 'noord-linen', currency: 'EUR', domain: 'claims.noord.test' };
    expect((await h.call({ method: 'POST', url: '/api/admin/stores', cookie: acmeOwner, body })).statusCode).toBe(403);
    const created = await h.call({ method: 'POST', url: '/api/admin/stores', cookie: implementation, body });
    expect(created.statusCode, created.body).toBe(201);
    const view = StoreOnboardingView.parse(json(created));
    storeId = view.storeId;
    expect(view).toMatchObject({
      stage: 'created',
      active: false,
      nextSteps: ['brand-create'],
      accountName: 'Noord Group',
    });
    expect(view.steps).toMatchObject([{ step: 'create', actor: { name: 'Ida Implementation' } }]);
    const taken = await h.call({
      method: 'POST',
      url: '/api/admin/stores',
      cookie: admin,
      body: { ...body, domain: null },
    });
    expect([taken.statusCode, json<{ error: string }>(taken).error]).toEqual([409, 'already_exists']);
    const unknown = await h.call({
      method: 'POST',
      url: '/api/admin/stores',
      cookie: admin,
      body: { ...body, slug: 'x-y', accountId: storeId },
    });
    expect(unknown.statusCode).toBe(404);

    // The portal's store lookup, the back-office's store list and its settings read the new row.
    const whitelabel = await h.call({ method: 'GET', url: '/api/whitelabel/settings?store=noord-linen' });
    expect(json<{ storeId: string }>(whitelabel).storeId).toBe(storeId);
    const me = MeResponse.parse(json(await h.call({ method: 'GET', url: '/api/auth/me', cookie: admin })));
    expect(me.stores.map((s) => s.name)).toContain('Noord Linen');
    const settings = await h.call({
      method: 'GET',
      url: `/api/admin/stores/${storeId}/settings/capabilities`,
      cookie: admin,
    });
    expect(settings.statusCode, settings.body).toBe(200);

    // Shoppers find none of its orders before it is activated.
    await upsertOrder(h.runtime.ctx.database.db, storeId, 'noord-7001', noordOrder('N7001'));
    expect((await lookUp('N7001', 'noor@example.com')).statusCode).toBe(404);
  });

  it("lists an account's stores to whoever reads them (account-stores:read), and hides another tenant's account", async () => {
    const storesOf = (cookie: string, id: string) =>
      h.call({ method: 'GET', url: `/api/admin/accounts/${id}/stores`, cookie });
    const noord = AccountStores.parse(json(await storesOf(implementation, accountId)));
    expect(noord.account).toMatchObject({ id: accountId, name: 'Noord Group', storeCount: 1 });
    expect(noord.data).toEqual([
      {
        id: storeId,
        slug: 'noord-linen',
        name: 'Noord Linen',
        domain: 'claims.noord.test',
        currency: 'EUR',
        active: false,
      },
    ]);
    expect((await storesOf(acmeOwner, accountId)).statusCode).toBe(404);
    expect((await storesOf(admin, storeId)).statusCode).toBe(404);
    const acmeGroup = json<{ data: AccountView[] }>(
      await h.call({ method: 'GET', url: '/api/admin/accounts', cookie: acmeOwner }),
    ).data[0]!;
    const acme = AccountStores.parse(json(await storesOf(acmeAgent, acmeGroup.id)));
    expect(acme.data.map((s) => [s.slug, s.active])).toEqual([['acme', true]]);
  });

  it("moves the store through onboarding with each step's implementation permission", async () => {
    // Another tenant's owner does not see the store at all; the admin sees it but holds no implementation right.
    expect((await step(acmeOwner, { step: 'brand-create' })).statusCode).toBe(404);
    expect((await step(admin, { step: 'brand-create' })).statusCode).toBe(403);
    expect((await h.call({ method: 'GET', url: '/api/admin/onboarding', cookie: kumoOwner })).statusCode).toBe(403);

    const early = await step(implementation, { step: 'deploy' });
    expect([early.statusCode, json<{ error: string }>(early).error]).toEqual([422, 'invalid_transition']);
    const notYet = await h.call({
      method: 'POST',
      url: `/api/admin/stores/${storeId}/activate`,
      cookie: implementation,
    });
    expect(notYet.statusCode).toBe(422);

    for (const next of ['brand-create', 'review'])
      expect((await step(implementation, { step: next })).statusCode).toBe(200);
    expect((await step(implementation, { step: 'reject' })).statusCode).toBe(400);
    const rejected = await step(implementation, { step: 'reject', note: 'The logo is blurry.' });
    expect(StoreOnboardingView.parse(json(rejected))).toMatchObject({
      stage: 'rejected',
      nextSteps: ['brand-create', 'review'],
    });
    for (const next of ['brand-create', 'review', 'approve', 'deploy']) {
      const answer = await step(implementation, { step: next });
      expect(answer.statusCode, answer.body).toBe(200);
    }
    const stale = await step(implementation, { step: 'deploy', expectedVersion: 2 });
    expect(stale.statusCode).toBe(409);

    expect(
      (await h.call({ method: 'POST', url: `/api/admin/stores/${storeId}/activate`, cookie: acmeOwner })).statusCode,
    ).toBe(404);
    const activated = await h.call({
      method: 'POST',
      url: `/api/admin/stores/${storeId}/activate`,
      cookie: implementation,
    });
    expect(activated.statusCode, activated.body).toBe(200);

    const list = OnboardingList.parse(
      json(await h.call({ method: 'GET', url: '/api/admin/onboarding', cookie: admin })),
    );
    const noord = list.data.find((s) => s.storeId === storeId)!;
    expect(noord).toMatchObject({ stage: 'deployed', active: true, activatable: false, nextSteps: [] });
    expect(noord.steps.map((s) => s.step)).toEqual([
      'create',
      'brand-create',
      'review',
      'reject',
      'brand-create',
      'review',
      'approve',
      'deploy',
    ]);
    expect(noord.steps[3]).toMatchObject({ note: 'The logo is blurry.', actor: { name: 'Ida Implementation' } });
    // The demo stores came from the fixtures, not through onboarding.
    expect(list.data.map((s) => s.slug)).toEqual(['noord-linen']);

    expect((await lookUp('N7001', 'noor@example.com')).statusCode).toBe(200);
  });

  it("lets the new store's invited owner turn refunds off, which the shopper and filing see at once", async () => {
    await h.invite(admin, storeId, {
      email: 'nora@noord.test',
      name: 'Nora Noord',
      role: 'store_owner',
    });
    const token = await mailedInvitationToken(h.runtime, 'nora@noord.test');
    const accepted = await h.call({
      method: 'POST',
      url: '/api/auth/invitations/accept',
      body: { token, password: 'noord-pass-1234' },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const nora = await signIn('nora@noord.test', 'noord-pass-1234');
    // Her store only: Acme's settings are another tenant's.
    expect(
      (await h.call({ method: 'GET', url: `/api/admin/stores/${await h.storeId('acme')}/settings`, cookie: nora }))
        .statusCode,
    ).toBe(404);

    const current = StoreSettingsView.parse(
      json(await h.call({ method: 'GET', url: `/api/admin/stores/${storeId}/settings/capabilities`, cookie: nora })),
    );
    const group = current.groups[0];
    if (group?.group !== 'capabilities') throw new Error('no capabilities group');
    const value: CapabilitiesSettings = {
      ...group.value,
      capabilities: { ...group.value.capabilities, refund: false },
    };
    const changed = await h.call({
      method: 'PUT',
      url: `/api/admin/stores/${storeId}/settings/capabilities`,
      cookie: nora,
      body: { value },
    });
    expect(changed.statusCode, changed.body).toBe(200);

    const shopper = CustomerOrder.parse(json(await lookUp('N7001', 'noor@example.com')));
    expect(shopper.settings.capabilities).toMatchObject({ refund: false, reship: true });
    const refund = await h.call({
      method: 'POST',
      url: '/api/claims/noord-7001',
      body: oneItemClaim('noor@example.com', 'f-n1', 'li-n1', 'REFUND'),
    });
    expect([refund.statusCode, json<{ error: string }>(refund).error]).toEqual([422, 'unsupported_resolution']);
    await h.fileClaim('noord-7001', oneItemClaim('noor@example.com', 'f-n1', 'li-n1', 'RESHIP'));
  });
});
