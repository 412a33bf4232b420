import net from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createKafka } from '@claims/relay';
import pino from 'pino';
import { loadConfig, startRuntime, type Runtime } from '../services/api/src/index.js';
import { avasClaim } from './support/seededDemo.js';
import { eventually } from './support/testDatabase.js';
import { testEnvironment, type TestEnvironment } from './support/testRuntime.js';

const claimRequest = avasClaim();

/** A bootstrap address the test opens and closes: until `open()`, every connection is cut at once, as with a broker that is down. */
async function brokerGate(target: string): Promise<{ address: string; open: () => void; close: () => Promise<void> }> {
  const [host, port] = target.split(':');
  let open = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    if (!open) return void client.destroy();
    const upstream = net.connect(Number(port), host);
    sockets.add(upstream);
    client.pipe(upstream).pipe(client);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: gatePort } = server.address() as net.AddressInfo;
  return {
    address: `127.0.0.1:${gatePort}`,
    open: () => void (open = true),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

type Health = { status: string; components?: Record<string, { status: string; reason?: string }> };
/** The reasons of a 503 are for an operator: these tests read them as Prometheus would, with the metrics token. */
const METRICS_TOKEN = 'kafka-outage-metrics-token';
const asOperator = { authorization: `Bearer ${METRICS_TOKEN}` };

describe('Kafka down when the product starts', () => {
  let environment: TestEnvironment;
  let runtime: Runtime;
  let gate: Awaited<ReturnType<typeof brokerGate>>;

  beforeAll(async () => {
    environment = await testEnvironment('postgres+kafka');
    gate = await brokerGate(inject('kafkaBrokers'));
    runtime = await startRuntime(loadConfig({ ...environment.env, KAFKA_BROKERS: gate.address, METRICS_TOKEN }), {
      listen: false,
    });
  });
  afterAll(async () => {
    await runtime.stop();
    await gate.close();
    await environment.dispose();
  });

  const health = async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/health', headers: asOperator });
    return { status: response.statusCode, body: response.json<Health>() };
  };

  it('starts and serves, live but not ready, naming kafka; claims are still filed; events flow once the broker answers', async () => {
    const live = await runtime.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    const down = await health();
    expect(down.status).toBe(503);
    expect(down.body.components?.kafka).toEqual({
      status: 'failing',
      reason: expect.stringContaining('the broker does not answer'),
    });
    expect(down.body.components?.database).toEqual({ status: 'ok' });

    const filed = await runtime.app.inject({ method: 'POST', url: '/api/claims/acme-5001', payload: claimRequest });
    expect(filed.statusCode).toBe(201);
    const { claimId } = filed.json<{ claimId: string }>();

    gate.open();
    await eventually(
      async () => {
        const { rows } = await sql<{
          claim_id: string;
        }>`select claim_id from claim_list where claim_id = ${claimId}`.execute(runtime.ctx.database.db);
        expect(rows).toHaveLength(1);
      },
      60_000,
      250,
    );
    await eventually(async () => expect(await health()).toEqual({ status: 200, body: { status: 'ok' } }), 30_000, 250);
  });
});

describe('a topic contradicting the configured durability', () => {
  let environment: TestEnvironment;
  let runtime: Runtime;

  beforeAll(async () => {
    environment = await testEnvironment('postgres+kafka');
    const admin = createKafka(inject('kafkaBrokers'), pino({ level: 'silent' })).admin();
    await admin.connect();
    await admin.createTopics({
      waitForLeaders: true,
      topics: [
        {
          topic: environment.env.KAFKA_TOPIC!,
          numPartitions: 3,
          replicationFactor: 1,
          configEntries: [{ name: 'min.insync.replicas', value: '2' }],
        },
      ],
    });
    await admin.disconnect();
    runtime = await startRuntime(loadConfig({ ...environment.env, METRICS_TOKEN }), { listen: false });
  });
  afterAll(async () => {
    await runtime.stop();
    await environment.dispose();
  });

  it('is refused by the relay, with the reason in health', async () => {
    const refused = await eventually(async () => {
      const response = await runtime.app.inject({ method: 'GET', url: '/api/health', headers: asOperator });
      const body = response.json<Health>();
      expect(body.components?.kafka?.reason).toMatch(/min\.insync\.replicas is 2, configured 1/);
      return response.statusCode;
    });
    expect(refused).toBe(503);
  });
});
