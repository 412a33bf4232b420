import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClaimDetail, AdminClaimPage, type Permission } from '@claims/contracts';
import { upsertOrder } from '../src/catalog/orderRepository.js';
import {
  DEMO_STORES,
  DEMO_USER_NAMES,
  statusByTable,
  type DemoStore,
  json,
  oneItemClaim,
  startHarness,
  type DemoUser,
  type Harness,
} from './support/backofficeHarness.js';
import { testOrder } from './support/testOrders.js';

describe('the permission table on every back-office endpoint', () => {
  let h: Harness;
  const cookies = new Map<DemoUser, string>();
  const storeIds = new Map<DemoStore, string>();
  /** One fresh claim per user and store, so each user's resolve meets an unresolved claim. */
  const claims = new Map<string, string>();
  /** A token per store for the revoke walk. */
  const tokens = new Map<DemoStore, string>();

  beforeAll(async () => {
    h = await startHarness();
    for (const user of DEMO_USER_NAMES) cookies.set(user, await h.login(user));
    for (const slug of DEMO_STORES) storeIds.set(slug, await h.storeId(slug));
    for (const slug of DEMO_STORES) {
      for (const user of DEMO_USER_NAMES) {
        const number = `${slug.toUpperCase()}-${user.toUpperCase()}`;
        const input = testOrder(number, { currency: slug === 'kumo' ? 'JPY' : 'USD' });
        await upsertOrder(h.runtime.ctx.database.db, storeIds.get(slug)!, `src-${number}`, input);
        const filed = await h.fileClaim(
          `src-${number}`,
          oneItemClaim(input.customerEmail, `${number}-f`, `${number}-li`),
        );
        claims.set(`${user}@${slug}`, filed.claimId);
      }
      const owner = slug === 'acme' ? 'acmeOwner' : 'kumoOwner';
      const created = await h.call({
        method: 'POST',
        url: `/api/stores/${storeIds.get(slug)}/api-tokens`,
        cookie: cookies.get(owner),
        body: { name: 'to revoke', permissions: ['claim:read'] },
      });
      expect(created.statusCode).toBe(201);
      tokens.set(slug, json<{ id: string }>(created).id);
    }
    await h.runtime.settle();
  });
  afterAll(() => h.stop());

  const cases = DEMO_USER_NAMES.flatMap((user) => DEMO_STORES.map((store) => [user, store] as const));

  it.each(cases)('%s on %s answers as the table says', async (user, store) => {
    const cookie = cookies.get(user)!;
    const storeId = storeIds.get(store)!;
    const claimId = claims.get(`${user}@${store}`)!;
    const walk: Array<{ name: string; permission: Permission; ok: number; run: () => ReturnType<Harness['call']> }> = [
      {
        name: 'list by store',
        permission: 'claim:read',
        ok: 200,
        run: () => h.call({ method: 'GET', url: `/api/admin/claims?store=${storeId}`, cookie }),
      },
      {
        name: 'detail',
        permission: 'claim:read',
        ok: 200,
        run: () => h.call({ method: 'GET', url: `/api/admin/claims/${claimId}`, cookie }),
      },
      {
        name: 'timeline',
        permission: 'claim:read',
        ok: 200,
        run: () => h.call({ method: 'GET', url: `/api/admin/claims/${claimId}/timeline`, cookie }),
      },
      {
        name: 'status',
        permission: 'claim:update',
        ok: 200,
        run: () =>
          h.call({
            method: 'POST',
            url: `/api/admin/claims/${claimId}/status`,
            cookie,
            body: { status: 'OPEN', note: 'Looking into it' },
          }),
      },
      {
        name: 'message',
        permission: 'message:create',
        ok: 201,
        run: () =>
          h.call({
            method: 'POST',
            url: `/api/admin/claims/${claimId}/messages`,
            cookie,
            body: { messageContent: 'Hello from the store' },
          }),
      },
      {
        name: 'resolve',
        permission: 'claim:resolve',
        ok: 200,
        run: () =>
          h.call({
            method: 'POST',
            url: `/api/admin/claims/${claimId}/resolve`,
            cookie,
            body: { resolutionType: 'RESHIP', reason: 'RESHIP' },
          }),
      },
      {
        name: 'create token',
        permission: 'api-tokens:create',
        ok: 201,
        run: () =>
          h.call({
            method: 'POST',
            url: `/api/stores/${storeId}/api-tokens`,
            cookie,
            body: { name: `${user}'s token`, permissions: ['claim:read'] },
          }),
      },
      {
        name: 'list tokens',
        permission: 'api-tokens:read',
        ok: 200,
        run: () => h.call({ method: 'GET', url: `/api/stores/${storeId}/api-tokens`, cookie }),
      },
      {
        name: 'revoke token',
        permission: 'api-tokens:delete',
        ok: 204,
        run: () => h.call({ method: 'DELETE', url: `/api/stores/${storeId}/api-tokens/${tokens.get(store)}`, cookie }),
      },
      {
        name: 'read capabilities',
        permission: 'capabilities:read',
        ok: 200,
        run: () => h.call({ method: 'GET', url: `/api/admin/stores/${storeId}/settings/capabilities`, cookie }),
      },
      {
        name: 'change widget',
        permission: 'settings-widget:update',
        ok: 200,
        run: () =>
          h.call({
            method: 'PUT',
            url: `/api/admin/stores/${storeId}/settings/widget`,
            cookie,
            body: { value: { enabled: true, defaultProtected: false } },
          }),
      },
    ];
    const answers: Record<string, number> = {};
    const wanted: Record<string, number> = {};
    for (const step of walk) {
      const response = await step.run();
      answers[step.name] = response.statusCode;
      wanted[step.name] = statusByTable(user, step.permission, store, step.ok);
      if (response.statusCode === 404)
        expect(json<{ error: string }>(response).error).toMatch(/^(not_found|claim_not_found)$/);
      if (response.statusCode === 403) expect(json(response)).toMatchObject({ error: 'forbidden' });
    }
    expect(answers).toEqual(wanted);

    // What was refused left no trace: the claim is unresolved unless this user may resolve it.
    const after = AdminClaimDetail.parse(
      json(await h.call({ method: 'GET', url: `/api/admin/claims/${claimId}`, cookie: cookies.get('admin') })),
    );
    const resolved = wanted.resolve === 200;
    expect(after.resolutions.length > 0).toBe(resolved);
    expect(after.status).toBe(resolved ? 'RESOLVED' : wanted.status === 200 ? 'OPEN' : 'NEW');
    expect(after.messages.length).toBe(wanted.message === 201 ? 1 : 0);
    if (resolved) expect(after.resolutions[0]!.resolvedBy.type).toBe('user');
  });

  it("holds the spec's rows independently of the table data", async () => {
    const acme = storeIds.get('acme')!;
    const claimId = claims.get('acmeViewer@acme')!; // unresolved: the viewer may not resolve
    const resolve = (user: DemoUser) =>
      h.call({
        method: 'POST',
        url: `/api/admin/claims/${claimId}/resolve`,
        cookie: cookies.get(user),
        body: { resolutionType: 'DENY', reason: 'NOT_COVERED', expectedVersion: 0 },
      });
    expect((await resolve('acmeViewer')).statusCode).toBe(403); // store_user: no claim:resolve
    expect((await resolve('finance')).statusCode).toBe(403); // finance: reads only
    expect((await resolve('kumoOwner')).statusCode).toBe(404); // another tenant
    expect((await resolve('acmeAgent')).statusCode).toBe(409); // store_support may; the version is stale
    const token = (user: DemoUser) =>
      h.call({
        method: 'POST',
        url: `/api/stores/${acme}/api-tokens`,
        cookie: cookies.get(user),
        body: { name: 'x', permissions: ['claim:read'] },
      });
    expect((await token('support')).statusCode).toBe(403);
    expect((await token('acmeAgent')).statusCode).toBe(403);
    expect((await token('acmeOwner')).statusCode).toBe(201);
    expect((await token('kumoOwner')).statusCode).toBe(404);
  });

  it("lists only the claims of the user's stores, with filters and a keyset cursor", async () => {
    const slugsSeen = async (user: DemoUser, query = '') => {
      const page = AdminClaimPage.parse(
        json(await h.call({ method: 'GET', url: `/api/admin/claims?limit=100${query}`, cookie: cookies.get(user) })),
      );
      return new Set(page.data.map((c) => c.store.slug));
    };
    expect(await slugsSeen('admin')).toEqual(new Set(['acme', 'kumo']));
    expect(await slugsSeen('finance')).toEqual(new Set(['acme', 'kumo']));
    expect(await slugsSeen('acmeOwner')).toEqual(new Set(['acme']));
    expect(await slugsSeen('acmeViewer')).toEqual(new Set(['acme']));
    expect(await slugsSeen('kumoOwner')).toEqual(new Set(['kumo']));
    // A search for another tenant's claim finds nothing.
    const kumoClaim = AdminClaimDetail.parse(
      json(
        await h.call({
          method: 'GET',
          url: `/api/admin/claims/${claims.get('admin@kumo')}`,
          cookie: cookies.get('admin'),
        }),
      ),
    );
    expect((await slugsSeen('acmeOwner', `&search=${kumoClaim.claimNumber}`)).size).toBe(0);
    expect(await slugsSeen('kumoOwner', `&search=%23${kumoClaim.claimNumber}`)).toEqual(new Set(['kumo']));

    // Walk every acme claim one row per page: no repeats, no gaps.
    const all = AdminClaimPage.parse(
      json(
        await h.call({
          method: 'GET',
          url: `/api/admin/claims?limit=100&store=${storeIds.get('acme')}`,
          cookie: cookies.get('acmeOwner'),
        }),
      ),
    );
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page = AdminClaimPage.parse(
        json(
          await h.call({
            method: 'GET',
            url: `/api/admin/claims?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
            cookie: cookies.get('acmeOwner'),
          }),
        ),
      );
      walked.push(...page.data.map((c) => c.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(walked).toEqual(all.data.map((c) => c.id));
    expect(new Set(walked).size).toBe(walked.length);

    const resolved = AdminClaimPage.parse(
      json(
        await h.call({
          method: 'GET',
          url: '/api/admin/claims?status=RESOLVED,DENIED&limit=100',
          cookie: cookies.get('admin'),
        }),
      ),
    );
    expect(resolved.data.length).toBeGreaterThan(0);
    for (const row of resolved.data) expect(['RESOLVED', 'DENIED']).toContain(row.status);
    const bad = await h.call({ method: 'GET', url: '/api/admin/claims?status=NOPE', cookie: cookies.get('admin') });
    expect(bad.statusCode).toBe(400);
    const badCursor = await h.call({
      method: 'GET',
      url: '/api/admin/claims?cursor=garbage',
      cookie: cookies.get('admin'),
    });
    expect(badCursor.statusCode).toBe(400);
  });

  it('answers 401 on every endpoint without a session, and to an API token', async () => {
    const claimId = claims.get('admin@acme')!;
    const acme = storeIds.get('acme')!;
    const created = await h.call({
      method: 'POST',
      url: `/api/stores/${acme}/api-tokens`,
      cookie: cookies.get('acmeOwner'),
      body: { name: 'reader', permissions: ['claim:read', 'claim:resolve'] },
    });
    const bearer = json<{ token: string }>(created).token;
    const endpoints: Array<[NonNullable<Parameters<Harness['call']>[0]['method']>, string, unknown?]> = [
      ['GET', '/api/auth/me'],
      ['GET', '/api/admin/claims'],
      ['GET', `/api/admin/claims/${claimId}`],
      ['GET', `/api/admin/claims/${claimId}/timeline`],
      ['POST', `/api/admin/claims/${claimId}/status`, { status: 'OPEN' }],
      ['POST', `/api/admin/claims/${claimId}/messages`, { messageContent: 'x' }],
      ['POST', `/api/admin/claims/${claimId}/resolve`, { resolutionType: 'REFUND' }],
      ['POST', `/api/stores/${acme}/api-tokens`, { name: 'x', permissions: ['claim:read'] }],
      ['GET', `/api/stores/${acme}/api-tokens`],
      ['DELETE', `/api/stores/${acme}/api-tokens/${tokens.get('acme')}`],
      ['GET', `/api/admin/stores/${acme}/settings`],
      ['PUT', `/api/admin/stores/${acme}/settings/widget`, { value: { enabled: true, defaultProtected: false } }],
      ['GET', '/api/admin/notification-preferences'],
      [
        'PUT',
        `/api/admin/stores/${acme}/notification-preferences`,
        { settings: [{ kind: 'new_claim', enabled: false }] },
      ],
    ];
    for (const [method, url, body] of endpoints) {
      const anonymous = await h.call({ method, url, body });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      expect(json(anonymous)).toMatchObject({ error: 'unauthenticated' });
      expect((await h.call({ method, url, body, token: bearer })).statusCode, `${method} ${url} with a token`).toBe(
        401,
      );
    }
  });

  it('shows the timeline of a claim in order, with the user as actor', async () => {
    const claimId = claims.get('acmeAgent@acme')!;
    await h.runtime.settle();
    const timeline = json<{ data: Array<{ source: string; eventType: string; actor: { type: string } }> }>(
      await h.call({ method: 'GET', url: `/api/admin/claims/${claimId}/timeline`, cookie: cookies.get('acmeAgent') }),
    );
    const claimLines = timeline.data.filter((e) => e.source === 'claim');
    expect(claimLines.map((e) => e.eventType)).toEqual([
      'ClaimFiled',
      'ClaimStatusChanged',
      'ClaimMessageSent',
      'ClaimResolved',
    ]);
    expect(claimLines.slice(1).every((e) => e.actor.type === 'user')).toBe(true);
    // The claim's mail is merged in, as the notifications worker's.
    expect(timeline.data.filter((e) => e.source === 'notifications').every((e) => e.actor.type === 'system')).toBe(
      true,
    );
  });
});
