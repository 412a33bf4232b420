import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TeamMemberList } from '@claims/contracts';
import { findStore, upsertStore } from '../src/catalog/storeRepository.js';
import { DEMO_PASSWORD, json, startHarness, type Harness } from './support/backofficeHarness.js';

/** Kumo Tea has two store owners in the demo data (owner@ and co-owner@kumo.test) and no account owner. */
describe('the last owner of a store, under concurrent changes', () => {
  let h: Harness;
  let kumo: string;
  const cookies = new Map<string, string>();
  beforeAll(async () => {
    h = await startHarness();
    kumo = await h.storeId('kumo');
    cookies.set('admin', await h.login('admin'));
    for (const email of ['owner@kumo.test', 'co-owner@kumo.test']) {
      const response = await h.call({
        method: 'POST',
        url: '/api/auth/login',
        body: { email, password: DEMO_PASSWORD },
      });
      cookies.set(email, String(response.headers['set-cookie']).split(';')[0]!);
    }
  });
  afterAll(() => h.stop());

  const owners = async () =>
    TeamMemberList.parse(
      json(
        await h.call({ method: 'GET', url: `/api/admin/stores/${kumo}/team-members`, cookie: cookies.get('admin') }),
      ),
    ).data.filter((m) => m.grants.some((g) => g.role === 'store_owner' || g.role === 'account_owner'));

  it('lets exactly one of two owners removing each other at once through, and keeps an owner', async () => {
    const [a, b] = await owners().then((list) =>
      ['owner@kumo.test', 'co-owner@kumo.test'].map((email) => list.find((m) => m.email === email)!),
    );
    expect(a && b).toBeTruthy();
    const [removeB, removeA] = await Promise.all([
      h.call({
        method: 'DELETE',
        url: `/api/admin/stores/${kumo}/team-members/${b!.userId}`,
        cookie: cookies.get('owner@kumo.test'),
      }),
      h.call({
        method: 'DELETE',
        url: `/api/admin/stores/${kumo}/team-members/${a!.userId}`,
        cookie: cookies.get('co-owner@kumo.test'),
      }),
    ]);
    const answers = [removeB, removeA].map((r) => [
      r.statusCode,
      r.statusCode === 204 ? null : json<{ error: string }>(r).error,
    ]);
    expect(answers).toContainEqual([204, null]);
    // The second decided again on the first's outcome: either it was no longer a member (401/403/404)
    // or it met the last-owner rule.
    const refused = answers.find(([status]) => status !== 204)!;
    expect([
      [409, 'last_owner'],
      [401, 'unauthenticated'],
      [403, 'forbidden'],
      [404, 'not_found'],
    ]).toContainEqual(refused);
    expect(await owners()).toHaveLength(1);
  });

  it('refuses to demote or remove the last owner', async () => {
    const [last] = await owners();
    expect(last).toBeDefined();
    const admin = cookies.get('admin');
    const demote = await h.call({
      method: 'POST',
      url: `/api/admin/stores/${kumo}/team-members/${last!.userId}/role`,
      cookie: admin,
      body: { role: 'store_admin' },
    });
    expect([demote.statusCode, json<{ error: string }>(demote).error]).toEqual([409, 'last_owner']);
    const remove = await h.call({
      method: 'DELETE',
      url: `/api/admin/stores/${kumo}/team-members/${last!.userId}`,
      cookie: admin,
    });
    expect([remove.statusCode, json<{ error: string }>(remove).error]).toEqual([409, 'last_owner']);
  });
});

/**
 * Acme Group's only owner is its account owner (owner@acme.test), who reaches a second store of the
 * account only through that account role: a change made from Acme must not leave the other store ownerless.
 */
describe('the last owner of every store of an account', () => {
  let h: Harness;
  let acme: string;
  let outlet: string;
  let admin: string;
  const memberId = async (store: string, email: string) =>
    TeamMemberList.parse(
      json(await h.call({ method: 'GET', url: `/api/admin/stores/${store}/team-members`, cookie: admin })),
    ).data.find((m) => m.email === email)!.userId;
  const ownersOf = async (store: string) =>
    TeamMemberList.parse(
      json(await h.call({ method: 'GET', url: `/api/admin/stores/${store}/team-members`, cookie: admin })),
    )
      .data.filter((m) => m.grants.some((g) => g.role === 'store_owner' || g.role === 'account_owner'))
      .map((m) => m.email)
      .sort();

  beforeAll(async () => {
    h = await startHarness();
    acme = await h.storeId('acme');
    const db = h.runtime.ctx.database.db;
    const { accountId, settings, branding } = (await findStore(db, acme))!;
    outlet = await upsertStore(db, {
      accountId,
      slug: 'acme-outlet',
      name: 'Acme Outlet',
      domain: null,
      currency: 'USD',
      settings,
      branding,
    });
    admin = await h.login('admin');
  });
  afterAll(() => h?.stop());

  it("refuses to narrow the account owner to one store while they are the other store's only owner", async () => {
    const owner = await memberId(acme, 'owner@acme.test');
    const narrowed = await h.call({
      method: 'POST',
      url: `/api/admin/stores/${acme}/team-members/${owner}/ownership`,
      cookie: admin,
      body: { level: 'store' },
    });
    expect([narrowed.statusCode, json<{ error: string; message: string }>(narrowed)]).toEqual([
      409,
      { error: 'last_owner', message: expect.stringContaining('Acme Outlet') },
    ]);
    expect(await ownersOf(outlet)).toEqual(['owner@acme.test']);
  });

  it('refuses to remove the account owner from the account while a store has no other owner, and lets it once it has', async () => {
    const viewer = await memberId(acme, 'viewer@acme.test');
    const owner = await memberId(acme, 'owner@acme.test');
    // Acme itself gets another owner, so the rule of the store the change is made from passes.
    const promoted = await h.call({
      method: 'POST',
      url: `/api/admin/stores/${acme}/team-members/${viewer}/ownership`,
      cookie: admin,
      body: { level: 'store' },
    });
    expect(promoted.statusCode, promoted.body).toBe(200);
    const removed = await h.call({
      method: 'DELETE',
      url: `/api/admin/stores/${acme}/team-members/${owner}`,
      cookie: admin,
    });
    expect([removed.statusCode, json<{ error: string }>(removed).error]).toEqual([409, 'last_owner']);
    expect(await ownersOf(acme)).toEqual(['owner@acme.test', 'viewer@acme.test']);

    await h.invite(admin, outlet, {
      email: 'manager@outlet.test',
      name: 'Mo Manager',
      role: 'store_owner',
    });
    // An invitation not yet accepted makes nobody an owner.
    expect(
      (await h.call({ method: 'DELETE', url: `/api/admin/stores/${acme}/team-members/${owner}`, cookie: admin }))
        .statusCode,
    ).toBe(409);

    // The viewer accepts the outlet's ownership: now both stores keep an owner without the account owner.
    const offered = await h.call({
      method: 'POST',
      url: `/api/admin/stores/${outlet}/team-members`,
      cookie: admin,
      body: { email: 'viewer@acme.test', name: 'Vic Viewer', role: 'store_owner' },
    });
    expect(json<{ pending: boolean }>(offered).pending).toBe(true);
    const viewerCookie = await h.login('acmeViewer');
    const [offer] = json<{ data: Array<{ id: string }> }>(
      await h.call({ method: 'GET', url: '/api/auth/memberships/pending', cookie: viewerCookie }),
    ).data;
    expect(
      (await h.call({ method: 'POST', url: `/api/auth/memberships/${offer!.id}/accept`, cookie: viewerCookie }))
        .statusCode,
    ).toBe(204);
    const allowed = await h.call({
      method: 'DELETE',
      url: `/api/admin/stores/${acme}/team-members/${owner}`,
      cookie: admin,
    });
    expect(allowed.statusCode, allowed.body).toBe(204);
    expect(await ownersOf(outlet)).toEqual(['manager@outlet.test', 'viewer@acme.test']);
  });
});
