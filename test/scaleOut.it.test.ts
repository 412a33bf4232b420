import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '@claims/event-store';
import { projectorsGroupId } from '@claims/projections';
import { createKafka } from '@claims/relay';
import { waiterLoggingTo } from './support/faultInfra.js';
import { startFaultStage, type FaultStage } from './support/faultStage.js';
import { Load, WebhookReceiver } from './support/faultLoad.js';
import { expectReplayEqualsLive, missingFromStore, owedWebhooks, settled } from './support/pipelineChecks.js';
import { startSmtp, type SmtpCatcher } from './support/smtpServers.js';
import type { ParsedMail } from 'mailparser';

/**
 * Two worker processes with every role (relay, projectors, reactions, webhook delivery, timers) on one database and
 * topic: the projectors share the partitions through the consumer group, each reaction runs where its lease is held,
 * deliveries are claimed with leases. One worker is killed (SIGKILL) mid-load: the other takes over its partitions,
 * reactions and deliveries. Every mail and webhook owed arrives, and the only repeats are of what the killed process had
 * sent before it died without recording it (at least once: a receiver drops a repeated webhook-id).
 */
describe('two workers of every role, one killed mid-load', () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-scale-out-'));
  const receiver = new WebhookReceiver();
  const prefix = `scaleout${Date.now().toString(36)}`;
  let smtp: SmtpCatcher;
  let stage: FaultStage;

  const waitFor = waiterLoggingTo(base);

  async function projectorMembers(): Promise<number> {
    const admin = createKafka(inject('kafkaBrokers'), pino({ level: 'silent' })).admin();
    await admin.connect();
    try {
      const { groups } = await admin.describeGroups([projectorsGroupId(prefix)]);
      return groups[0]?.state === 'Stable' ? groups[0].members.length : 0;
    } finally {
      await admin.disconnect();
    }
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    stage = await startFaultStage({
      base,
      kafkaBrokers: inject('kafkaBrokers'),
      topic: `claims.events.${prefix}`,
      groupPrefix: prefix,
      workers: ['worker-a', 'worker-b'],
      env: { SMTP_URL: smtp.url },
      integration: { name: 'scale out', permissions: ['order:create', 'claim:resolve', 'webhook:create'], receiver },
    });
  }, 240_000);

  afterAll(async () => {
    await stage?.stop();
    await receiver.stop();
    await smtp?.stop();
    fs.rmSync(base, { recursive: true, force: true });
  }, 120_000);

  it('shares the work, takes over what the killed one held, and repeats only what it had sent unrecorded', async () => {
    const load = new Load({
      api: stage.client,
      token: stage.token,
      lanes: 3,
      pauseMs: 200,
      messagesPerClaim: 1,
      prefix: 'so',
    });
    load.start();
    let killedAt = 0;
    let mailsAtKill = 0;
    try {
      await waitFor('both workers in the projectors group', async () => expect(await projectorMembers()).toBe(2));
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      await stage.workers[0]!.kill();
      killedAt = Date.now();
      // The killed process's sockets are closed: whatever mail it finished sending has arrived.
      mailsAtKill = smtp.received.length;
      await new Promise((resolve) => setTimeout(resolve, 8_000));
    } finally {
      await load.stop();
    }
    expect(stage.workers[1]!.unexpectedExits).toEqual([]);
    expect(load.failures.map((f) => `${f.kind} ${f.status}: ${f.body}`)).toEqual([]);
    const filings = load.acknowledged.filter((a) => a.kind === 'filing' && a.startedAt > killedAt);
    expect(filings.length, 'filings after the kill').toBeGreaterThan(3);

    const database = await openDatabase({ databaseUrl: stage.databaseUrl, dataDir: '' });
    try {
      await waitFor('the pipeline settling', () => settled(database), 180_000);
      expect(await missingFromStore(database, load.acknowledged)).toEqual([]);

      const owed = await owedWebhooks(database, stage.endpointId, stage.storeId);
      const counts = receiver.counts();
      expect(owed.filter((o) => !o.webhook_id || !counts.has(o.webhook_id)).map((o) => o.event_id)).toEqual([]);
      const firstArrival = new Map<string, number>();
      for (const d of receiver.deliveries)
        if (!firstArrival.has(d.webhookId)) firstArrival.set(d.webhookId, d.receivedAt);
      expect(
        [...counts].filter(([id, n]) => n > 1 && firstArrival.get(id)! > killedAt).map(([id]) => id),
        'webhooks repeated although first sent after the kill',
      ).toEqual([]);

      const { rows: claims } = await sql<{ claim_number: string; customer_email: string }>`
        select claim_number, customer_email from claim_list`.execute(database.db);
      // Each mail by recipient and subject (a claim's number is in its subject), in the order the server took them.
      const copies = new Map<string, number[]>();
      smtp.received.forEach((mail, index) => {
        const key = `${recipients(mail)}|${mail.subject}`;
        copies.set(key, [...(copies.get(key) ?? []), index]);
      });
      const shoppers = claims.filter((c) => c.customer_email.startsWith('buyer-so'));
      expect(shoppers.length).toBe(load.acknowledged.filter((a) => a.kind === 'filing').length);
      expect(
        shoppers
          .filter((c) => !copies.has(`${c.customer_email}|We received your claim #${c.claim_number}`))
          .map((c) => c.claim_number),
        'claims whose shopper got no "we received your claim" mail',
      ).toEqual([]);
      expect(
        [...copies].filter(([, at]) => at.length > 1 && at[0]! >= mailsAtKill).map(([key]) => key),
        'mails repeated although first sent after the kill',
      ).toEqual([]);

      await stage.workers[1]!.stop();
      await expectReplayEqualsLive(database);
    } finally {
      await database.close();
    }
  }, 300_000);
});

const recipients = (mail: ParsedMail) =>
  (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => v.address)).join(',');
