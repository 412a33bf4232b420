import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { pino } from 'pino';
import { OperationsView, ParkedEventOutcome, RebuildStarted } from '@claims/contracts';
import { poolOf } from '@claims/event-store';
import {
  claimListProjection,
  claimTimelineProjection,
  consumeFromKafka,
  followStore,
  type Follower,
  type KafkaProjectors,
} from '@claims/projections';
import { loadConfig, startRuntime, type Runtime } from '../src/index.js';
import { eventually } from '../../../test/support/testDatabase.js';
import { testEnvironment, type TestEnvironment } from '../../../test/support/testRuntime.js';
import { json, oneItemClaim, startHarness, type Harness } from './support/backofficeHarness.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const silent = pino({ level: 'silent' });
/** Parks an event at its first failure, so a test need not wait out the backoff. */
const PARK_AT_ONCE = { maxAttempts: 1, baseDelayMs: 5, maxDelayMs: 20 };

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text format 0.0.4, the sample lines (`name{label="value",…} number`). */
function parseSamples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]),
      );
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

class Metrics {
  constructor(readonly samples: Sample[]) {}
  /** The one sample of `name` carrying these labels (and maybe others). */
  value(name: string, labels: Record<string, string> = {}): number {
    const found = this.samples.filter(
      (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
    );
    if (found.length !== 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
    return found[0]!.value;
  }
}

const claimList = { projection: claimListProjection.name };
const eventsAfter = (db: Runtime['ctx']['database']['db'], position: number) =>
  sql<{ count: number }>`select count(*)::int as count from events where global_position > ${position}`
    .execute(db)
    .then((r) => r.rows[0]!.count);
const headOf = (db: Runtime['ctx']['database']['db']) =>
  sql<{ head: string }>`select coalesce(max(global_position), 0)::text as head from events`
    .execute(db)
    .then((r) => Number(r.rows[0]!.head));

describe('GET /api/metrics and the operations API, projectors following the store', () => {
  let h: Harness;
  let follower: Follower | null = null;
  const follow = () => {
    follower = followStore(h.runtime.ctx.database.db, claimListProjection, silent, 5, PARK_AT_ONCE);
    return follower;
  };
  const stopFollowing = async () => {
    await follower?.stop();
    follower = null;
  };
  const scrape = async () => {
    const response = await h.call({ method: 'GET', url: '/api/metrics', token: METRICS_TOKEN });
    expect(response.statusCode).toBe(200);
    return new Metrics(parseSamples(response.body));
  };
  /** The projectors are this test's to start and stop: the process runs every other worker. */
  beforeAll(async () => {
    h = await startHarness({ WORKERS: 'reactions,delivery,timers', METRICS_TOKEN });
  });
  afterAll(async () => {
    await stopFollowing();
    await h?.stop();
  });

  it('answers only the bearer of METRICS_TOKEN, in the text format 0.0.4, with the process metrics', async () => {
    const anonymous = await h.call({ method: 'GET', url: '/api/metrics' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer/);
    expect((await h.call({ method: 'GET', url: '/api/metrics', token: 'not-the-metrics-token' })).statusCode).toBe(401);
    const ownerCookie = await h.login('acmeOwner');
    expect((await h.call({ method: 'GET', url: '/api/metrics', cookie: ownerCookie })).statusCode).toBe(401);

    await h.runtime.settle();
    const response = await h.call({ method: 'GET', url: '/api/metrics', token: METRICS_TOKEN });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.body).toContain('# TYPE claims_projector_lag_events gauge');
    expect(response.body).toContain('# TYPE http_request_duration_seconds histogram');
    const metrics = new Metrics(parseSamples(response.body));
    expect(metrics.value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(metrics.value('claims_event_store_head_position')).toBe(await headOf(h.runtime.ctx.database.db));
    expect(metrics.value('claims_webhook_deliveries_pending')).toBe(0);
    expect(metrics.value('claims_notification_retries_due')).toBe(0);
    expect(metrics.samples.some((s) => s.name.startsWith('claims_relay_'))).toBe(false);

    const doc = json<{ paths: Record<string, Record<string, unknown>> }>(
      await h.call({ method: 'GET', url: '/api/openapi.json' }),
    );
    expect(doc.paths['/api/metrics']?.get).toBeDefined();
    expect(doc.paths['/api/admin/operations']?.get).toBeDefined();
    expect(doc.paths['/api/admin/operations/parked/{projection}/{eventId}/retry']?.post).toBeDefined();
  });

  it("shows a projector's lag rise while it is stopped and return to 0 once it catches up", async () => {
    // The reactions' own appends (the demo claim's mail) are done first: the lag measured is the projector's alone.
    await h.runtime.settle();
    await follow().catchUp();
    let metrics = await scrape();
    const head = await headOf(h.runtime.ctx.database.db);
    expect(metrics.value('claims_projector_lag_events', claimList)).toBe(0);
    expect(metrics.value('claims_projector_lag_seconds', claimList)).toBe(0);
    expect(metrics.value('claims_projector_position', { ...claimList, source: 'store' })).toBe(head);

    await stopFollowing();
    await h.fileClaim('acme-5001', oneItemClaim('ava@example.com', 'f-1001-1', 'li-1'));
    await h.runtime.settle();
    metrics = await scrape();
    const behind = await eventsAfter(h.runtime.ctx.database.db, head);
    expect(behind).toBeGreaterThan(0);
    expect(metrics.value('claims_projector_lag_events', claimList)).toBe(behind);
    expect(metrics.value('claims_projector_lag_seconds', claimList)).toBeGreaterThan(0);
    expect(metrics.value('claims_projector_position', { ...claimList, source: 'store' })).toBe(head);
    expect(metrics.value('claims_projector_state', { ...claimList, state: 'elsewhere' })).toBe(1);
    // The reactions run in this process and have handled the filing.
    for (const reaction of [
      'close-draft-on-filing',
      'notify-shopper',
      'notify-team',
      'send-claim-links',
      'mail-invitations',
      'store-credit',
    ]) {
      expect(metrics.value('claims_reaction_lag_events', { reaction })).toBe(0);
    }

    await follow().catchUp();
    metrics = await scrape();
    expect(metrics.value('claims_projector_lag_events', claimList)).toBe(0);
    expect(metrics.value('claims_projector_lag_seconds', claimList)).toBe(0);
    expect(metrics.value('claims_projector_position', { ...claimList, source: 'store' })).toBe(
      await headOf(h.runtime.ctx.database.db),
    );
  });

  it('shows a parked event; staff read it, only the admin role retries or skips it, merchants get 403', async () => {
    const db = h.runtime.ctx.database.db;
    await stopFollowing();
    const retried = await h.fileClaim('acme-5001', oneItemClaim('ava@example.com', 'f-1001-1', 'li-2'));
    const skipped = await h.fileClaim('acme-5001', oneItemClaim('ava@example.com', 'f-1001-1', 'li-3'));
    // A fault of the read model's own (as a bad release would bring): these two claims cannot be listed.
    await sql`alter table claim_list add constraint ops_test_fault check (claim_id not in (${sql.lit(retried.claimId)}::uuid, ${sql.lit(skipped.claimId)}::uuid)) not valid`.execute(
      db,
    );
    await h.runtime.settle();
    await follow().catchUp();

    const metrics = await scrape();
    expect(metrics.value('claims_projector_parked_events', claimList)).toBe(2);
    expect(metrics.value('claims_projector_lag_events', claimList)).toBe(0);

    const admin = await h.login('admin');
    const view = OperationsView.parse(
      json(await h.call({ method: 'GET', url: '/api/admin/operations', cookie: admin })),
    );
    const projector = view.projectors.find((p) => p.name === claimListProjection.name)!;
    expect(projector).toMatchObject({ source: 'store', lagEvents: 0, state: 'elsewhere' });
    expect(projector.parked.map((p) => p.streamId).sort()).toEqual([retried.claimId, skipped.claimId].sort());
    expect(projector.parked.every((p) => /ops_test_fault/.test(p.error) && p.type === 'ClaimFiled')).toBe(true);
    expect(view.readiness).toContainEqual({
      name: 'projectors',
      status: 'failing',
      reason: expect.stringMatching(/claim-list 2/),
    });
    expect(view.relay).toBeNull();
    const parkedOf = (claimId: string) => projector.parked.find((p) => p.streamId === claimId)!;
    const path = (claimId: string, action: string) =>
      `/api/admin/operations/parked/${claimListProjection.name}/${parkedOf(claimId).eventId}/${action}`;

    const owner = await h.login('acmeOwner');
    expect((await h.call({ method: 'GET', url: '/api/admin/operations', cookie: owner })).statusCode).toBe(403);
    expect((await h.call({ method: 'POST', url: path(retried.claimId, 'retry'), cookie: owner })).statusCode).toBe(403);
    const finance = await h.login('finance');
    expect((await h.call({ method: 'GET', url: '/api/admin/operations', cookie: finance })).statusCode).toBe(200);
    expect((await h.call({ method: 'POST', url: path(retried.claimId, 'skip'), cookie: finance })).statusCode).toBe(
      403,
    );
    expect((await h.call({ method: 'GET', url: '/api/admin/operations' })).statusCode).toBe(401);

    const listed = (claimId: string) =>
      sql`select 1 from claim_list where claim_id = ${claimId}::uuid`.execute(db).then((r) => r.rows.length === 1);
    const stillFailing = await h.call({ method: 'POST', url: path(retried.claimId, 'retry'), cookie: admin });
    expect(stillFailing.statusCode).toBe(422);
    expect(json<{ error: string; message: string }>(stillFailing)).toMatchObject({
      error: 'apply_failed',
      message: expect.stringMatching(/ops_test_fault/),
    });
    expect(await listed(retried.claimId)).toBe(false);

    await sql`alter table claim_list drop constraint ops_test_fault`.execute(db);
    const applied = await h.call({ method: 'POST', url: path(retried.claimId, 'retry'), cookie: admin });
    expect(applied.statusCode).toBe(200);
    expect(ParkedEventOutcome.parse(json(applied)).outcome).toBe('applied');
    expect(await listed(retried.claimId)).toBe(true);

    const gaveUp = await h.call({ method: 'POST', url: path(skipped.claimId, 'skip'), cookie: admin });
    expect(ParkedEventOutcome.parse(json(gaveUp)).outcome).toBe('skipped');
    expect(await listed(skipped.claimId)).toBe(false);
    expect((await h.call({ method: 'POST', url: path(skipped.claimId, 'retry'), cookie: admin })).statusCode).toBe(404);
    expect(
      (await h.call({ method: 'POST', url: `/api/admin/operations/parked/claim-list/not-a-uuid/retry`, cookie: admin }))
        .statusCode,
    ).toBe(400);

    const after = await scrape();
    expect(after.value('claims_projector_parked_events', claimList)).toBe(0);
    // Requests are counted by route pattern and status.
    const requests = (route: string, status: string) =>
      after.value('http_request_duration_seconds_count', { route, status_code: status });
    expect(requests('/api/admin/operations', '403')).toBe(1);
    expect(requests('/api/admin/operations/parked/:projection/:eventId/retry', '200')).toBe(1);
    expect(requests('/api/admin/operations/parked/:projection/:eventId/retry', '422')).toBe(1);
    expect(requests('/api/admin/operations/parked/:projection/:eventId/skip', '403')).toBe(1);
  });

  it("rebuilds a projection beside the live one on the admin's request: 202 with its progress, 409 while another runs, 403 for others", async () => {
    const db = h.runtime.ctx.database.db;
    const admin = await h.login('admin');
    const url = (name: string) => `/api/admin/operations/projections/${name}/rebuild`;
    const timeline = claimTimelineProjection.name;
    expect((await h.call({ method: 'POST', url: url(timeline), cookie: await h.login('finance') })).statusCode).toBe(
      403,
    );
    expect((await h.call({ method: 'POST', url: url(timeline), cookie: await h.login('acmeOwner') })).statusCode).toBe(
      403,
    );
    expect((await h.call({ method: 'POST', url: url('no-such-projection'), cookie: admin })).statusCode).toBe(404);

    // Another process's rebuild of the same projection holds its lock.
    const other = await poolOf(db)!.connect();
    try {
      await other.query('select pg_advisory_lock(hashtextextended($1, 0))', [`projection-rebuild-running:${timeline}`]);
      const refused = await h.call({ method: 'POST', url: url(timeline), cookie: admin });
      expect(refused.statusCode).toBe(409);
      expect(json(refused)).toMatchObject({ error: 'rebuild_running' });
      await other.query('select pg_advisory_unlock(hashtextextended($1, 0))', [
        `projection-rebuild-running:${timeline}`,
      ]);
    } finally {
      other.release();
    }

    const started = await h.call({ method: 'POST', url: url(timeline), cookie: admin });
    expect(started.statusCode).toBe(202);
    expect(RebuildStarted.parse(json(started))).toMatchObject({
      projection: timeline,
      rebuild: { status: 'running', error: null },
    });
    const handled = await sql<{
      count: number;
    }>`select count(*)::int as count from events where type = any(${[...claimTimelineProjection.handles]}::text[])`.execute(
      db,
    );
    await eventually(async () => {
      const view = OperationsView.parse(
        json(await h.call({ method: 'GET', url: '/api/admin/operations', cookie: admin })),
      );
      expect(view.projectors.find((p) => p.name === timeline)!.rebuild).toMatchObject({
        status: 'done',
        done: handled.rows[0]!.count,
        error: null,
      });
    });
    const rows = await sql<{
      count: number;
    }>`select (select count(*) from claim_timeline) + (select count(*) from claim_timeline_notifications) as count`.execute(
      db,
    );
    expect(Number(rows.rows[0]!.count)).toBe(handled.rows[0]!.count);
    const doc = json<{ paths: Record<string, Record<string, unknown>> }>(
      await h.call({ method: 'GET', url: '/api/openapi.json' }),
    );
    expect(doc.paths['/api/admin/operations/projections/{projection}/rebuild']?.post).toBeDefined();
  });
});

describe('GET /api/metrics without METRICS_TOKEN', () => {
  it('refuses to start in production, and answers anyone in development (make dev)', async () => {
    const base = { DATA_DIR: '/tmp/x' };
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', PUBLIC_URL: 'https://claims.example.com' })).toThrow(
      /METRICS_TOKEN is required when NODE_ENV=production/,
    );
    expect(
      loadConfig({ ...base, NODE_ENV: 'production', METRICS_TOKEN, PUBLIC_URL: 'https://claims.example.com' })
        .metricsToken,
    ).toBe(METRICS_TOKEN);

    const h = await startHarness({ WORKERS: 'none', METRICS_TOKEN: '' });
    try {
      const response = await h.call({ method: 'GET', url: '/api/metrics' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      const metrics = new Metrics(parseSamples(response.body));
      expect(metrics.value('claims_event_store_head_position')).toBe(await headOf(h.runtime.ctx.database.db));
      expect(metrics.value('claims_reaction_parked_events', { reaction: 'notify-shopper' })).toBe(0);
    } finally {
      await h.stop();
    }
  });
});

describe('GET /api/metrics with Kafka: consumer groups against the topic, and the relay', () => {
  let environment: TestEnvironment;
  let runtime: Runtime;
  let consumer: KafkaProjectors | null = null;
  const scrape = async () => {
    const response = await runtime.app.inject({
      method: 'GET',
      url: '/api/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    return new Metrics(parseSamples(response.body));
  };
  const consume = async () => {
    const subscription = { topic: runtime.ctx.config.kafkaTopic, groupPrefix: runtime.ctx.config.kafkaGroupPrefix };
    consumer = await consumeFromKafka(
      runtime.kafka!,
      runtime.ctx.database.db,
      [claimListProjection],
      silent,
      subscription,
    );
  };
  const caughtUp = () =>
    eventually(
      async () => {
        const metrics = await scrape();
        expect(metrics.value('claims_projector_lag_events', claimList)).toBe(0);
        return metrics;
      },
      30_000,
      200,
    );

  beforeAll(async () => {
    environment = await testEnvironment('postgres+kafka');
    runtime = await startRuntime(loadConfig({ ...environment.env, WORKERS: 'relay,reactions', METRICS_TOKEN }), {
      listen: false,
    });
    await eventually(
      async () => {
        await runtime.settle();
        expect((await scrape()).value('claims_relay_lag_events')).toBe(0);
      },
      30_000,
      200,
    );
  });
  afterAll(async () => {
    await consumer?.stop();
    await runtime?.stop();
    await environment?.dispose();
  });

  it('counts the messages a stopped group has not consumed, and 0 again once it has', async () => {
    await consume();
    let metrics = await caughtUp();
    const published = metrics.value('claims_projector_position', { ...claimList, source: 'kafka' });
    expect(published).toBeGreaterThan(0);
    const head = await headOf(runtime.ctx.database.db);
    expect(metrics.value('claims_relay_position')).toBe(head);
    expect(metrics.value('claims_relay_quarantined_events')).toBe(0);

    await consumer!.stop();
    consumer = null;
    const filed = await runtime.app.inject({
      method: 'POST',
      url: '/api/claims/acme-5001',
      payload: oneItemClaim('ava@example.com', 'f-1001-1', 'li-1'),
    });
    expect(filed.statusCode).toBe(201);
    // Twice: the reactions append (mail sent) after the relay's first round.
    await runtime.settle();
    await runtime.settle();
    metrics = await scrape();
    expect(metrics.value('claims_relay_lag_events')).toBe(0);
    // Every event since is one message the group has not consumed.
    const behind = await eventsAfter(runtime.ctx.database.db, head);
    expect(behind).toBeGreaterThan(0);
    expect(metrics.value('claims_projector_lag_events', claimList)).toBe(behind);
    expect(metrics.value('claims_projector_lag_seconds', claimList)).toBeGreaterThan(0);
    expect(metrics.value('claims_projector_position', { ...claimList, source: 'kafka' })).toBe(published);
    expect(metrics.value('claims_projector_state', { ...claimList, state: 'stopped' })).toBe(1);

    await consume();
    metrics = await caughtUp();
    expect(metrics.value('claims_projector_lag_seconds', claimList)).toBe(0);
    expect(metrics.value('claims_projector_position', { ...claimList, source: 'kafka' })).toBe(published + behind);
  });
});
