import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/index.js';
import { json, startHarness, type Harness } from './support/backofficeHarness.js';

/** `/api/health` tells anyone which component is degraded, and only an operator why (a broker list, a raw error). */

const METRICS_TOKEN = 'health-disclosure-metrics-token';
// A broker that never answers, at an address nobody outside should learn.
const BROKER = '127.0.0.1:9';

type Health = { status: string; components: Record<string, { status: string; reason?: string }> };

describe('readiness while Kafka is down', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ KAFKA_BROKERS: BROKER, METRICS_TOKEN });
  });
  afterAll(() => h.stop());

  const health = (options: { cookie?: string; headers?: Record<string, string> } = {}) =>
    h.call({ method: 'GET', url: '/api/health', ...options });

  it('names each component ok or degraded to anyone, with no reason, broker or error text', async () => {
    const answer = await health();
    expect(answer.statusCode).toBe(503);
    const body = json<Health>(answer);
    expect(body.status).toBe('unavailable');
    expect(body.components.kafka).toEqual({ status: 'degraded' });
    expect(body.components.database).toEqual({ status: 'ok' });
    for (const component of Object.values(body.components)) expect(Object.keys(component)).toEqual(['status']);
    expect(answer.body).not.toContain(BROKER);
    expect(answer.body).not.toMatch(/reason|ECONNREFUSED|broker/i);
    // A wrong token or a merchant's session learns no more.
    expect(
      json<Health>(await health({ headers: { authorization: 'Bearer not-the-metrics-token' } })).components.kafka,
    ).toEqual({ status: 'degraded' });
    expect(json<Health>(await health({ cookie: await h.login('acmeOwner') })).components.kafka).toEqual({
      status: 'degraded',
    });
  });

  it('gives the reasons to the metrics token and to a signed-in admin', async () => {
    for (const options of [
      { headers: { authorization: `Bearer ${METRICS_TOKEN}` } },
      { cookie: await h.login('admin') },
    ]) {
      const answer = await health(options);
      expect(answer.statusCode).toBe(503);
      expect(json<Health>(answer).components.kafka).toEqual({
        status: 'failing',
        reason: expect.stringContaining('does not answer'),
      });
    }
  });
});

describe('production without PUBLIC_URL', () => {
  it("refuses to start: mailed links would point at the server's own address", () => {
    const production = {
      DATA_DIR: '/tmp/x',
      NODE_ENV: 'production',
      METRICS_TOKEN: 'metrics-token-for-tests-0123456789',
    };
    expect(() => loadConfig(production)).toThrow(/PUBLIC_URL.*production/);
    expect(loadConfig({ ...production, PUBLIC_URL: 'https://claims.example.com/' }).publicUrl).toBe(
      'https://claims.example.com',
    );
  });
});
