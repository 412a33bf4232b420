import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventEnvelope } from '@claims/contracts';
import { PROJECTIONS, rebuild, streamsBehind } from '@claims/projections';
import { loadConfig, startRuntime, type Runtime } from '../services/api/src/index.js';
import { avasClaim } from './support/seededDemo.js';
import { eventually } from './support/testDatabase.js';
import { readModelSnapshot } from './support/snapshots.js';
import { testEnvironment, type TestEnvironment } from './support/testRuntime.js';

const root = path.resolve(import.meta.dirname, '..');
const MESSAGES = 60;

const claimRequest = avasClaim();

/** The relay and the projectors as a separate process, so the test can kill -9 them. */
function startWorker(env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(root, 'services/api/src/ops/workerMain.ts')], {
    cwd: root,
    env: { ...env, SEED_DEMO: 'false' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

const kill = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

describe('Kafka fan-out with the relay and projectors in their own process', () => {
  let environment: TestEnvironment;
  let api: Runtime;
  let worker: ChildProcess;
  let filed: { claimId: string; token: string };

  beforeAll(async () => {
    environment = await testEnvironment('postgres+kafka');
    api = await startRuntime(loadConfig(environment.env), { listen: false, workers: false });
  });
  afterAll(async () => {
    if (worker && worker.exitCode === null && worker.signalCode === null) await kill(worker);
    await api.stop();
    await environment.dispose();
  });

  it('loses nothing when the worker is killed mid-stream: read models equal a full replay', async () => {
    worker = startWorker(environment.env);
    const response = await api.app.inject({ method: 'POST', url: '/api/claims/acme-5001', payload: claimRequest });
    expect(response.statusCode).toBe(201);
    filed = response.json();
    for (let i = 1; i <= MESSAGES; i++) {
      const sent = await api.app.inject({
        method: 'POST',
        url: `/api/claims/${filed.token}/messages`,
        payload: { messageContent: `update ${i}` },
      });
      expect(sent.statusCode).toBe(201);
      if (i === 20) await kill(worker);
      if (i === 35) worker = startWorker(environment.env);
      if (i === 45) await kill(worker);
      if (i === 50) worker = startWorker(environment.env);
    }
    const db = api.ctx.database.db;
    const live = await eventually(async () => {
      const snapshot = await readModelSnapshot(db);
      const row = (snapshot.claims as Array<{ claim_id: string; message_count: number }>).find(
        (c) => c.claim_id === filed.claimId,
      );
      expect(row?.message_count).toBe(MESSAGES);
      expect(
        (snapshot.timeline as Array<{ claim_id: string }>).filter((t) => t.claim_id === filed.claimId),
      ).toHaveLength(MESSAGES + 1);
      // Every claim, not only this one: each partition catches up on its own after the kills (the demo's claim is on another).
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from events where type = 'ClaimFiled'`.execute(db);
      expect(snapshot.claims).toHaveLength(rows[0]!.n);
      // And every read model, not only the claim list: each projection's lane on a partition catches up on its own
      // (a CI run took the snapshot while the timeline still lacked the demo's claim).
      for (const projection of PROJECTIONS) expect(await streamsBehind(db, projection), projection.name).toEqual([]);
      return snapshot;
    }, 60_000);
    await kill(worker);
    for (const projection of PROJECTIONS) await rebuild(db, projection);
    expect(await readModelSnapshot(db)).toEqual(live);
  });

  it('publishes every event to the topic, keyed by stream, in the contract envelope', async () => {
    // A relay again: the killed worker's last reactions (the shopper's mail) may have committed unpublished.
    worker = startWorker(environment.env);
    const kafka = api.kafka!;
    const consumer = kafka.consumer({ groupId: `check-${filed.claimId}` });
    const seen: EventEnvelope[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic: api.ctx.config.kafkaTopic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const envelope = EventEnvelope.parse(JSON.parse(message.value!.toString()));
        expect(message.key!.toString()).toBe(envelope.streamId);
        seen.push(envelope);
      },
    });
    try {
      const expectedTypes = ['ClaimFiled', ...Array.from({ length: MESSAGES }, () => 'ClaimMessageSent')];
      await eventually(async () => {
        expect(seen.filter((e) => e.streamId === filed.claimId).map((e) => e.type)).toEqual(expectedTypes);
      }, 30_000);
      const filedEvent = seen.find((e) => e.type === 'ClaimFiled' && e.streamId === filed.claimId)!;
      expect(seen.filter((e) => e.streamId === filed.claimId).map((e) => e.streamVersion)).toEqual(
        expectedTypes.map((_, i) => i + 1),
      );
      expect(filedEvent).toMatchObject({
        streamVersion: 1,
        storeId: expect.any(String),
        metadata: { actor: { type: 'customer' }, correlationId: expect.any(String), causationId: null },
      });
      // At least once: after the crashes some events may come twice, but every stored event is there
      // (read again each time: the worker's reactions, such as the shopper's mail, keep appending for a while).
      await eventually(async () => {
        const stored = await sql<{ event_id: string }>`select event_id from events`.execute(api.ctx.database.db);
        expect(new Set(seen.map((e) => e.eventId))).toEqual(new Set(stored.rows.map((r) => r.event_id)));
      }, 30_000);
    } finally {
      await consumer.disconnect();
    }
  });
});
