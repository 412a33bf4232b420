import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TeamMemberList } from '@claims/contracts';
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
      const response = await h.call({ method: 'POST', url: '/api/auth/login', body: { email, password: DEMO_PASSWORD } });
      cookies.set(email, String(response.headers['set-cookie']).split(';')[0]!);
    }
  });
  afterAll(() => h.stop());

  const owners = async () => TeamMemberList.parse(json(await h.call({ method: 'GET', url: `/api/admin/stores/${kumo}/team-members`, cookie: cookies.get('admin') })))
    .data.filter((m) => m.grants.some((g) => g.role === 'store_owner' || g.role === 'account_owner'));

  it('lets exactly one of two owners removing each other at once through, and keeps an owner', async () => {
    const [a, b] = await owners().then((list) => ['owner@kumo.test', 'co-owner@kumo.test'].map((email) => list.find((m) => m.email === email)!));
    expect(a && b).toBeTruthy();
    const [removeB, removeA] = await Promise.all([
      h.call({ method: 'DELETE', url: `/api/admin/stores/${kumo}/team-members/${b!.userId}`, cookie: cookies.get('owner@kumo.test') }),
      h.call({ method: 'DELETE', url: `/api/admin/stores/${kumo}/team-members/${a!.userId}`, cookie: cookies.get('co-owner@kumo.test') }),
    ]);
    const answers = [removeB, removeA].map((r) => [r.statusCode, r.statusCode === 204 ? null : json<{ error: string }>(r).error]);
    expect(answers).toContainEqual([204, null]);
    // The second decided again on the first's outcome: either it was no longer a member (401/403/404)
    // or it met the last-owner rule.
    const refused = answers.find(([status]) => status !== 204)!;
    expect([[409, 'last_owner'], [401, 'unauthenticated'], [403, 'forbidden'], [404, 'not_found']]).toContainEqual(refused);
    expect(await owners()).toHaveLength(1);
  });

  it('refuses to demote or remove the last owner', async () => {
    const [last] = await owners();
    expect(last).toBeDefined();
    const admin = cookies.get('admin');
    const demote = await h.call({ method: 'POST', url: `/api/admin/stores/${kumo}/team-members/${last!.userId}/role`, cookie: admin, body: { role: 'store_admin' } });
    expect([demote.statusCode, json<{ error: string }>(demote).error]).toEqual([409, 'last_owner']);
    const remove = await h.call({ method: 'DELETE', url: `/api/admin/stores/${kumo}/team-members/${last!.userId}`, cookie: admin });
    expect([remove.statusCode, json<{ error: string }>(remove).error]).toEqual([409, 'last_owner']);
  });
});
