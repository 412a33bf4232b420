import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClaim, FileClaimResponse } from '@claims/contracts';
import { acmeApiToken, ApiClient } from './support/faultLoad.js';
import { freePort } from './support/faultInfra.js';
import { filingBody, orderBody } from './support/orderBody.js';
import { eventually } from './support/testDatabase.js';
import { testEnvironment, type TestEnvironment } from './support/testRuntime.js';

/**
 * `npm start` told to stop while busy stops: a mail send hanging on an SMTP server that never answers, keep-alive
 * connections open, and a log reader that stopped reading (a full pipe) do not keep it alive past README's deadline
 * (5 s of drain, then everything is closed); and what it acknowledged before the signal is there after a restart.
 */

const root = path.resolve(import.meta.dirname, '..');
/** README "Stopping": 5 s of drain, 1.5 s to close the database, 1 s for the last log lines; 2 s of margin for a loaded machine. */
const EXIT_WITHIN_MS = 5_000 + 1_500 + 1_000 + 2_000;
let environment: TestEnvironment;
let smtp: net.Server;
const smtpSockets = new Set<net.Socket>();
const servers: ChildProcess[] = [];

async function startServer(
  extraEnv: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; api: ApiClient; port: number }> {
  const port = await freePort();
  // stdout is a pipe nobody reads: once it is full (64 KiB of request logs), every further write waits on the reader.
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/api/src/main.ts'], {
    cwd: root,
    env: {
      ...environment.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      RATE_LIMIT_ENABLED: 'false',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  servers.push(child);
  const api = new ApiClient(`http://127.0.0.1:${port}`);
  await eventually(async () => expect((await api.call('GET', '/api/health')).status).toBe(200), 120_000, 250);
  return { child, api, port };
}

beforeAll(async () => {
  environment = await testEnvironment('pglite');
  // Accepts and never greets: every mail send hangs until the mailer's own timeouts.
  smtp = net.createServer((socket) => {
    smtpSockets.add(socket);
    socket.on('close', () => smtpSockets.delete(socket));
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
}, 60_000);

afterAll(async () => {
  for (const child of servers) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const socket of smtpSockets) socket.destroy();
  await new Promise((resolve) => smtp?.close(resolve));
  await environment?.dispose();
});

const fileClaim = async (api: ApiClient, token: string, number: string) => {
  expect((await api.call('PUT', `/api/v1/orders/stop-${number}`, { body: orderBody(number), token })).status).toBe(201);
  const filing = await api.call('POST', `/api/claims/stop-${number}`, { body: filingBody(number) });
  expect(filing.status, filing.body).toBe(201);
  return FileClaimResponse.parse(JSON.parse(filing.body)).claimId;
};

describe('stopping a busy server', () => {
  it('exits within the drain deadline after SIGTERM, and keeps what it acknowledged', async () => {
    const smtpPort = (smtp.address() as net.AddressInfo).port;
    const { child, api, port } = await startServer({ SMTP_URL: `smtp://127.0.0.1:${smtpPort}` });

    const { token, cookie } = await acmeApiToken(api, 'shutdown', ['order:create', 'claim:read']);

    const filed: string[] = [];
    for (let i = 0; i < 3; i++) filed.push(await fileClaim(api, token, `${Date.now() % 100_000}${i}`));
    // The shopper's confirmation is on its way to a server that never answers.
    await eventually(async () => expect(smtpSockets.size).toBeGreaterThan(0), 30_000, 100);
    // Enough back-office reads to fill the unread log pipe.
    for (let i = 0; i < 400; i++) await api.call('GET', '/api/admin/claims?limit=5', { cookie });
    // Idle keep-alive connections, as a browser holds them.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    await Promise.all(
      Array.from(
        { length: 4 },
        () =>
          new Promise<void>((resolve, reject) => {
            http
              .get({ host: '127.0.0.1', port, path: '/api/health', agent }, (response) => {
                response.resume();
                response.on('end', () => resolve());
              })
              .on('error', reject);
          }),
      ),
    );

    const exited = new Promise<number>((resolve) => child.once('exit', () => resolve(Date.now())));
    const signalled = Date.now();
    child.kill('SIGTERM');
    const exitedAt = await Promise.race([
      exited,
      new Promise<number>((resolve) => setTimeout(() => resolve(Number.POSITIVE_INFINITY), 60_000)),
    ]);
    agent.destroy();
    expect(exitedAt - signalled).toBeLessThan(EXIT_WITHIN_MS);

    // Started again on the same data: every filing it answered 201 to is there.
    const again = await startServer({ SMTP_URL: '' });
    for (const claimId of filed) {
      const claim = await again.api.call('GET', `/api/v1/claims/${claimId}`, { token });
      expect(claim.status, claim.body).toBe(200);
      expect(ApiClaim.parse(JSON.parse(claim.body)).id).toBe(claimId);
    }
  }, 240_000);
});
