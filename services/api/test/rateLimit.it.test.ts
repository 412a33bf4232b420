import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, PublicConfig } from '@claims/contracts';
import { loadConfig, type Runtime } from '../src/index.js';
import { startPgliteRuntime, type PgliteRuntime } from './support/pgliteRuntime.js';
import { PRODUCTION_RATE_LIMITS } from './support/productionRateLimits.js';
import { orderKey } from '../src/platform/rateLimitPlugin.js';

let limited: PgliteRuntime;
let runtime: Runtime;

beforeAll(async () => {
  // The production defaults, whatever the test run's environment says.
  limited = await startPgliteRuntime('rate-limit', {
    ...PRODUCTION_RATE_LIMITS,
    RATE_LIMIT_RECOVERY_PER_IP: '5',
    RATE_LIMIT_RECOVERY_PER_ORDER: '3',
    SENTRY_DSN: '',
    SENTRY_ENVIRONMENT: '',
  });
  runtime = limited.runtime;
});

afterAll(async () => {
  await limited?.stop();
});

let nextIp = 10;
const freshIp = () => `198.51.100.${nextIp++}`;

const lookup = (order: string, ip: string, email = 'nobody@example.com') =>
  runtime.app.inject({
    method: 'GET',
    url: `/api/order-lookup?order=${encodeURIComponent(order)}&email=${encodeURIComponent(email)}`,
    remoteAddress: ip,
  });

const file = (sourceOrderId: string, ip: string) =>
  runtime.app.inject({
    method: 'POST',
    url: `/api/claims/${sourceOrderId}`,
    remoteAddress: ip,
    payload: { email: 'nobody@example.com' },
  });

function expectLimited(response: Awaited<ReturnType<typeof lookup>>) {
  expect(response.statusCode).toBe(429);
  expect(ApiError.parse(response.json())).toMatchObject({
    error: 'rate_limited',
    message: 'Too many attempts. Please wait a minute and try again.',
  });
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('rate limits of the customer lookup and filing', () => {
  it('normalises an order number the way the lookup matches it', () => {
    expect(orderKey(' #1001 ')).toBe('1001');
    expect(orderKey('K-2001')).toBe('k-2001');
    expect(orderKey('  ')).toBeNull();
    expect(orderKey(['1001'])).toBeNull();
  });

  it('allows 10 lookups a minute per order number, from any address, then answers 429 with Retry-After', async () => {
    for (const variant of ['1001', '#1001', ' 1001 ', '1001', '1001', '1001', '1001', '1001', '1001', '1001']) {
      expect((await lookup(variant, freshIp())).statusCode).toBe(404);
    }
    expectLimited(await lookup('#1001', freshIp()));
    // The right email does not get around it either; another order number is unaffected.
    expectLimited(await lookup('1001', freshIp(), 'ava@example.com'));
    expect((await lookup('1002', freshIp(), 'ben@example.com')).statusCode).toBe(200);
  });

  it('allows 20 lookups a minute per client address, then 429, while other addresses go on', async () => {
    const ip = freshIp();
    for (let i = 0; i < 20; i++) expect((await lookup(`ip-test-${i}`, ip)).statusCode).toBe(404);
    expectLimited(await lookup('ip-test-20', ip));
    expect((await lookup('ip-test-21', freshIp())).statusCode).toBe(404);
  });

  it('counts a request with no order number per address only', async () => {
    const ip = freshIp();
    const missing = await runtime.app.inject({
      method: 'GET',
      url: '/api/order-lookup?email=a%40b.c',
      remoteAddress: ip,
    });
    expect(missing.statusCode).toBe(400);
  });

  it('allows 5 filings a minute per order and per address', async () => {
    for (let i = 0; i < 5; i++) expect((await file('acme-5003', freshIp())).statusCode).toBe(400);
    expectLimited(await file('acme-5003', freshIp()));

    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await file(`other-${i}`, ip)).statusCode).toBe(400);
    expectLimited(await file('other-5', ip));
    // Messages and the claim view are not filings.
    expect(
      (await runtime.app.inject({ method: 'GET', url: '/api/claims/AAAAAAAAAAAAAAAAAAAAAA', remoteAddress: ip }))
        .statusCode,
    ).toBe(404);
  });

  it('allows 3 claim-link requests a minute per order number and 5 per address, each answered alike, then 429', async () => {
    const recover = (order: string, ip: string, email = 'nobody@example.com') =>
      runtime.app.inject({ method: 'POST', url: '/api/claim-links', remoteAddress: ip, payload: { order, email } });
    const answers = [
      await recover('1003', freshIp()),
      await recover('#1003', freshIp(), 'cara@example.com'),
      await recover(' 1003', freshIp()),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([202, 202, 202]);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expectLimited(await recover('1003', freshIp()));

    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await recover(`recovery-${i}`, ip)).statusCode).toBe(202);
    expectLimited(await recover('recovery-5', ip));
    expect((await recover('recovery-6', freshIp())).statusCode).toBe(202);
  });

  it('tells the portal that error reporting is off without a DSN and an environment', async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/public-config' });
    expect(response.statusCode).toBe(200);
    expect(PublicConfig.parse(response.json())).toEqual({ sentry: null });
    expect((await runtime.app.inject({ method: 'POST', url: '/api/monitoring', payload: 'x' })).statusCode).toBe(404);
  });
});

describe('configuration', () => {
  it('reads the limits, turns them off, and turns error reporting on only with both variables', () => {
    const base = { DATA_DIR: limited.dataDir };
    expect(loadConfig(base).rateLimit).toEqual({
      enabled: true,
      windowMs: 60_000,
      lookupPerIp: 20,
      lookupPerOrder: 10,
      filingPerIp: 5,
      filingPerOrder: 5,
      uploadPerIp: 30,
      recoveryPerIp: 5,
      recoveryPerOrder: 3,
    });
    expect(loadConfig({ ...base, RATE_LIMIT_ENABLED: 'false' }).rateLimit.enabled).toBe(false);
    expect(() => loadConfig({ ...base, RATE_LIMIT_ENABLED: 'false', NODE_ENV: 'production' })).toThrow(
      /refused when NODE_ENV=production/,
    );
    expect(loadConfig({ ...base, RATE_LIMIT_LOOKUP_PER_IP: '1000' }).rateLimit.lookupPerIp).toBe(1000);
    expect(() => loadConfig({ ...base, RATE_LIMIT_FILING_PER_IP: '-1' })).toThrow(/RATE_LIMIT_FILING_PER_IP/);
    expect(loadConfig({ ...base, SENTRY_DSN: 'https://k@o1.ingest.sentry.io/2' }).sentry).toBeNull();
    expect(
      loadConfig({ ...base, SENTRY_DSN: 'https://k@o1.ingest.sentry.io/2', SENTRY_ENVIRONMENT: 'prod' }).sentry,
    ).toEqual({ dsn: 'https://k@o1.ingest.sentry.io/2', environment: 'prod' });
  });
});
