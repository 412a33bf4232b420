import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scryptCost } from '../src/config.js';
import { hashPassword } from '../src/auth/passwords.js';
import { DEMO_PASSWORD, DEMO_USERS, startHarness, type Harness } from './support/backofficeHarness.js';
import { mailedInvitationToken } from './support/invitations.js';

/** Every route that checks or hashes a password is throttled like sign-in, and an invitation's token is looked up before any scrypt. */

describe('accepting an invitation', () => {
  let h: Harness;
  beforeAll(async () => {
    // The production cost: a route that hashed before looking up would take a visible time per guess.
    h = await startHarness({ PASSWORD_SCRYPT_N: String(2 ** 17) });
  });
  afterAll(() => h.stop());

  const accept = (token: string, remoteAddress: string, password = 'a-long-password-1') =>
    h.call({ method: 'POST', url: '/api/auth/invitations/accept', body: { token, password }, remoteAddress });
  const guess = () => randomBytes(32).toString('base64url');

  it('answers an unknown token at once, without hashing the password', async () => {
    const started = performance.now();
    await hashPassword('a-long-password-1', scryptCost(2 ** 17));
    const oneHash = performance.now() - started;

    const at = performance.now();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => accept(guess(), `198.51.100.${10 + i}`)));
    const elapsed = performance.now() - at;
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(404));
    // Eight hashes on a pool of four threads take at least two hashes' time; eight lookups take a few milliseconds.
    expect(elapsed).toBeLessThan(oneHash);
  });

  it('refuses the 30th guess from one client with 429 and Retry-After, while another client still accepts its invitation', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await accept(guess(), '198.51.100.99')).statusCode);
    expect(statuses.slice(0, 29)).toEqual(Array(29).fill(404));
    expect(statuses.slice(29)).toEqual([429, 429]);
    const refused = await accept(guess(), '198.51.100.99');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);

    // A real invitation is refused from the guessing client too, and accepted from elsewhere.
    const owner = await h.login('kumoOwner');
    const kumo = await h.storeId('kumo');
    const invited = await h.call({
      method: 'POST',
      url: `/api/admin/stores/${kumo}/team-members`,
      cookie: owner,
      body: { email: 'lee@newhire.test', name: 'Lee', role: 'store_user' },
    });
    expect(invited.statusCode).toBe(201);
    const token = await mailedInvitationToken(h.runtime, 'lee@newhire.test');
    expect((await accept(token, '198.51.100.99')).statusCode).toBe(429);
    expect((await accept(token, '203.0.113.20')).statusCode).toBe(200);
  });
});

describe("changing one's password", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  it('counts a wrong current password as a failed sign-in: a stolen session cannot guess the password', async () => {
    const session = await h.login('acmeViewer');
    const change = (currentPassword: string) =>
      h.call({
        method: 'POST',
        url: '/api/auth/password',
        cookie: session,
        remoteAddress: '198.51.100.44',
        body: { currentPassword, newPassword: 'another-long-password-2' },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await change(`wrong-${i}`)).statusCode);
    expect(statuses).toEqual([400, 400, 400, 400, 429, 429]);
    // Even the right password is refused from that client until the window ends, and so is signing in there.
    expect((await change(DEMO_PASSWORD)).statusCode).toBe(429);
    const signIn = await h.call({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: DEMO_USERS.acmeViewer, password: DEMO_PASSWORD },
      remoteAddress: '198.51.100.44',
    });
    expect(signIn.statusCode).toBe(429);
  });
});
