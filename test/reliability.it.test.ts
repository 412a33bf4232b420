import { sql, type QueryExecutorProvider } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerOrder } from '@claims/contracts';
import { followStore, type Projection } from '@claims/projections';
import { loadConfig, startRuntime, type Runtime } from '../services/api/src/index.js';
import { avasClaim } from './support/seededDemo.js';
import { eventually } from './support/testDatabase.js';
import { testEnvironment, type TestEnvironment } from './support/testRuntime.js';

const drawnSignature = {
  kind: 'drawn' as const,
  value: `data:image/png;base64,${'A'.repeat(199_000)}`,
  signedAt: '2026-01-05T10:00:00.000Z',
};
const claimRequest = avasClaim(drawnSignature);

/** The reasons of a 503 are for an operator: read as Prometheus would, with the metrics token. */
const METRICS_TOKEN = 'reliability-metrics-token';

describe('the runtime through database faults and stuck projectors', () => {
  let environment: TestEnvironment;
  let runtime: Runtime;

  beforeAll(async () => {
    environment = await testEnvironment('postgres');
    runtime = await startRuntime(
      loadConfig({ ...environment.env, HEALTH_MAX_TRANSACTION_AGE_SECONDS: '2', METRICS_TOKEN }),
      { listen: false },
    );
  });
  afterAll(async () => {
    await runtime.stop();
    await environment.dispose();
  });

  const health = async () => {
    const response = await runtime.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    return {
      status: response.statusCode,
      body: response.json<{ status: string; components?: Record<string, { status: string; reason?: string }> }>(),
    };
  };

  // Readiness looks at every transaction of the cluster (the read horizon is cluster-wide), and the
  // test server is shared: a 200 is awaited rather than asserted at once.
  const ready = () => eventually(async () => expect(await health()).toEqual({ status: 200, body: { status: 'ok' } }));

  it('is ready and live when everything answers', async () => {
    await ready();
    const live = await runtime.app.inject({ method: 'GET', url: '/api/health/live' });
    expect([live.statusCode, live.json()]).toEqual([200, { status: 'ok' }]);
  });

  it('files a claim with a drawn signature of the largest size the contract allows', async () => {
    const response = await runtime.app.inject({ method: 'POST', url: '/api/claims/acme-5001', payload: claimRequest });
    expect(response.statusCode).toBe(201);
  });

  it('answers 413 payload_too_large for a draft whose event exceeds the cap, and stores nothing', async () => {
    const order = (
      await runtime.app.inject({
        method: 'GET',
        url: '/api/order-lookup',
        query: { order: '1001', email: 'ava@example.com' },
      })
    ).json<CustomerOrder>();
    // The filing above still has reactions (its mail) to record: let them land before counting.
    await runtime.settle();
    const { rows: before } = await sql<{ n: number }>`select count(*)::int as n from events`.execute(
      runtime.ctx.database.db,
    );
    const claim = {
      customer: { email: 'ava@example.com', sourceOrderId: order.orderId },
      fulfillments: {},
      resolution: {},
      messages: Array.from({ length: 30 }, () => 'm'.repeat(10_000)),
    };
    const response = await runtime.app.inject({
      method: 'PUT',
      url: '/api/sessions',
      payload: { email: 'ava@example.com', orderId: order.systemOrderId, metadata: { claim, currentShipmentId: null } },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      error: 'payload_too_large',
      message: expect.stringMatching(/at most 256 KB/),
    });
    expect(
      (await sql<{ n: number }>`select count(*)::int as n from events`.execute(runtime.ctx.database.db)).rows,
    ).toEqual(before);
  });

  it('survives its idle database connections being killed and keeps serving', async () => {
    const admin = new pg.Client({ connectionString: environment.env.DATABASE_URL });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      expect(rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    // The pool drops each killed connection when the server's goodbye reaches it; a request may
    // meet one before that (a 500 the client retries), never a dead process.
    await eventually(async () => {
      const lookup = await runtime.app.inject({
        method: 'GET',
        url: '/api/order-lookup',
        query: { order: '1001', email: 'ava@example.com' },
      });
      expect(lookup.statusCode).toBe(200);
    });
    await ready();
  });

  it('is not ready while a transaction stays open past the limit, naming it', async () => {
    const holder = new pg.Client({ connectionString: environment.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select pg_current_xact_id()');
      const stuck = await eventually(async () => {
        const answer = await health();
        expect(answer.status).toBe(503);
        return answer.body;
      });
      expect(stuck.components?.database).toEqual({
        status: 'failing',
        reason: expect.stringMatching(/a transaction has been open for \d+ s/),
      });
      await holder.query('commit');
      await ready();
    } finally {
      await holder.end();
    }
  });

  it('answers 503 naming the projector while an event is parked', async () => {
    const stuck: Projection<'ClaimFiled'> = {
      name: 'stuck-on-filing',
      streams: ['claim'],
      decisions: { ClaimFiled: 'handle' },
      handles: ['ClaimFiled'],
      migrations: {},
      tables: [],
      async applyBatch(_trx: QueryExecutorProvider) {
        throw new Error('this projection cannot apply a filing');
      },
    };
    const follower = followStore(runtime.ctx.database.db, stuck, pino({ level: 'silent' }), 5, {
      maxAttempts: 2,
      baseDelayMs: 5,
      maxDelayMs: 20,
    });
    try {
      await follower.catchUp();
    } finally {
      await follower.stop();
    }
    const answer = await health();
    expect(answer.status).toBe(503);
    expect(answer.body.components?.projectors).toEqual({
      status: 'failing',
      reason: expect.stringMatching(/stuck-on-filing \d+/),
    });
    await sql`delete from projection_parked where projection = ${stuck.name}`.execute(runtime.ctx.database.db);
    await ready();
  });

  it('reads WORKERS as a list of background workers', () => {
    expect([...loadConfig({ WORKERS: 'relay, projectors' }).workers]).toEqual(['relay', 'projectors']);
    expect(loadConfig({}).workers.size).toBe(5);
    expect(loadConfig({ WORKERS: 'none' }).workers.size).toBe(0);
    expect(() => loadConfig({ WORKERS: 'relay,mailer' })).toThrow(/WORKERS: unknown worker mailer/);
  });
});

describe('WORKERS', () => {
  it('keeps the projectors out of a process that does not list them, and in one that does', async () => {
    const environment = await testEnvironment('postgres');
    const api = await startRuntime(loadConfig({ ...environment.env, WORKERS: 'reactions,delivery' }), {
      listen: false,
    });
    try {
      const filed = await api.app.inject({
        method: 'POST',
        url: '/api/claims/acme-5001',
        payload: { ...claimRequest, resolution: { ...claimRequest.resolution, customerSignature: 'Ava Stone' } },
      });
      expect(filed.statusCode).toBe(201);
      await api.settle();
      const { claimId } = filed.json<{ claimId: string }>();
      const listed = () =>
        sql`select 1 from claim_list where claim_id = ${claimId}`
          .execute(api.ctx.database.db)
          .then((r) => r.rows.length);
      expect(await listed()).toBe(0);
      const projector = await startRuntime(
        loadConfig({ ...environment.env, SEED_DEMO: 'false', WORKERS: 'projectors' }),
        { listen: false },
      );
      try {
        await projector.settle();
        expect(await listed()).toBe(1);
      } finally {
        await projector.stop();
      }
    } finally {
      await api.stop();
      await environment.dispose();
    }
  });
});
