import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, startRuntime, type Runtime } from '../src/index.js';
import { startHarness, type Harness } from './support/backofficeHarness.js';
import { PRODUCTION_RATE_LIMITS } from './support/productionRateLimits.js';

/** The portal's limits hold across processes (`API_PROCESSES=N`): two runtimes on one database count together. */

const LIMITS = PRODUCTION_RATE_LIMITS;

describe('rate limits with two processes', () => {
  let h: Harness;
  let second: Runtime;
  let dataDir: string;
  beforeAll(async () => {
    h = await startHarness(LIMITS);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-second-process-'));
    second = await startRuntime(
      loadConfig({
        ...process.env,
        ...LIMITS,
        DATABASE_URL: h.runtime.ctx.config.databaseUrl,
        KAFKA_BROKERS: '',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        SEED_DEMO: 'false',
        WORKERS: 'none',
      }),
      { listen: false },
    );
  });
  afterAll(async () => {
    await second?.stop();
    await h?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const processes = () => [h.runtime.app, second.app];

  it('refuses the 11th lookup of an order number a minute, whichever process serves each', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const app = processes()[i % 2]!;
      statuses.push(
        (
          await app.inject({
            method: 'GET',
            url: '/api/order-lookup?order=1001&email=nobody@example.com',
            remoteAddress: `198.51.100.${20 + i}`,
          })
        ).statusCode,
      );
    }
    expect(statuses).toEqual([...Array(10).fill(404), 429, 429]);
  });

  it('refuses the 6th filing from one address a minute, whichever process serves each', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const app = processes()[i % 2]!;
      statuses.push(
        (
          await app.inject({
            method: 'POST',
            url: `/api/claims/acme-50${10 + i}`,
            remoteAddress: '198.51.100.99',
            payload: { email: 'nobody@example.com' },
          })
        ).statusCode,
      );
    }
    expect(statuses.slice(0, 5).every((s) => s !== 429)).toBe(true);
    expect(statuses[5]).toBe(429);
  });
});
