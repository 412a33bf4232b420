import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  CreateApiTokenResponse,
  CreateWebhookEndpointResponse,
  OperationsView,
  ParkedDeliveryOutcome,
} from '@claims/contracts';
import { eventually } from '../../../test/support/testDatabase.js';
import { StandardWebhookReceiver } from '../../../test/support/standardWebhookReceiver.js';
import { startDeliveryWorker, type DeliveryWorker } from '../src/webhooks/deliveryWorker.js';
import { json, oneItemClaim, startHarness, type Harness } from './support/backofficeHarness.js';

const TRIES = 3;

/**
 * A fault of our own while processing a delivery (the receiver answers 204 every time): recording the attempts of the
 * deliveries about the claims listed in `poisoned_claims` is refused by the database.
 */
async function refusePoisonedAttempts(db: Harness['runtime']['ctx']['database']['db']): Promise<void> {
  await sql`create table poisoned_claims (claim_id text primary key)`.execute(db);
  await sql`
    create function refuse_poisoned_attempt() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from webhook_deliveries d join poisoned_claims p on strpos(d.payload, p.claim_id) > 0 where d.id = new.delivery_id) then
        raise exception 'attempt record refused for delivery %', new.delivery_id;
      end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger poisoned_attempt before insert on webhook_delivery_attempts for each row execute function refuse_poisoned_attempt()`.execute(
    db,
  );
}

describe('a webhook delivery whose processing keeps failing is parked; the others are delivered; a person retries or skips it', () => {
  let h: Harness;
  let worker: DeliveryWorker | null = null;
  const receiver = new StandardWebhookReceiver();
  beforeAll(async () => {
    // The delivery worker is the test's, with short pauses.
    h = await startHarness({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WORKERS: 'projectors,reactions,timers' });
  });
  afterAll(async () => {
    await worker?.stop();
    await h?.stop();
    await receiver.stop();
  });

  it('parks only the delivery it cannot record, reports it, and lets the admin retry it (delivered once fixed) or skip it', async () => {
    const db = h.runtime.ctx.database.db;
    const acme = await h.storeId('acme');
    const created = await h.call({
      method: 'POST',
      url: `/api/stores/${acme}/api-tokens`,
      cookie: await h.login('acmeOwner'),
      body: { name: 'parking', permissions: ['webhook:create', 'webhook:read'] },
    });
    const token = CreateApiTokenResponse.parse(json(created)).token;
    const made = await h.call({
      method: 'POST',
      url: '/api/v1/webhook-endpoints',
      token,
      body: { url: await receiver.start(), eventTypes: ['claim.filed'] },
    });
    expect(made.statusCode, made.body).toBe(201);
    receiver.secrets.push(CreateWebhookEndpointResponse.parse(json(made)).secret);

    await refusePoisonedAttempts(db);
    const retried = (await h.fileClaim('acme-5001', oneItemClaim('ava@example.com', 'f-1001-1', 'li-1'))).claimId;
    const delivered = (await h.fileClaim('acme-5001', oneItemClaim('ava@example.com', 'f-1001-1', 'li-2'))).claimId;
    const skipped = (await h.fileClaim('acme-5001', oneItemClaim('ava@example.com', 'f-1001-1', 'li-3'))).claimId;
    await h.runtime.settle();
    await sql`insert into poisoned_claims values (${retried}), (${skipped})`.execute(db);
    // The lease outlasts the recording's retries (half of it): a delivery is sent again only when its try failed.
    worker = startDeliveryWorker(h.runtime.ctx, {
      pollMs: 20,
      leaseMs: 4_000,
      maxProcessingFailures: TRIES,
      processingRetryMs: 10,
    });

    const admin = await h.login('admin');
    const operations = async () =>
      OperationsView.parse(json(await h.call({ method: 'GET', url: '/api/admin/operations', cookie: admin })));
    const receivedFor = (claimId: string) =>
      receiver.deliveries.filter((d) => String(d.payload.data.claimId) === claimId);
    const parked = await eventually(
      async () => {
        const view = await operations();
        expect(view.parkedWebhookDeliveries).toHaveLength(2);
        return view.parkedWebhookDeliveries;
      },
      30_000,
      100,
    );
    for (const p of parked)
      expect(p).toMatchObject({
        eventType: 'claim.filed',
        failures: TRIES,
        error: expect.stringMatching(/attempt record refused/),
      });
    // The claim filed between the two got its webhook once, recorded as delivered.
    expect(receivedFor(delivered)).toHaveLength(1);
    const { rows: deliveredRows } = await sql<{ status: string; attempts: number }>`
      select status, attempts from webhook_deliveries where strpos(payload, ${delivered}) > 0`.execute(db);
    expect(deliveredRows).toEqual([{ status: 'succeeded', attempts: 1 }]);
    // Each parked one was sent once per try, then no more.
    expect(receivedFor(retried)).toHaveLength(TRIES);

    // Anyone reads that it is degraded; the reason is an operator's (docs/decisions/health-without-details.md).
    const open = await h.call({ method: 'GET', url: '/api/health' });
    expect(open.statusCode).toBe(503);
    expect(json<{ components: Record<string, unknown> }>(open).components.webhooks).toEqual({ status: 'degraded' });
    const health = await h.call({ method: 'GET', url: '/api/health', cookie: admin });
    expect(health.statusCode).toBe(503);
    expect(json<{ components: Record<string, unknown> }>(health).components.webhooks).toEqual({
      status: 'failing',
      reason: expect.stringMatching(/parked webhook deliveries .*: 2/),
    });
    const metrics = await h.call({ method: 'GET', url: '/api/metrics' });
    expect(metrics.body).toMatch(/^claims_webhook_deliveries_parked 2$/m);

    const deliveryOf = (claimId: string) => {
      const webhookId = receivedFor(claimId)[0]!.webhookId;
      return parked.find((p) => p.webhookId === webhookId)!.deliveryId;
    };
    const path = (claimId: string, action: string) =>
      `/api/admin/operations/webhook-deliveries/${deliveryOf(claimId)}/${action}`;
    expect(
      (await h.call({ method: 'POST', url: path(retried, 'retry'), cookie: await h.login('finance') })).statusCode,
    ).toBe(403);

    await sql`drop trigger poisoned_attempt on webhook_delivery_attempts`.execute(db);
    const retry = await h.call({ method: 'POST', url: path(retried, 'retry'), cookie: admin });
    expect(retry.statusCode).toBe(200);
    expect(ParkedDeliveryOutcome.parse(json(retry))).toEqual({ deliveryId: deliveryOf(retried), outcome: 'retried' });
    await eventually(
      async () => {
        const { rows } = await sql<{
          status: string;
        }>`select status from webhook_deliveries where id = ${deliveryOf(retried)}::uuid`.execute(db);
        expect(rows[0]!.status).toBe('succeeded');
      },
      20_000,
      50,
    );
    // The same webhook-id every time: the receiver deduplicates.
    expect(new Set(receivedFor(retried).map((d) => d.webhookId)).size).toBe(1);

    const skip = await h.call({ method: 'POST', url: path(skipped, 'skip'), cookie: admin });
    expect(ParkedDeliveryOutcome.parse(json(skip)).outcome).toBe('skipped');
    const { rows: skippedRows } = await sql<{
      status: string;
    }>`select status from webhook_deliveries where id = ${deliveryOf(skipped)}::uuid`.execute(db);
    expect(skippedRows[0]!.status).toBe('cancelled');
    expect((await h.call({ method: 'POST', url: path(skipped, 'retry'), cookie: admin })).statusCode).toBe(404);

    const adminId = json<{ user: { id: string } }>(await h.call({ method: 'GET', url: '/api/auth/me', cookie: admin }))
      .user.id;
    const { rows: audit } = await sql<{ delivery_id: string; resolution: string; resolved_by: string }>`
      select delivery_id, resolution, resolved_by from webhook_delivery_parked order by resolution`.execute(db);
    expect(audit).toEqual([
      { delivery_id: deliveryOf(retried), resolution: 'retried', resolved_by: adminId },
      { delivery_id: deliveryOf(skipped), resolution: 'skipped', resolved_by: adminId },
    ]);
    expect((await operations()).parkedWebhookDeliveries).toEqual([]);
    expect((await h.call({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});
