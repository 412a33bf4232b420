import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../src/index.js';
import { expireIdempotencyKeys, REDACTED_SECRET } from '../src/http/idempotency.js';
import { signIn, startPgliteRuntime, type PgliteRuntime } from './support/pgliteRuntime.js';

/** Secrets the API hands out once (webhook secrets, claim tokens) are kept neither in stored answers nor in logs. */

let started: PgliteRuntime;
let runtime: Runtime;
let token: string;
let now = new Date().toISOString();
const logLines: string[] = [];

beforeAll(async () => {
  const logDestination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  started = await startPgliteRuntime(
    'secrets',
    { LOG_LEVEL: 'info', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
    { now: () => now, logDestination },
  );
  runtime = started.runtime;
  const cookie = await signIn(runtime, 'admin@orderprotection.test');
  const storeId = (await runtime.app.inject({ method: 'GET', url: '/api/stores/acme' })).json<{ id: string }>().id;
  const created = await runtime.app.inject({
    method: 'POST',
    url: `/api/stores/${storeId}/api-tokens`,
    headers: { cookie, origin: 'http://localhost' },
    payload: { name: 'secrets', permissions: ['webhook:create', 'webhook:read'] },
  });
  token = created.json<{ token: string }>().token;
});

afterAll(() => started?.stop());

const createEndpoint = (key: string) =>
  runtime.app.inject({
    method: 'POST',
    url: '/api/v1/webhook-endpoints',
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': key },
    payload: { url: 'http://127.0.0.1:9/hook' },
  });

describe('idempotent answers', () => {
  it('keeps no webhook secret: a replay answers the same body with the secret redacted', async () => {
    const first = await createEndpoint('create-endpoint-1');
    expect(first.statusCode).toBe(201);
    const { id, secret } = first.json<{ id: string; secret: string }>();
    expect(secret).toMatch(/^whsec_/);

    const { rows } = await sql<{ response_body: string }>`select response_body from idempotency_keys`.execute(
      runtime.ctx.database.db,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.response_body).not.toMatch(/whsec_(?!…redacted)/);

    const replay = await createEndpoint('create-endpoint-1');
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toMatchObject({ id, secret: REDACTED_SECRET });
  });

  it('forgets keys after 24 hours: the same key then makes a new request', async () => {
    const first = (await createEndpoint('create-endpoint-2')).json<{ id: string }>();
    expect((await createEndpoint('create-endpoint-2')).json<{ id: string }>().id).toBe(first.id);
    expect(await expireIdempotencyKeys(runtime.ctx, new Date(Date.parse(now) + 23 * 3600_000).toISOString())).toBe(0);
    const saved = now;
    now = new Date(Date.parse(saved) + 25 * 3600_000).toISOString();
    try {
      expect(await expireIdempotencyKeys(runtime.ctx, now)).toBeGreaterThan(0);
      const again = await createEndpoint('create-endpoint-2');
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(again.json<{ id: string }>().id).not.toBe(first.id);
    } finally {
      now = saved;
    }
  });
});

describe('logged request lines', () => {
  it('carry no claim token', async () => {
    const claimToken = 'Zm9vYmFyYmF6cXV1eGZvb2JhcmJhenF1dXhmb29iYXI';
    logLines.length = 0;
    await runtime.app.inject({ method: 'GET', url: `/api/claims/${claimToken}` });
    await runtime.app.inject({ method: 'GET', url: `/api/claims/${claimToken}/messages?x=1` });
    await runtime.app.inject({ method: 'GET', url: `/view/${claimToken}` });
    const logged = logLines.join('');
    expect(logged).toContain('/api/claims/[token]');
    expect(logged).toContain('/view/[token]');
    expect(logged).not.toContain(claimToken);
  });
});
