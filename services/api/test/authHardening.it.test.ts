import path from 'node:path';
import { randomBytes, scryptSync } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoData, PendingMembershipList, TeamMemberList } from '@claims/contracts';
import { loadConfig } from '../src/index.js';
import { seedDemoUsers } from '../src/auth/users.js';
import { sweepExpired } from '../src/auth/expirySweep.js';
import {
  DEMO_PASSWORD,
  DEMO_USERS,
  OWN_ORIGIN,
  json,
  startHarness,
  type Harness,
} from './support/backofficeHarness.js';
import { mailedInvitationToken } from './support/invitations.js';

const FIXTURE = path.resolve(import.meta.dirname, '../../../fixtures/demo.json');
const cookieOf = (setCookie: unknown) => String(setCookie).split(';')[0]!;

describe('demo data is opt-in and never resets a user', () => {
  it('seeds nothing by default and refuses demo users in production', () => {
    const base = { DATA_DIR: '/tmp/x' };
    expect(loadConfig(base).seedDemo).toBe(false);
    expect(loadConfig({ ...base, SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', SEED_DEMO: 'true' })).toThrow(/SEED_DEMO.*production/);
    expect(
      loadConfig({
        ...base,
        NODE_ENV: 'production',
        METRICS_TOKEN: 'metrics-token-for-tests-0123456789',
        PUBLIC_URL: 'https://claims.example.com',
      }).production,
    ).toBe(true);
  });

  it('hashes at the OWASP scrypt cost unless told otherwise, and never below it in production', () => {
    const base = { DATA_DIR: '/tmp/x' };
    expect(loadConfig(base).passwordCost).toEqual({ N: 2 ** 17, r: 8, p: 1 });
    expect(loadConfig({ ...base, PASSWORD_SCRYPT_N: String(2 ** 14) }).passwordCost.N).toBe(2 ** 14);
    expect(() => loadConfig({ ...base, PASSWORD_SCRYPT_N: '20000' })).toThrow(/power of two/);
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', PASSWORD_SCRYPT_N: String(2 ** 14) })).toThrow(
      /PASSWORD_SCRYPT_N.*production/,
    );
  });

  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  it('leaves a changed password, a disabled account and changed roles alone on the next start', async () => {
    const db = h.runtime.ctx.database.db;
    const { users } = DemoData.parse(JSON.parse((await import('node:fs')).readFileSync(FIXTURE, 'utf8')));
    const adminHashBefore = (
      await sql<{
        password_hash: string;
      }>`select password_hash from users where email_lower = ${DEMO_USERS.admin}`.execute(db)
    ).rows[0]!;
    // The operator rotated the admin's password (here: to a hash of another password), disabled the
    // finance user and narrowed the support user to nothing.
    const rotated = `scrypt$16384$8$1$${randomBytes(16).toString('base64url')}$${randomBytes(64).toString('base64url')}`;
    await sql`update users set password_hash = ${rotated} where email_lower = ${DEMO_USERS.admin}`.execute(db);
    await sql`update users set disabled_at = now() where email_lower = ${DEMO_USERS.finance}`.execute(db);
    await sql`delete from user_roles where user_id = (select id from users where email_lower = ${DEMO_USERS.support})`.execute(
      db,
    );

    expect(await seedDemoUsers(h.runtime.ctx, users)).toBe(0);

    const login = (email: string) =>
      h.call({
        method: 'POST',
        url: '/api/auth/login',
        body: { email, password: DEMO_PASSWORD },
        remoteAddress: '192.0.2.10',
      });
    expect((await login(DEMO_USERS.admin)).statusCode).toBe(401);
    expect((await login(DEMO_USERS.finance)).statusCode).toBe(401);
    const support = await login(DEMO_USERS.support);
    expect(support.statusCode).toBe(200);
    expect(json<{ roles: string[] }>(support).roles).toEqual([]);
    expect(adminHashBefore.password_hash).not.toBe(rotated);
  });
});

describe('sign-in throttling', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ LOGIN_MAX_FAILURES_PER_CLIENT: '8', LOGIN_MAX_FAILURES_PER_EMAIL: '12' });
  });
  afterAll(() => h.stop());

  const login = (email: string, password: string, remoteAddress: string) =>
    h.call({ method: 'POST', url: '/api/auth/login', body: { email, password }, remoteAddress });

  it("locks the guesser's network out of an email, not the user signing in from elsewhere", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await login(DEMO_USERS.finance, `wrong-${i}`, '198.51.100.66')).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    expect((await login(DEMO_USERS.finance, DEMO_PASSWORD, '198.51.100.66')).statusCode).toBe(429);
    expect((await login(DEMO_USERS.finance, DEMO_PASSWORD, '203.0.113.7')).statusCode).toBe(200);
  });

  it('stops one address guessing across many emails', async () => {
    for (let i = 0; i < 8; i++)
      expect(
        (await login(`nobody-${i}@acme.test`, 'wrong-password', '198.51.100.77')).statusCode,
      ).toBeGreaterThanOrEqual(401);
    const refused = await login(DEMO_USERS.acmeViewer, DEMO_PASSWORD, '198.51.100.77');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);
    expect((await login(DEMO_USERS.acmeViewer, DEMO_PASSWORD, '203.0.113.8')).statusCode).toBe(200);
  });

  it('stops a guess at one email spread over many addresses at the email-wide ceiling', async () => {
    for (let i = 0; i < 12; i++) await login(DEMO_USERS.kumoOwner, 'wrong-password', `198.51.100.${100 + (i % 4)}`);
    expect((await login(DEMO_USERS.kumoOwner, DEMO_PASSWORD, '203.0.113.9')).statusCode).toBe(429);
  });

  it('counts every one of concurrent guesses before checking any', async () => {
    const guesses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => login(DEMO_USERS.acmeAgent, `wrong-${i}`, '198.51.100.88')),
    );
    const statuses = guesses.map((g) => g.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(4);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    expect((await login(DEMO_USERS.acmeAgent, DEMO_PASSWORD, '198.51.100.88')).statusCode).toBe(429);
  });

  it('re-hashes a password stored with an older scrypt cost at the next sign-in', async () => {
    const db = h.runtime.ctx.database.db;
    const salt = randomBytes(16);
    const { N } = h.runtime.ctx.config.passwordCost;
    const older = N / 2;
    const old = `scrypt$${older}$8$1$${salt.toString('base64url')}$${scryptSync(DEMO_PASSWORD, salt, 64, { N: older, r: 8, p: 1 }).toString('base64url')}`;
    await sql`update users set password_hash = ${old} where email_lower = ${DEMO_USERS.acmeOwner}`.execute(db);
    expect((await login(DEMO_USERS.acmeOwner, DEMO_PASSWORD, '203.0.113.10')).statusCode).toBe(200);
    const { rows } = await sql<{
      password_hash: string;
    }>`select password_hash from users where email_lower = ${DEMO_USERS.acmeOwner}`.execute(db);
    expect(rows[0]!.password_hash.startsWith(`scrypt$${N}$8$1$`)).toBe(true);
    expect((await login(DEMO_USERS.acmeOwner, DEMO_PASSWORD, '203.0.113.10')).statusCode).toBe(200);
  });

  it('sweeps expired counters and sessions', async () => {
    const db = h.runtime.ctx.database.db;
    await sql`update login_throttle set window_started_at = now() - interval '1 day'`.execute(db);
    await sql`update auth_sessions set expires_at = now() - interval '1 minute'`.execute(db);
    const swept = await sweepExpired(h.runtime.ctx);
    expect(swept.attempts).toBeGreaterThan(0);
    expect(swept.sessions).toBeGreaterThan(0);
    expect((await sql`select 1 from login_throttle`.execute(db)).rows).toEqual([]);
    expect((await sql`select 1 from auth_sessions`.execute(db)).rows).toEqual([]);
  });
});

describe('behind a TLS proxy', () => {
  const PUBLIC = 'https://claims.example.com';
  const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'claims.example.com' };
  let trusted: Harness;
  let direct: Harness;
  /** The agent signing in through the proxy, from a page of `origin`. */
  const proxiedLogin = (h: Harness, origin: string) =>
    h.call({
      method: 'POST',
      url: '/api/auth/login',
      headers: forwarded,
      origin,
      body: { email: DEMO_USERS.acmeAgent, password: DEMO_PASSWORD },
    });
  beforeAll(async () => {
    trusted = await startHarness({ TRUST_PROXY: '1' });
    direct = await startHarness();
  });
  afterAll(async () => {
    await trusted.stop();
    await direct.stop();
  });

  it('with TRUST_PROXY: a Secure __Host- cookie, and the public origin passes the Origin check', async () => {
    const signedIn = await proxiedLogin(trusted, PUBLIC);
    expect(signedIn.statusCode).toBe(200);
    const setCookie = String(signedIn.headers['set-cookie']);
    expect(setCookie).toMatch(/^__Host-session=[\w-]{40,};/);
    expect(setCookie).toContain('; Secure');
    expect(setCookie).toContain('Path=/');
    const cookie = cookieOf(setCookie);
    const out = await trusted.call({
      method: 'POST',
      url: '/api/auth/logout',
      cookie,
      headers: forwarded,
      origin: PUBLIC,
    });
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^__Host-session=; .*Max-Age=0; Secure/);
  });

  it('without TRUST_PROXY the forwarded headers are ignored', async () => {
    const refused = await proxiedLogin(direct, PUBLIC);
    expect(refused.statusCode).toBe(403);
    expect(json(refused)).toMatchObject({ error: 'origin_mismatch' });
    const plain = await proxiedLogin(direct, OWN_ORIGIN);
    expect(plain.statusCode).toBe(200);
    expect(String(plain.headers['set-cookie'])).toMatch(/^session=/);
    expect(String(plain.headers['set-cookie'])).not.toContain('Secure');
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });

  it('keys the sign-in limits on the forwarded client only when the proxy is trusted', async () => {
    const attempt = (h: Harness, client: string, password: string) =>
      h.call({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'x-forwarded-for': client },
        body: { email: DEMO_USERS.acmeViewer, password },
      });
    await Promise.all(
      [trusted, direct].map(async (h) => {
        for (let i = 0; i < 5; i++) await attempt(h, '198.51.100.66', `wrong-${i}`);
      }),
    );
    expect((await attempt(trusted, '203.0.113.7', DEMO_PASSWORD)).statusCode).toBe(200);
    expect((await attempt(direct, '203.0.113.7', DEMO_PASSWORD)).statusCode).toBe(429);
  });
});

describe('in production', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      NODE_ENV: 'production',
      SEED_DEMO: 'false',
      RATE_LIMIT_ENABLED: 'true',
      PASSWORD_SCRYPT_N: String(2 ** 17),
      METRICS_TOKEN: 'metrics-token-for-tests-0123456789',
      PUBLIC_URL: 'https://claims.example.com',
    });
    const { users } = DemoData.parse(JSON.parse((await import('node:fs')).readFileSync(FIXTURE, 'utf8')));
    await seedDemoUsers(
      h.runtime.ctx,
      users.filter((u) => u.email === DEMO_USERS.acmeOwner).map((u) => ({ ...u, roles: [] })),
    );
  });
  afterAll(() => h.stop());

  it('has no demo data, answers with HSTS and sets a Secure __Host- cookie', async () => {
    expect((await h.call({ method: 'GET', url: '/api/whitelabel/settings?store=acme' })).statusCode).toBe(404);
    const signedIn = await h.call({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: DEMO_USERS.acmeOwner, password: DEMO_PASSWORD },
    });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.headers['strict-transport-security']).toMatch(/^max-age=\d{7,}/);
    expect(String(signedIn.headers['set-cookie'])).toMatch(/^__Host-session=.*; Secure/);
  });
});

describe('invitations across tenants', () => {
  let h: Harness;
  let acme: string;
  let kumo: string;
  beforeAll(async () => {
    h = await startHarness();
    acme = await h.storeId('acme');
    kumo = await h.storeId('kumo');
  });
  afterAll(() => h.stop());

  it("never shows the inviter the token, and an existing user's grant waits for them to accept it", async () => {
    const kumoOwner = await h.login('kumoOwner');
    const acmeOwner = await h.login('acmeOwner');
    // A kumo owner invites a brand-new address: the answer carries no token.
    const invited = await h.invite(kumoOwner, kumo, { email: 'sam@newhire.test', name: 'Sam', role: 'store_user' });
    expect(invited.body).not.toMatch(/token/i);
    expect(json(invited)).toMatchObject({ pending: false, member: { status: 'invited' } });
    // acme then invites the same address (the user exists now): a pending offer, no grant.
    const offered = await h.invite(acmeOwner, acme, { email: 'sam@newhire.test', name: 'Sam', role: 'store_admin' });
    expect(json(offered)).toMatchObject({ pending: true, member: { status: 'invited' } });
    const acmeTeam = TeamMemberList.parse(
      json(await h.call({ method: 'GET', url: `/api/admin/stores/${acme}/team-members`, cookie: acmeOwner })),
    );
    expect(acmeTeam.data.some((m) => m.email === 'sam@newhire.test')).toBe(false);

    // Sam sets a password with the mailed token and signs in: only kumo's grant holds until Sam accepts acme's.
    const accepted = await h.call({
      method: 'POST',
      url: '/api/auth/invitations/accept',
      body: { token: await mailedInvitationToken(h.runtime, 'sam@newhire.test'), password: 'a-long-password-1' },
    });
    expect(accepted.statusCode).toBe(200);
    const signedIn = await h.call({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: 'sam@newhire.test', password: 'a-long-password-1' },
    });
    const sam = cookieOf(signedIn.headers['set-cookie']);
    expect(json<{ stores: Array<{ slug: string }> }>(signedIn).stores.map((s) => s.slug)).toEqual(['kumo']);
    expect(
      (await h.call({ method: 'GET', url: `/api/admin/stores/${acme}/team-members`, cookie: sam })).statusCode,
    ).toBe(404);

    const pending = PendingMembershipList.parse(
      json(await h.call({ method: 'GET', url: '/api/auth/memberships/pending', cookie: sam })),
    );
    expect(pending.data).toMatchObject([{ storeId: acme, role: 'store_admin' }]);
    // Another user cannot accept Sam's offer.
    const other = await h.call({
      method: 'POST',
      url: `/api/auth/memberships/${pending.data[0]!.id}/accept`,
      cookie: kumoOwner,
    });
    expect(other.statusCode).toBe(404);
    const accept = await h.call({
      method: 'POST',
      url: `/api/auth/memberships/${pending.data[0]!.id}/accept`,
      cookie: sam,
    });
    expect(accept.statusCode).toBe(204);
    expect(
      (await h.call({ method: 'POST', url: `/api/auth/memberships/${pending.data[0]!.id}/accept`, cookie: sam }))
        .statusCode,
    ).toBe(404);
    const me = json<{ stores: Array<{ slug: string }> }>(
      await h.call({ method: 'GET', url: '/api/auth/me', cookie: sam }),
    );
    expect(me.stores.map((s) => s.slug).sort()).toEqual(['acme', 'kumo']);

    const { rows } = await sql<{ id: string }>`select account_id as id from stores where id = ${acme}::uuid`.execute(
      h.runtime.ctx.database.db,
    );
    const { readStream } = await import('@claims/event-store');
    const audit = (await readStream(h.runtime.ctx.database.db, rows[0]!.id)).events.filter((e) =>
      JSON.stringify(e.data).includes('sam@newhire.test'),
    );
    expect(audit.map((e) => e.type)).toEqual(['TeamMemberInvited', 'TeamInvitationAccepted']);
  });

  it('does not let a tenant grant itself into an existing staff account', async () => {
    const kumoOwner = await h.login('kumoOwner');
    const offered = await h.invite(kumoOwner, kumo, { email: DEMO_USERS.acmeAgent, name: 'Riley', role: 'store_user' });
    expect(offered.body).not.toMatch(/token/i);
    const agent = await h.login('acmeAgent');
    const me = json<{ stores: Array<{ slug: string }> }>(
      await h.call({ method: 'GET', url: '/api/auth/me', cookie: agent }),
    );
    expect(me.stores.map((s) => s.slug)).toEqual(['acme']);
  });

  it('documents the pending-membership routes', async () => {
    const doc = json<{ paths: Record<string, Record<string, unknown>> }>(
      await h.call({ method: 'GET', url: '/api/openapi.json' }),
    );
    expect(doc.paths['/api/auth/memberships/pending']?.get).toBeDefined();
    expect(doc.paths['/api/auth/memberships/{membershipId}/accept']?.post).toBeDefined();
  });

  it('expired offers cannot be accepted and are swept', async () => {
    const kumoOwner = await h.login('kumoOwner');
    await h.call({
      method: 'POST',
      url: `/api/admin/stores/${kumo}/team-members`,
      cookie: kumoOwner,
      body: { email: DEMO_USERS.acmeViewer, name: 'V', role: 'store_user' },
    });
    const viewer = await h.login('acmeViewer');
    const [offer] = PendingMembershipList.parse(
      json(await h.call({ method: 'GET', url: '/api/auth/memberships/pending', cookie: viewer })),
    ).data;
    await sql`update team_pending_grants set expires_at = now() - interval '1 minute'`.execute(
      h.runtime.ctx.database.db,
    );
    expect(
      (await h.call({ method: 'POST', url: `/api/auth/memberships/${offer!.id}/accept`, cookie: viewer })).statusCode,
    ).toBe(404);
    expect((await sweepExpired(h.runtime.ctx)).offers).toBeGreaterThan(0);
  });
});
