import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '@claims/event-store';
import { projectorsGroupId } from '@claims/projections';
import { createKafka } from '@claims/relay';
import { freePort, ServiceProcess, serviceEnv, waiterLoggingTo } from './support/faultInfra.js';
import { acmeIntegration, ApiClient, Load, WebhookReceiver } from './support/faultLoad.js';
import { expectReplayEqualsLive, missingFromStore, owedWebhooks, settled } from './support/pipelineChecks.js';
import { postgresServer } from './support/postgresServers.js';
import { startSmtp, type SmtpCatcher } from './support/smtpServers.js';
import type { ParsedMail } from 'mailparser';
import { createTestDatabase } from './support/testDatabase.js';

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
  const api = new ServiceProcess('api', 'services/api/src/main.ts', path.join(base, 'api.log'));
  const workers = ['a', 'b'].map(
    (name) =>
      new ServiceProcess(`worker-${name}`, 'services/api/src/ops/workerMain.ts', path.join(base, `${name}.log`)),
  );
  const prefix = `scaleout${Date.now().toString(36)}`;
  let smtp: SmtpCatcher;
  let databaseUrl: string;
  let dropDatabase: () => Promise<void>;
  let client: ApiClient;
  let token: string;
  let storeId: string;
  let endpointId: string;

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
    const server = postgresServer();
    const created = await createTestDatabase(server.databaseUrl, server.seededTemplate);
    databaseUrl = created.url;
    dropDatabase = created.drop;
    smtp = await startSmtp();
    const port = await freePort();
    client = new ApiClient(`http://127.0.0.1:${port}`);
    const env = {
      ...serviceEnv({
        databaseUrl,
        kafkaBrokers: inject('kafkaBrokers'),
        topic: `claims.events.${prefix}`,
        groupPrefix: prefix,
        dataDir: path.join(base, 'data'),
        port,
      }),
      SMTP_URL: smtp.url,
      SEED_DEMO: 'false',
    };
    api.start({ ...env, WORKERS: 'none' });
    for (const worker of workers) worker.start({ ...env, WORKERS: 'all' });
    await waitFor('readiness', () => client.expectStatus('/api/health'));
    ({ storeId, token, endpointId } = await acmeIntegration(
      client,
      'scale out',
      ['order:create', 'claim:resolve', 'webhook:create'],
      receiver,
    ));
  }, 240_000);

  afterAll(async () => {
    await api.stop();
    await Promise.all(workers.map((w) => w.stop()));
    await receiver.stop();
    await smtp?.stop();
    await dropDatabase?.();
    fs.rmSync(base, { recursive: true, force: true });
  }, 120_000);

  it('shares the work, takes over what the killed one held, and repeats only what it had sent unrecorded', async () => {
    const load = new Load({ api: client, token, lanes: 3, pauseMs: 200, messagesPerClaim: 1, prefix: 'so' });
    load.start();
    let killedAt = 0;
    let mailsAtKill = 0;
    try {
      await waitFor('both workers in the projectors group', async () => expect(await projectorMembers()).toBe(2));
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      await workers[0]!.kill();
      killedAt = Date.now();
      // The killed process's sockets are closed: whatever mail it finished sending has arrived.
      mailsAtKill = smtp.received.length;
      await new Promise((resolve) => setTimeout(resolve, 8_000));
    } finally {
      await load.stop();
    }
    expect(workers[1]!.unexpectedExits).toEqual([]);
    expect(load.failures.map((f) => `${f.kind} ${f.status}: ${f.body}`)).toEqual([]);
    const filings = load.acknowledged.filter((a) => a.kind === 'filing' && a.startedAt > killedAt);
    expect(filings.length, 'filings after the kill').toBeGreaterThan(3);

    const database = await openDatabase({ databaseUrl, dataDir: '' });
    try {
      await waitFor('the pipeline settling', () => settled(database), 180_000);
      expect(await missingFromStore(database, load.acknowledged)).toEqual([]);

      const owed = await owedWebhooks(database, endpointId, storeId);
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

      await workers[1]!.stop();
      await expectReplayEqualsLive(database);
    } finally {
      await database.close();
    }
  }, 300_000);
});

const recipients = (mail: ParsedMail) =>
  (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => v.address)).join(',');
