import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_TOKEN_LIFETIME_DAYS, MAX_API_TOKEN_LIFETIME_DAYS, type ApiTokenList } from '@claims/contracts';
import type { Runtime } from '../src/index.js';
import { signIn, startPgliteRuntime, type PgliteRuntime } from './support/pgliteRuntime.js';

/** An API token never outlives its expiry, nor holds more than its creator holds now. */

let started: PgliteRuntime;
let runtime: Runtime;
let now = new Date().toISOString();
let acme: string;
let admin: string;

beforeAll(async () => {
  started = await startPgliteRuntime('api-token-life', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, { now: () => now });
  runtime = started.runtime;
  acme = (await runtime.app.inject({ method: 'GET', url: '/api/stores/acme' })).json<{ id: string }>().id;
  admin = await login('admin@orderprotection.test');
});

afterAll(() => started?.stop());

const login = (email: string) => signIn(runtime, email);

const asUser = (cookie: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
  runtime.app.inject({
    method,
    url,
    headers: { cookie, origin: 'http://localhost' },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const asToken = (token: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  runtime.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function createToken(cookie: string, body: object): Promise<string> {
  const res = await asUser(cookie, 'POST', `/api/stores/${acme}/api-tokens`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ token: string }>().token;
}

describe('a token and its creator', () => {
  it("loses what its creator loses: a demoted creator's token gets 403, a removed creator's token 401", async () => {
    const agent = await login('agent@acme.test');
    const agentId = (await asUser(agent, 'GET', '/api/auth/me')).json<{ user: { id: string } }>().user.id;
    const role = (r: string) =>
      asUser(admin, 'POST', `/api/admin/stores/${acme}/team-members/${agentId}/role`, { role: r });
    expect((await role('store_admin')).statusCode).toBe(200);
    const token = await createToken(agent, { name: 'integration', permissions: ['claim:read', 'webhook:create'] });
    const hook = () => asToken(token, 'POST', '/api/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/hook' });
    expect((await hook()).statusCode).toBe(201);

    // Back to store support, which may not create webhooks: the token may not either.
    expect((await role('store_support')).statusCode).toBe(200);
    const refused = await hook();
    expect(refused.statusCode).toBe(403);
    expect((await asToken(token, 'GET', '/api/v1/claims')).statusCode).toBe(200);

    // Removed from the store: the token stops working altogether.
    expect((await asUser(admin, 'DELETE', `/api/admin/stores/${acme}/team-members/${agentId}`)).statusCode).toBe(204);
    expect((await asToken(token, 'GET', '/api/v1/claims')).statusCode).toBe(401);
    expect((await hook()).statusCode).toBe(401);
  });
});

describe('token expiry', () => {
  it('answers 401 once the token has expired', async () => {
    const expiresAt = new Date(Date.parse(now) + 3600_000).toISOString();
    const created = await asUser(admin, 'POST', `/api/stores/${acme}/api-tokens`, {
      name: 'short',
      permissions: ['claim:read'],
      expiresAt,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ expiresAt });
    const { token } = created.json<{ token: string }>();
    expect((await asToken(token, 'GET', '/api/v1/claims')).statusCode).toBe(200);
    const saved = now;
    now = new Date(Date.parse(saved) + 3601_000).toISOString();
    try {
      const expired = await asToken(token, 'GET', '/api/v1/claims');
      expect(expired.statusCode).toBe(401);
      expect(expired.json()).toMatchObject({ error: 'unauthenticated' });
    } finally {
      now = saved;
    }
  });

  it("expires 90 days on when created without an expiry, as the contract's {name, permissions} still creates it", async () => {
    expect(DEFAULT_API_TOKEN_LIFETIME_DAYS).toBe(90);
    const created = await asUser(admin, 'POST', `/api/stores/${acme}/api-tokens`, {
      name: 'forgotten',
      permissions: ['claim:read'],
    });
    expect(created.statusCode).toBe(201);
    const { id, token, expiresAt } = created.json<{ id: string; token: string; expiresAt: string | null }>();
    expect(expiresAt).toBe(new Date(Date.parse(now) + 90 * 86_400_000).toISOString());
    const listed = (await asUser(admin, 'GET', `/api/stores/${acme}/api-tokens`))
      .json<ApiTokenList>()
      .data.find((t) => t.id === id);
    expect(listed?.expiresAt).toBe(expiresAt);
    const saved = now;
    try {
      now = new Date(Date.parse(saved) + 89 * 86_400_000).toISOString();
      expect((await asToken(token, 'GET', '/api/v1/claims')).statusCode).toBe(200);
      now = new Date(Date.parse(expiresAt!) + 1000).toISOString();
      expect((await asToken(token, 'GET', '/api/v1/claims')).statusCode).toBe(401);
    } finally {
      now = saved;
    }
  });

  it('refuses an expiry in the past or beyond the maximum lifetime', async () => {
    const at = (ms: number) => new Date(Date.parse(now) + ms).toISOString();
    for (const expiresAt of [at(-1000), at((MAX_API_TOKEN_LIFETIME_DAYS + 1) * 86_400_000)]) {
      const res = await asUser(admin, 'POST', `/api/stores/${acme}/api-tokens`, {
        name: 'bad',
        permissions: ['claim:read'],
        expiresAt,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation_failed' });
    }
  });
});

describe("a token's last use", () => {
  it('is shown to the store, and written at most once a minute however often the token is used', async () => {
    const created = await asUser(admin, 'POST', `/api/stores/${acme}/api-tokens`, {
      name: 'busy',
      permissions: ['claim:read'],
    });
    const { token, id } = created.json<{ token: string; id: string }>();
    const lastUsed = async () => {
      const list = (await asUser(admin, 'GET', `/api/stores/${acme}/api-tokens`)).json<ApiTokenList>();
      return list.data.find((t) => t.id === id)?.lastUsedAt;
    };
    expect(await lastUsed()).toBeNull();
    const saved = now;
    const at = (ms: number) => new Date(Date.parse(saved) + ms).toISOString();
    try {
      expect((await asToken(token, 'GET', '/api/v1/claims')).statusCode).toBe(200);
      expect(await lastUsed()).toBe(saved);
      now = at(59_000);
      expect((await asToken(token, 'GET', '/api/v1/claims')).statusCode).toBe(200);
      expect(await lastUsed()).toBe(saved);
      now = at(61_000);
      expect((await asToken(token, 'GET', '/api/v1/claims')).statusCode).toBe(200);
      expect(await lastUsed()).toBe(now);
    } finally {
      now = saved;
    }
  });
});
