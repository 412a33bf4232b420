import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@claims/event-store';
import { ownKafka, waiterLoggingTo, type OwnKafka } from './support/faultInfra.js';
import { startFaultStage, type FaultStage } from './support/faultStage.js';
import { Load, WebhookReceiver } from './support/faultLoad.js';
import { expectReplayEqualsLive, missingFromStore, owedWebhooks, settled } from './support/pipelineChecks.js';
import type { BrokerLossFigures } from '../bench/brokerLossBench.js';

/**
 * Three brokers (replication factor 3, min.insync.replicas=2, the relay producing with acks=all): the broker that
 * coordinates the projectors' consumer group and leads partitions is killed while shoppers file claims, and started
 * again. Nothing acknowledged is lost, every read model and webhook catches up, and each webhook arrives once.
 */
describe('three Kafka brokers: one killed while claims are filed', () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-broker-loss-'));
  const receiver = new WebhookReceiver();
  const topic = 'claims.events.brokerloss';
  let kafka: OwnKafka;
  let stage: FaultStage;

  const waitFor = waiterLoggingTo(base);

  /** The node leading the group coordinator's partition (`__consumer_offsets` has one): the most disruptive to lose. */
  async function coordinatorNode(): Promise<number> {
    const admin = new Kafka({ brokers: kafka.brokers.split(','), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: ['__consumer_offsets'] });
      return topics[0]!.partitions[0]!.leader;
    } finally {
      await admin.disconnect();
    }
  }

  beforeAll(async () => {
    kafka = await ownKafka(path.join(base, 'kafka'), 3);
    await kafka.start();
    stage = await startFaultStage({
      base,
      kafkaBrokers: kafka.brokers,
      topic,
      groupPrefix: 'brokerloss',
      workers: ['worker'],
      env: { KAFKA_REPLICATION_FACTOR: '3', KAFKA_MIN_INSYNC_REPLICAS: '2' },
      integration: {
        name: 'broker loss',
        permissions: ['order:create', 'claim:read', 'claim:resolve', 'webhook:create'],
        receiver,
      },
    });
  }, 240_000);

  afterAll(async () => {
    await stage?.stop();
    await receiver.stop();
    await kafka?.dispose();
    fs.rmSync(base, { recursive: true, force: true });
  }, 120_000);

  it('loses nothing acknowledged, catches every read model and webhook up, and sends each webhook once', async () => {
    const startedAt = Date.now();
    const load = new Load({
      api: stage.client,
      token: stage.token,
      lanes: 3,
      pauseMs: 300,
      messagesPerClaim: 1,
      prefix: 'bl',
    });
    /** When each step of the outage happened, for the figures. */
    const outage = { victim: 0, killedAt: 0, filedAfterKillAt: 0, webhookAfterKillAt: 0, backAt: 0 };
    load.start();
    try {
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      // The offsets topic exists once the projectors' group has a coordinator: on a busy machine, seconds after start.
      outage.victim = await waitFor('the group coordinator', coordinatorNode);
      outage.killedAt = Date.now();
      await kafka.kill(outage.victim);
      // Two brokers of three are a quorum and an in-sync majority: a filing made now still reaches the receiver.
      const afterKill = await waitFor('a filing acknowledged after the kill', async () => {
        const filed = load.acknowledged.find((a) => a.kind === 'filing' && a.startedAt > outage.killedAt && a.claimId);
        expect(filed).toBeDefined();
        return filed!;
      });
      outage.filedAfterKillAt = afterKill.at;
      outage.webhookAfterKillAt = await waitFor('its claim.filed webhook, with one broker down', async () => {
        const delivery = receiver.deliveries.find(
          (d) => d.payload.type === 'claim.filed' && d.payload.data.claimId === afterKill.claimId,
        );
        expect(delivery).toBeDefined();
        return delivery!.receivedAt;
      });
      await kafka.start();
      outage.backAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 4_000));
    } finally {
      await load.stop();
    }
    expect([stage.api, ...stage.workers].flatMap((p) => p.unexpectedExits)).toEqual([]);
    expect(
      load.failures.map((f) => `${f.kind} ${f.status}: ${f.body}`),
      'failed commands',
    ).toEqual([]);
    expect(load.acknowledged.filter((a) => a.kind === 'filing').length).toBeGreaterThan(5);

    const database = await openDatabase({ databaseUrl: stage.databaseUrl, dataDir: '' });
    try {
      await waitFor('the pipeline settling', () => settled(database), 180_000);
      // settled() ends with 2 s of nothing appended.
      const settledAt = Date.now() - 2_000;
      expect(await missingFromStore(database, load.acknowledged), 'acknowledged commands missing').toEqual([]);
      const owed = await owedWebhooks(database, stage.endpointId, stage.storeId);
      const counts = receiver.counts();
      expect(owed.length).toBeGreaterThan(0);
      expect(
        owed.filter((o) => !o.webhook_id || !counts.has(o.webhook_id)).map((o) => o.event_id),
        'events whose webhook never arrived',
      ).toEqual([]);
      expect(
        [...counts].filter(([, n]) => n > 1).map(([id]) => id),
        'webhook-ids delivered more than once',
      ).toEqual([]);
      await stage.workers[0]!.stop();
      await expectReplayEqualsLive(database);
      if (process.env.BROKER_LOSS_REPORT) {
        const filings = load.acknowledged.filter((a) => a.kind === 'filing');
        const figures: BrokerLossFigures = {
          seconds: (Date.now() - startedAt) / 1000,
          victim: outage.victim,
          acknowledged: load.acknowledged.length,
          filingsWhileDown: filings.filter((a) => a.at > outage.killedAt && a.at < outage.backAt).length,
          filedAfterKillS: (outage.filedAfterKillAt - outage.killedAt) / 1000,
          webhookAfterKillS: (outage.webhookAfterKillAt - outage.killedAt) / 1000,
          downS: (outage.backAt - outage.killedAt) / 1000,
          settledAfterBackS: (settledAt - outage.backAt) / 1000,
          webhooks: owed.length,
          repeated: [...counts.values()].filter((n) => n > 1).length,
        };
        fs.appendFileSync(process.env.BROKER_LOSS_REPORT, `${JSON.stringify(figures)}\n`);
      }
    } finally {
      await database.close();
    }
  }, 300_000);
});
