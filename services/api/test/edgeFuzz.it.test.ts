import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../src/index.js';
import { signIn, startPgliteRuntime, type PgliteRuntime } from './support/pgliteRuntime.js';

/**
 * Hostile input at every route of the OpenAPI document: whatever arrives, the answer is never a 5xx; text that is not
 * Unicode, numbers past any amount, negative amounts and over-long strings are refused (4xx) with nothing recorded.
 */

interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  pathParams: string[];
  queryNames: string[];
  headerNames: string[];
  bodyKeys: string[] | null;
}

interface OpenApiParameter {
  in: string;
  name: string;
}
interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

let started: PgliteRuntime;
let runtime: Runtime;
let cookie: string;
let token: string;
let storeId: string;
let operations: Operation[];

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function operationsOf(doc: { paths: Record<string, Record<string, OpenApiOperation>> }): Operation[] {
  const found: Operation[] = [];
  for (const [route, byMethod] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = byMethod[method];
      if (!op) continue;
      const params = op.parameters ?? [];
      const json = op.requestBody?.content?.['application/json']?.schema;
      found.push({
        method: method.toUpperCase() as Operation['method'],
        path: route,
        pathParams: [...route.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
        queryNames: params.filter((p) => p.in === 'query').map((p) => p.name),
        headerNames: params.filter((p) => p.in === 'header').map((p) => p.name),
        bodyKeys: op.requestBody ? Object.keys(json?.properties ?? {}) : null,
      });
    }
  }
  return found;
}

beforeAll(async () => {
  started = await startPgliteRuntime('edge-fuzz');
  runtime = started.runtime;
  cookie = await signIn(runtime, 'admin@orderprotection.test');
  storeId = (await runtime.app.inject({ method: 'GET', url: '/api/stores/acme' })).json<{ id: string }>().id;
  const created = await runtime.app.inject({
    method: 'POST',
    url: `/api/stores/${storeId}/api-tokens`,
    headers: { cookie, origin: 'http://localhost' },
    payload: {
      name: 'fuzz',
      permissions: ['claim:read', 'claim:resolve', 'order:create', 'webhook:create', 'webhook:read'],
    },
  });
  token = created.json<{ token: string }>().token;
  operations = operationsOf((await runtime.app.inject({ method: 'GET', url: '/api/openapi.json' })).json());
});

afterAll(() => started?.stop());

const hostileString = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '\u0000',
      'a\u0000b',
      '"\\u0000"',
      '%00',
      '\u0007\u001b[31m',
      '__proto__',
      'constructor',
      'prototype',
      '../../etc/passwd',
      '1e309',
      '-1',
      '0',
      '00000000-0000-4000-8000-000000000000',
      'NaN',
      'true',
      'null',
      '\ud800',
      '\u202e\u{1F4A9}',
      "'; drop table events; --",
      '#1001',
      '1001',
      'ava@example.com',
      'x'.repeat(70_000),
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
);

const deep = (depth: number): unknown => (depth === 0 ? 'bottom' : { a: [deep(depth - 1)] });
const leaf = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: leaf },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, leaf, { maxKeys: 3 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(deep(200), JSON.parse('{"__proto__":{"polluted":true}}') as unknown, {
      constructor: { prototype: { polluted: true } },
    }),
  },
);

const bodyFor = (keys: string[]) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.record(Object.fromEntries(keys.map((k) => [k, hostileValue])), { requiredKeys: [] }) },
    { weight: 1, arbitrary: hostileValue },
    { weight: 1, arbitrary: fc.constantFrom('{"a":', '[[[[', '\u0000', '{"email":"\\u0000"}') },
  );

/** Lone surrogates cannot be percent-encoded as UTF-8: they go as the invalid bytes a hostile client would send. */
const encodePart = (value: string) => {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
};

/** Mostly the credentials the route expects, so hostile input gets past sign-in to the handlers. */
const credentials = fc.constantFrom('fitting', 'fitting', 'fitting', 'none', 'cookie', 'token');

/** Every event the store holds: a refused request records none. */
const recorded = async () =>
  Number(
    (await sql<{ n: string }>`select count(*)::text as n from events`.execute(runtime.ctx.database.db)).rows[0]!.n,
  );

/** A claim and an order of the store, so that hostile bodies reach the handlers rather than a 404. */
const known: Record<string, string> = {};

/** The operation's URL with the store's own store, claim and order ids, and ids that match nothing elsewhere. */
const urlOf = (op: Operation) =>
  op.path.replace(/\{(\w+)\}/g, (_, name: string) => known[name] ?? '00000000-0000-4000-8000-000000000000');

describe('hostile input at every route', () => {
  beforeAll(async () => {
    const claims = await sql<{ stream_id: string; order_id: string }>`
      select stream_id, data->>'orderId' as order_id from events where type = 'ClaimFiled' and store_id = ${storeId} limit 1`.execute(
      runtime.ctx.database.db,
    );
    Object.assign(known, { storeId, claimId: claims.rows[0]!.stream_id, orderId: claims.rows[0]!.order_id });
  });

  it.each([
    ['a lone surrogate', '\ud800'],
    ['a lone low surrogate amid text', 'ok \udfff ok'],
    ['a huge number', 1e300],
    ["a number past the ledger's bigint", 9.3e16],
    ['a negative amount', -129],
    ['an over-long string', 'x'.repeat(200_000)],
  ])('refuses %s in every body field of every operation with a 4xx, recording nothing', async (_, value) => {
    const before = await recorded();
    const wrong: string[] = [];
    for (const op of operations.filter(
      (o) => o.bodyKeys !== null && o.bodyKeys.length > 0 && o.path !== '/api/auth/logout',
    )) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (op.path.startsWith('/api/v1/')) headers.authorization = `Bearer ${token}`;
      else Object.assign(headers, { cookie, origin: 'http://localhost' });
      for (const key of op.bodyKeys!) {
        const res = await runtime.app.inject({
          method: op.method,
          url: urlOf(op),
          headers,
          payload: JSON.stringify({ [key]: value }),
        });
        if (res.statusCode < 400 || res.statusCode >= 500)
          wrong.push(`${op.method} ${op.path} ${key}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await recorded()).toBe(before);
  });

  it('refuses a lone surrogate as an object key too, before any handler', async () => {
    const res = await runtime.app.inject({
      method: 'PUT',
      url: `/api/admin/stores/${storeId}/settings/contact`,
      headers: { cookie, origin: 'http://localhost', 'content-type': 'application/json' },
      payload: '{"value":{"supportEmail":null,"supportPhone":null,"\\ud800":1}}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'validation_failed',
      message: expect.stringContaining('lone surrogate'),
    });
  });

  it('refuses control characters at the edge with validation_failed', async () => {
    const res = await runtime.app.inject({ method: 'GET', url: '/api/order-lookup?email=%22%5Cu0000%22&order=%00' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_failed' });
    const body = await runtime.app.inject({
      method: 'POST',
      url: '/api/media/upload-url',
      payload: { filename: 'a\u0000.png', contentType: 'image/png', mediaType: 'CLAIM' },
    });
    expect(body.statusCode).toBe(400);
    const key = await runtime.app.inject({ method: 'PUT', url: '/api/sessions', payload: { 'a\u0000': 1 } });
    expect(key.statusCode).toBe(400);
  });

  it('answers every operation of the OpenAPI document without a 5xx (seeded)', async () => {
    expect(operations.length).toBeGreaterThan(30);
    const request = fc.nat().chain((n) => {
      const op = operations[n % operations.length]!;
      return fc.record({
        op: fc.constant(op),
        pathValues: fc.tuple(...op.pathParams.map(() => fc.oneof(hostileString, fc.constant(storeId)))),
        query: fc.record(Object.fromEntries([...op.queryNames, 'extra'].map((k) => [k, hostileString])), {
          requiredKeys: [],
        }),
        headers: fc.dictionary(
          fc.constantFrom(...op.headerNames, 'idempotency-key', 'x-correlation-id'),
          hostileString,
          { maxKeys: 2 },
        ),
        body: op.bodyKeys === null ? fc.constant(undefined) : bodyFor(op.bodyKeys),
        auth: credentials,
      });
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ op, pathValues, query, headers, body, auth }) => {
        // Signing out would end the shared session the other runs use.
        if (op.path === '/api/auth/logout') return;
        let url = op.path;
        op.pathParams.forEach((name, i) => {
          url = url.replace(`{${name}}`, encodePart(String(pathValues[i])));
        });
        const search = new URLSearchParams(
          Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined),
        ).toString();
        const sent: Record<string, string> = {};
        for (const [k, v] of Object.entries(headers))
          if (!v.includes('\r') && !v.includes('\n') && !v.includes('\u0000') && v.length < 8000) sent[k] = v;
        const as = auth === 'fitting' ? (op.path.startsWith('/api/v1/') ? 'token' : 'cookie') : auth;
        if (as === 'cookie') Object.assign(sent, { cookie, origin: 'http://localhost' });
        if (as === 'token') sent.authorization = `Bearer ${token}`;
        const payload =
          body === undefined
            ? undefined
            : typeof body === 'string' && body.startsWith('{')
              ? body
              : JSON.stringify(body);
        if (payload !== undefined) sent['content-type'] = 'application/json';
        const res = await runtime.app.inject({
          method: op.method,
          url: search ? `${url}?${search}` : url,
          headers: sent,
          ...(payload === undefined ? {} : { payload }),
        });
        if (res.statusCode >= 500)
          throw new Error(
            `${op.method} ${url}?${search} ${payload?.slice(0, 300) ?? ''} answered ${res.statusCode}: ${res.body.slice(0, 500)}`,
          );
      }),
      { seed: 20261123, numRuns: 400, endOnFailure: true },
    );
  });
});
