import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, startRuntime, type Runtime } from '../src/index.js';
import { postgresServer } from '../../../test/support/postgresServers.js';
import { createTestDatabase, eventually } from '../../../test/support/testDatabase.js';

/**
 * PostgreSQL restarting under a running API: the app reaches it through a door this test shuts (every connection cut,
 * every new one refused, as while the server restarts) and opens again. Meanwhile requests answer 503
 * `database_unavailable` with Retry-After, never 500; once it is back they succeed again, without a restart of the app.
 */

/** A TCP door in front of PostgreSQL. */
async function startDoor(target: number) {
  let open = true;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    if (!open) return socket.destroy();
    const upstream = net.connect(target, '127.0.0.1');
    for (const s of [socket, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    socket.pipe(upstream).pipe(socket);
    socket.on('close', () => upstream.destroy());
    upstream.on('close', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    shut: () => {
      open = false;
      for (const s of sockets) s.destroy();
    },
    open: () => {
      open = true;
    },
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

let runtime: Runtime;
let door: Awaited<ReturnType<typeof startDoor>>;
let stop: () => Promise<void>;

beforeAll(async () => {
  const server = postgresServer();
  const database = await createTestDatabase(server.databaseUrl, server.seededTemplate);
  const url = new URL(database.url);
  door = await startDoor(Number(url.port || 5432));
  url.port = String(door.port);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-db-restart-'));
  runtime = await startRuntime(
    loadConfig({
      ...process.env,
      DATABASE_URL: url.toString(),
      KAFKA_BROKERS: '',
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      DB_CONNECT_TIMEOUT_MS: '2000',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    }),
    { listen: false },
  );
  stop = async () => {
    door.open();
    await runtime.stop();
    await door.stop();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
});

afterAll(() => stop?.());

const login = () =>
  runtime.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'owner@acme.test', password: 'demo-pass-1234' },
  });
const claims = (cookie: string) =>
  runtime.app.inject({ method: 'GET', url: '/api/admin/claims?limit=5', headers: { cookie } });

describe('the API while PostgreSQL restarts', () => {
  it('answers 503 database_unavailable with Retry-After while it is down, and serves again once it is back', async () => {
    const signedIn = await login();
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
    expect((await claims(cookie)).statusCode).toBe(200);

    door.shut();
    // Connections the pool held are cut under it, new ones refused: reads and sign-ins alike.
    for (const answer of [await claims(cookie), await claims(cookie), await login()]) {
      expect(answer.statusCode, answer.body).toBe(503);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'database_unavailable' });
    }

    door.open();
    await eventually(async () => expect((await claims(cookie)).statusCode).toBe(200), 20_000, 200);
    expect((await login()).statusCode).toBe(200);
  });
});
