import type net from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { FileClaimResponse } from '@claims/contracts';
import { loadConfig, startRuntime, type Runtime } from '../src/index.js';
import { findStoreBySlugOrDomain } from '../src/catalog/storeRepository.js';
import { upsertOrder } from '../src/catalog/orderRepository.js';
import { eventually } from '../../../test/support/testDatabase.js';
import { testEnvironment, type TestEnvironment } from '../../../test/support/testRuntime.js';
import { oneItemClaim } from './support/backofficeHarness.js';
import { testOrder } from './support/testOrders.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const SHOPPER_MAIL = 'notify-shopper';

/**
 * A real SMTP server that counts the connections it is opened and accepts a mail only while `accepting` says so: a mail
 * it holds is never answered (the sender waits on it), as a server that stalls mid-batch.
 */
async function startCountingSmtp() {
  const accepted: ParsedMail[] = [];
  const held: Array<(error?: Error) => void> = [];
  const state = { connections: 0, accepting: (_count: number) => true };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      state.connections++;
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream, { skipImageLinks: true }).then((mail) => {
        if (!state.accepting(accepted.length)) return held.push(callback);
        accepted.push(mail);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    accepted,
    state,
    /** Answers every held mail with a temporary failure (the stalled server gives up on them). */
    release: () => held.splice(0).forEach((callback) => callback(new Error('451 try again later'))),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const recipient = (mail: ParsedMail) => (mail.to && 'text' in mail.to ? mail.to.text : '');
const received = (mail: ParsedMail) => /^We received your claim #/.test(mail.subject ?? '');

describe('mail keeps pace with filings (PostgreSQL and Kafka, every worker on)', () => {
  let environment: TestEnvironment;
  let smtp: Awaited<ReturnType<typeof startCountingSmtp>>;
  let runtime: Runtime | null = null;
  let acme: string;
  const env = () => ({
    ...environment.env,
    SMTP_URL: smtp.url,
    SMTP_MAX_CONNECTIONS: '3',
    RATE_LIMIT_ENABLED: 'false',
    PUBLIC_URL: 'https://claims.example.test',
    METRICS_TOKEN,
  });
  const start = async (workers: string) => {
    runtime = await startRuntime(loadConfig({ ...env(), WORKERS: workers }), {
      listen: false,
    });
    return runtime;
  };
  /** Orders created and claims filed on them all at once; answers each claim's id and its shopper's address. */
  const fileBurst = async (r: Runtime, prefix: string, count: number) => {
    const numbers = Array.from({ length: count }, (_, i) => `${prefix}${i}`);
    for (const n of numbers) await upsertOrder(r.ctx.database.db, acme, `src-${n}`, testOrder(n));
    return Promise.all(
      numbers.map(async (n) => {
        const email = `${n.toLowerCase()}@example.com`;
        const filed = await r.app.inject({
          method: 'POST',
          url: `/api/claims/src-${n}`,
          payload: oneItemClaim(email, `${n}-f`, `${n}-li`),
        });
        expect(filed.statusCode, filed.body).toBe(201);
        return { ...FileClaimResponse.parse(JSON.parse(filed.body)), email };
      }),
    );
  };
  const scrape = async (r: Runtime, name: string) => {
    const response = await r.app.inject({
      method: 'GET',
      url: '/api/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const line = response.body.split('\n').find((l) => l.startsWith(`${name}{reaction="${SHOPPER_MAIL}"}`));
    return Number(line?.split(' ')[1]);
  };
  const sentRecords = async (r: Runtime) =>
    (
      await sql<{ n: number }>`select count(*)::int as n from events where type = 'ClaimNotificationSent'`.execute(
        r.ctx.database.db,
      )
    ).rows[0]!.n;

  beforeAll(async () => {
    environment = await testEnvironment('postgres+kafka');
    smtp = await startCountingSmtp();
    const first = await start('relay,projectors,reactions,delivery,timers');
    acme = (await findStoreBySlugOrDomain(first.ctx.database.db, { slug: 'acme' }))!.id;
    // What the demo data owes (its claims' mail) goes out before the burst.
    await first.settle();
  });
  afterAll(async () => {
    await runtime?.stop();
    await smtp?.stop();
    await environment?.dispose();
  });

  it('mails every shopper of a burst one "we received your claim", each claim\'s mail in order, over few connections', async () => {
    const r = runtime!;
    const before = { mails: smtp.accepted.length, connections: smtp.state.connections };
    const filed = await fileBurst(r, 'BURST', 60);
    // A store reply on a third of them at once: their shopper's second mail must not overtake the first.
    const replied = filed.filter((_, i) => i % 3 === 0);
    await Promise.all(
      replied.map(async (claim) => {
        const sent = await r.app.inject({
          method: 'POST',
          url: `/api/claims/${claim.token}/messages`,
          payload: { messageContent: 'Photo attached.' },
        });
        expect(sent.statusCode, sent.body).toBe(201);
      }),
    );
    const owner = await r.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'owner@acme.test', password: 'demo-pass-1234' },
    });
    const cookie = String(owner.headers['set-cookie']).split(';')[0]!;
    await Promise.all(
      replied.map(async (claim) => {
        const sent = await r.app.inject({
          method: 'POST',
          url: `/api/admin/claims/${claim.claimId}/messages`,
          headers: { cookie, origin: 'http://localhost' },
          payload: { messageContent: 'A new one is on its way.' },
        });
        expect([200, 201], sent.body).toContain(sent.statusCode);
      }),
    );
    const mails = await eventually(
      async () => {
        const mine = smtp.accepted.slice(before.mails).filter((m) => filed.some((c) => recipient(m).includes(c.email)));
        expect(mine.length).toBe(filed.length + replied.length);
        return mine;
      },
      120_000,
      200,
    );
    for (const claim of filed) {
      const theirs = mails.filter((m) => recipient(m).includes(claim.email));
      expect(theirs.filter(received).map((m) => m.subject)).toEqual([`We received your claim #${claim.claimNumber}`]);
      // In the order of the claim's events: the filing's mail first.
      expect(received(theirs[0]!)).toBe(true);
    }
    // Connections kept and reused: at most the pool's three (again if one closed), not one per mail.
    const connections = smtp.state.connections - before.connections;
    const everyMail = smtp.accepted.length - before.mails;
    expect(connections).toBeLessThanOrEqual(6);
    expect(everyMail).toBeGreaterThanOrEqual(10 * connections);
  }, 180_000);

  it('sends no mail twice when the process dies mid-batch and starts again', async () => {
    const r = runtime!;
    const acceptedBefore = smtp.accepted.length;
    const recordsBefore = await sentRecords(r);
    // The server answers five more mails, then stalls on the rest of the batch.
    smtp.state.accepting = (count) => count < acceptedBefore + 5;
    const filed = await fileBurst(r, 'CRASH', 40);
    // The five sent are recorded (each as soon as it went out); the batch is still in hand, its checkpoint unmoved.
    await eventually(async () => expect(await sentRecords(r)).toBeGreaterThanOrEqual(recordsBefore + 5), 60_000, 100);
    // Dies: its connections and database cut, nothing more written.
    await r.abandonStop();
    smtp.release();
    await r.stop();
    runtime = null;

    // Back without the reactions: the metrics show the shopper's mail behind, in events and in seconds.
    smtp.state.accepting = () => true;
    const without = await start('relay,projectors');
    await eventually(async () => {
      expect(await scrape(without, 'claims_reaction_lag_events')).toBeGreaterThan(0);
      expect(await scrape(without, 'claims_reaction_lag_seconds')).toBeGreaterThan(0);
    });
    await without.stop();
    runtime = null;

    const again = await start('relay,projectors,reactions,delivery,timers');
    await eventually(
      async () => {
        await again.settle();
        for (const claim of filed)
          expect(smtp.accepted.filter((m) => recipient(m).includes(claim.email) && received(m))).toHaveLength(1);
      },
      120_000,
      500,
    );
    expect(await scrape(again, 'claims_reaction_lag_events')).toBe(0);
    expect(await scrape(again, 'claims_reaction_lag_seconds')).toBe(0);
  }, 240_000);
});
