import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeResponse } from '@claims/contracts';
import { DEMO_PASSWORD, DEMO_USERS, json, startHarness, type Harness } from './support/backofficeHarness.js';

/** A user's own name (user:update) and password (PostgreSQL). */
describe('profile and password', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h?.stop());

  it('changes the name with user:update only', async () => {
    const viewer = await h.login('acmeViewer');
    const refused = await h.call({ method: 'PUT', url: '/api/auth/profile', cookie: viewer, body: { name: 'Vic V.' } });
    expect(refused.statusCode).toBe(403);
    const owner = await h.login('acmeOwner');
    expect(
      (await h.call({ method: 'PUT', url: '/api/auth/profile', cookie: owner, body: { name: '  ' } })).statusCode,
    ).toBe(400);
    const renamed = await h.call({
      method: 'PUT',
      url: '/api/auth/profile',
      cookie: owner,
      body: { name: 'Alex Owner-Smith' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(MeResponse.parse(json(renamed)).user.name).toBe('Alex Owner-Smith');
    expect(MeResponse.parse(json(await h.call({ method: 'GET', url: '/api/auth/me', cookie: owner }))).user.name).toBe(
      'Alex Owner-Smith',
    );
    expect(MeResponse.parse(json(await h.call({ method: 'GET', url: '/api/auth/me', cookie: viewer }))).user.name).toBe(
      'Vic Viewer',
    );
  });

  it("changes the password after checking the current one, and signs out the user's other sessions", async () => {
    const here = await h.login('acmeAgent');
    const elsewhere = await h.login('acmeAgent');
    const change = (body: unknown) => h.call({ method: 'POST', url: '/api/auth/password', cookie: here, body });
    expect((await change({ currentPassword: 'wrong-password', newPassword: 'a-brand-new-pass' })).statusCode).toBe(400);
    expect((await change({ currentPassword: DEMO_PASSWORD, newPassword: 'short' })).statusCode).toBe(400);
    expect((await change({ currentPassword: DEMO_PASSWORD, newPassword: DEMO_PASSWORD })).statusCode).toBe(400);
    expect((await h.call({ method: 'GET', url: '/api/auth/me', cookie: elsewhere })).statusCode).toBe(200);
    const changed = await change({ currentPassword: DEMO_PASSWORD, newPassword: 'a-brand-new-pass' });
    expect(changed.statusCode, changed.body).toBe(204);
    expect((await h.call({ method: 'GET', url: '/api/auth/me', cookie: here })).statusCode).toBe(200);
    expect((await h.call({ method: 'GET', url: '/api/auth/me', cookie: elsewhere })).statusCode).toBe(401);
    const login = (password: string) =>
      h.call({ method: 'POST', url: '/api/auth/login', body: { email: DEMO_USERS.acmeAgent, password } });
    expect((await login(DEMO_PASSWORD)).statusCode).toBe(401);
    expect((await login('a-brand-new-pass')).statusCode).toBe(200);
  });
});
