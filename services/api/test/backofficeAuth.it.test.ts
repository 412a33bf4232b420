import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, MeResponse, ROLES } from '@claims/contracts';
import {
  DEMO_PASSWORD,
  DEMO_USERS,
  EVIL_ORIGIN,
  OWN_ORIGIN,
  json,
  startHarness,
  type DemoUser,
  type Harness,
} from './support/backofficeHarness.js';

describe('back-office sign-in', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  const login = (email: string, password: string, origin?: string) =>
    h.call({ method: 'POST', url: '/api/auth/login', body: { email, password }, origin: origin ?? null });

  it.each(Object.keys(DEMO_USERS) as DemoUser[])('signs in %s with the demo password and answers /me', async (user) => {
    const response = await login(`  ${DEMO_USERS[user].toUpperCase()} `, DEMO_PASSWORD);
    expect(response.statusCode).toBe(200);
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/^session=[\w-]{40,};/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).toContain('Path=/');
    const cookie = setCookie.split(';')[0]!;

    const me = MeResponse.parse(json(await h.call({ method: 'GET', url: '/api/auth/me', cookie })));
    expect(me.user.email).toBe(DEMO_USERS[user]);
    expect(me.roles.length).toBe(1);
    const role = ROLES[me.roles[0]!];
    expect(me.permissions).toEqual([...role.permissions].sort());
    for (const permission of me.permissions) expect(ALL_PERMISSIONS).toContain(permission);
    const slugs = me.stores.map((s) => s.slug).sort();
    const expectedSlugs = role.level === 'internal' ? ['acme', 'kumo'] : user === 'kumoOwner' ? ['kumo'] : ['acme'];
    expect(slugs).toEqual(expectedSlugs);
    for (const store of me.stores) expect(store.permissions).toEqual([...role.permissions].sort());
  });

  it('refuses a wrong password and an unknown email alike, without a cookie', async () => {
    const wrong = await login(DEMO_USERS.acmeAgent, 'not-the-password');
    expect(wrong.statusCode).toBe(401);
    expect(json(wrong)).toMatchObject({ error: 'unauthenticated' });
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const unknown = await login('nobody@acme.test', DEMO_PASSWORD);
    expect(unknown.statusCode).toBe(401);
    expect(json<{ message: string }>(unknown).message).toBe(json<{ message: string }>(wrong).message);
    // A failure is forgotten after a successful sign-in.
    expect((await login(DEMO_USERS.acmeAgent, DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('answers 401 without a session and for an unknown cookie', async () => {
    expect((await h.call({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    const bogus = await h.call({ method: 'GET', url: '/api/auth/me', cookie: 'session=not-a-real-session' });
    expect(bogus.statusCode).toBe(401);
    expect(json(bogus)).toMatchObject({ error: 'unauthenticated' });
  });

  it('stores only a hash of the session and of the password', async () => {
    const cookie = await h.login('acmeViewer');
    const value = cookie.split('=')[1]!;
    const { rows } = await sql<{ token_hash: string }>`select token_hash from auth_sessions`.execute(
      h.runtime.ctx.database.db,
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.token_hash)).not.toContain(value);
    const users = await sql<{ password_hash: string }>`select password_hash from users`.execute(
      h.runtime.ctx.database.db,
    );
    for (const row of users.rows) {
      expect(row.password_hash).toMatch(/^scrypt\$/);
      expect(row.password_hash).not.toContain(DEMO_PASSWORD);
    }
  });

  it('signs out: the old cookie no longer works', async () => {
    const cookie = await h.login('acmeViewer');
    expect((await h.call({ method: 'GET', url: '/api/auth/me', cookie })).statusCode).toBe(200);
    const out = await h.call({ method: 'POST', url: '/api/auth/logout', cookie });
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await h.call({ method: 'GET', url: '/api/auth/me', cookie })).statusCode).toBe(401);
  });

  describe('the Origin check', () => {
    let cookie: string;
    let claimId: string;
    beforeAll(async () => {
      cookie = await h.login('acmeAgent');
      claimId = (
        await h.fileClaim('acme-5001', {
          email: 'ava@example.com',
          fulfillmentIssues: [
            {
              sourceFulfillmentId: 'f-1001-1',
              issues: [{ sourceItemId: 'li-3', claimType: 'DAMAGED', quantity: 1, details: 'Chipped.', images: [] }],
            },
          ],
          resolution: { desiredMethod: 'REFUND', customerSignature: 'Ava Stone', updatedShippingAddress: null },
        })
      ).claimId;
    });
    const message = (origin: string | null) =>
      h.call({
        method: 'POST',
        url: `/api/admin/claims/${claimId}/messages`,
        cookie,
        origin,
        body: { messageContent: 'We are on it.' },
      });

    it('refuses a cookie-authenticated state change from another origin or without one', async () => {
      for (const origin of [EVIL_ORIGIN, null, 'http://localhost:8080', 'null']) {
        const response = await message(origin);
        expect(response.statusCode, String(origin)).toBe(403);
        expect(json(response)).toMatchObject({ error: 'origin_mismatch' });
      }
      const logout = await h.call({ method: 'POST', url: '/api/auth/logout', cookie, origin: EVIL_ORIGIN });
      expect(logout.statusCode).toBe(403);
    });

    it('accepts it from its own origin', async () => {
      expect((await message(OWN_ORIGIN)).statusCode).toBe(201);
      expect((await message('http://localhost:80')).statusCode).toBe(201);
    });

    it('lets reads through whatever the Origin', async () => {
      const response = await h.call({
        method: 'GET',
        url: `/api/admin/claims/${claimId}`,
        cookie,
        origin: EVIL_ORIGIN,
      });
      expect(response.statusCode).toBe(200);
    });

    it('refuses a sign-in posted from another site', async () => {
      const response = await login(DEMO_USERS.acmeAgent, DEMO_PASSWORD, EVIL_ORIGIN);
      expect(response.statusCode).toBe(403);
      expect(json(response)).toMatchObject({ error: 'origin_mismatch' });
      expect((await login(DEMO_USERS.acmeAgent, DEMO_PASSWORD, OWN_ORIGIN)).statusCode).toBe(200);
    });
  });

  it('slows down and then locks an email after repeated failures', async () => {
    const email = DEMO_USERS.finance;
    const started = Date.now();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await login(email, `wrong-${i}`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100 + 200 + 400 + 800);
    const locked = await login(email, DEMO_PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(json(locked)).toMatchObject({ error: 'rate_limited' });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(60);
    // Another account is not affected.
    expect((await login(DEMO_USERS.support, DEMO_PASSWORD)).statusCode).toBe(200);
  });
});
