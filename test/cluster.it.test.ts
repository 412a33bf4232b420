import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClaimPage, FileClaimResponse } from '@claims/contracts';
import { acmeApiToken, ApiClient } from './support/faultLoad.js';
import { freePort } from './support/faultInfra.js';
import { filingBody, orderBody } from './support/orderBody.js';
import { eventually } from './support/testDatabase.js';
import { testEnvironment, type TestEnvironment } from './support/testRuntime.js';

/**
 * `npm start` with API_PROCESSES=2 on real PostgreSQL and Kafka: a cluster primary running the workers and two
 * HTTP processes sharing the port. Appends made in an HTTP process reach the read models through the primary's
 * relay and projectors, a dead HTTP process is replaced, and each scrape says which process answered.
 */

const root = path.resolve(import.meta.dirname, '..');
const METRICS_TOKEN = 'cluster-test-metrics-token';
let environment: TestEnvironment;
let primary: ChildProcess;
let api: ApiClient;

/** One scrape on a connection of its own: the cluster balances connections, not requests. */
const scrape = () =>
  new Promise<string>((resolve, reject) => {
    http
      .get(
        `${api.base}/api/metrics`,
        { agent: false, headers: { authorization: `Bearer ${METRICS_TOKEN}` } },
        (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve(body));
        },
      )
      .on('error', reject)
      .setTimeout(5_000, function timedOut(this: http.ClientRequest) {
        this.destroy(new Error('no answer within 5 s'));
      });
  });

const rolesOf = async (scrapes: number) => {
  const seen = new Map<string, string>();
  for (let i = 0; i < scrapes; i++) {
    const line = (await scrape()).split('\n').find((l) => l.startsWith('process_role{'));
    const match = line && /role="([^"]+)",pid="(\d+)"/.exec(line);
    if (match) seen.set(match[2]!, match[1]!);
  }
  return seen;
};

beforeAll(async () => {
  environment = await testEnvironment('postgres+kafka');
  const port = await freePort();
  primary = spawn(process.execPath, ['--import', 'tsx', 'services/api/src/main.ts'], {
    cwd: root,
    env: {
      ...environment.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      API_PROCESSES: '2',
      METRICS_TOKEN,
      RATE_LIMIT_ENABLED: 'false',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  api = new ApiClient(`http://127.0.0.1:${port}`);
  await eventually(async () => expect((await api.call('GET', '/api/health')).status).toBe(200), 120_000, 250);
}, 180_000);

afterAll(async () => {
  if (primary && primary.exitCode === null) {
    const exited = new Promise((resolve) => primary.once('exit', resolve));
    primary.kill('SIGTERM');
    await exited;
  }
  await environment?.dispose();
});

describe('the API as a cluster of processes', () => {
  it('serves from two HTTP processes that run no workers, and a filing in either reaches the claim list', async () => {
    const roles = await eventually(async () => {
      const seen = await rolesOf(8);
      expect(seen.size).toBe(2);
      return seen;
    });
    expect([...roles.values()]).toEqual(['http', 'http']);

    const { token } = await acmeApiToken(api, 'cluster', ['order:create', 'claim:read']);

    const filed: string[] = [];
    for (let i = 0; i < 4; i++) {
      const number = `clu${Date.now() % 100_000}${i}`;
      expect(
        (await api.call('PUT', `/api/v1/orders/cluster-${number}`, { body: orderBody(number), token })).status,
      ).toBe(201);
      const filing = await api.call('POST', `/api/claims/cluster-${number}`, { body: filingBody(number) });
      expect(filing.status, filing.body).toBe(201);
      filed.push(FileClaimResponse.parse(JSON.parse(filing.body)).claimId);
    }
    // The list is the claim-list read model, which only the primary's Kafka projectors write.
    await eventually(
      async () => {
        const listed = ApiClaimPage.parse(
          JSON.parse((await api.call('GET', '/api/v1/claims?limit=50', { token })).body),
        ).data.map((c) => c.id);
        expect(listed).toEqual(expect.arrayContaining(filed));
      },
      30_000,
      100,
    );
  });

  it('replaces an HTTP process that dies, and keeps answering', async () => {
    const before = await rolesOf(8);
    const [victim] = before.keys();
    process.kill(Number(victim), 'SIGKILL');
    const after = await eventually(
      async () => {
        const seen = await rolesOf(8);
        expect(seen.size).toBe(2);
        expect(seen.has(victim!)).toBe(false);
        return seen;
      },
      120_000,
      250,
    );
    expect([...after.values()]).toEqual(['http', 'http']);
  }, 150_000);
});
