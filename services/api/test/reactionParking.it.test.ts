import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { claimNotificationsStreamOf, OperationsView, ParkedReactionOutcome } from '@claims/contracts';
import { eventually } from '../../../test/support/testDatabase.js';
import { json, oneItemClaim, startHarness, type Harness } from './support/backofficeHarness.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const TRIES = 3;
const SHOPPER_MAIL = 'notify-shopper';

/**
 * A fault of our own (as a bad release or a broken row would bring): the shopper's mail records of the claims filed
 * with a correlation id starting `poisoned-` are refused by the database, so notify-shopper fails on their filing
 * every time, and on nothing else.
 */
async function refusePoisonedMailRecords(db: Harness['runtime']['ctx']['database']['db']): Promise<void> {
  await sql`
    create function refuse_poisoned_mail_record() returns trigger language plpgsql as $$
    begin
      raise exception 'mail record refused for %', new.stream_id;
    end $$`.execute(db);
  await sql`
    create trigger poisoned_mail_record before insert on events for each row
    when (new.stream_id like 'claim-notifications:%' and new.metadata->>'correlationId' like 'poisoned-%' and new.data->>'memberId' is null)
    execute function refuse_poisoned_mail_record()`.execute(db);
}

describe('a reaction parks an event that keeps failing and moves on; a person retries or skips it', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(
      { METRICS_TOKEN },
      { reactionFaultPolicy: { maxAttempts: TRIES, baseDelayMs: 5, maxDelayMs: 20 } },
    );
    await h.runtime.settle();
  });
  afterAll(async () => {
    await h?.stop();
  });

  const fileWithCorrelation = async (correlationId: string, item: string) => {
    const response = await h.call({
      method: 'POST',
      url: '/api/claims/acme-5001',
      headers: { 'x-correlation-id': correlationId },
      body: oneItemClaim('ava@example.com', 'f-1001-1', item),
    });
    expect(response.statusCode).toBe(201);
    return json<{ claimId: string }>(response).claimId;
  };
  const shopperMailRecorded = async (claimId: string) => {
    const { rows } = await sql<{ count: number }>`
      select count(*)::int as count from events
      where stream_id = ${claimNotificationsStreamOf(claimId)} and type = 'ClaimNotificationSent' and data->>'memberId' is null`.execute(
      h.runtime.ctx.database.db,
    );
    return rows[0]!.count;
  };
  const operations = async (cookie: string) =>
    OperationsView.parse(json(await h.call({ method: 'GET', url: '/api/admin/operations', cookie })));
  const scrape = async (name: string, labels: Record<string, string>) => {
    const response = await h.call({ method: 'GET', url: '/api/metrics', token: METRICS_TOKEN });
    expect(response.statusCode).toBe(200);
    const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
    const line = response.body.split('\n').find((l) => l.startsWith(`${name}{`) && wanted.every((w) => l.includes(w)));
    if (!line) throw new Error(`no sample ${name} ${JSON.stringify(labels)}`);
    return Number(line.split(' ').at(-1));
  };

  it('parks the failing filing after its tries, handles the claims filed after it, reports it, and lets the admin retry or skip it', async () => {
    const db = h.runtime.ctx.database.db;
    await refusePoisonedMailRecords(db);
    const retried = await fileWithCorrelation('poisoned-retried', 'li-1');
    const later = await fileWithCorrelation('plain-later', 'li-2');
    const skipped = await fileWithCorrelation('poisoned-skipped', 'li-3');

    const admin = await h.login('admin');
    const parked = await eventually(
      async () => {
        const view = await operations(admin);
        const reaction = view.reactions.find((r) => r.name === SHOPPER_MAIL)!;
        expect(reaction.parked.map((p) => p.streamId).sort()).toEqual([retried, skipped].sort());
        return reaction;
      },
      20_000,
      50,
    );
    expect(
      parked.parked.every(
        (p) => p.type === 'ClaimFiled' && p.attempts === TRIES && /mail record refused/.test(p.error),
      ),
    ).toBe(true);
    // The claim filed between the two poisoned ones got its mail: the reaction moved on past the first.
    await eventually(async () => expect(await shopperMailRecorded(later)).toBe(1), 20_000, 50);
    expect(await shopperMailRecorded(retried)).toBe(0);
    await h.runtime.settle();
    const caughtUp = (await operations(admin)).reactions.find((r) => r.name === SHOPPER_MAIL)!;
    expect(caughtUp).toMatchObject({ lagEvents: 0, state: 'running' });

    // Readiness fails as it does for a projector's parked event, naming the reaction; the metrics count them.
    // Anyone reads that it is degraded; the reason is an operator's (docs/decisions/health-without-details.md).
    const open = await h.call({ method: 'GET', url: '/api/health' });
    expect(open.statusCode).toBe(503);
    expect(json<{ components: Record<string, unknown> }>(open).components.reactions).toEqual({ status: 'degraded' });
    const health = await h.call({ method: 'GET', url: '/api/health', cookie: admin });
    expect(health.statusCode).toBe(503);
    expect(json<{ components: Record<string, unknown> }>(health).components.reactions).toEqual({
      status: 'failing',
      reason: expect.stringMatching(/notify-shopper 2/),
    });
    expect(await scrape('claims_reaction_parked_events', { reaction: SHOPPER_MAIL })).toBe(2);
    expect(await scrape('claims_reaction_parked_events', { reaction: 'store-credit' })).toBe(0);
    expect(await scrape('claims_reaction_lag_events', { reaction: SHOPPER_MAIL })).toBe(0);
    expect(await scrape('claims_reaction_lag_seconds', { reaction: SHOPPER_MAIL })).toBe(0);
    expect(await scrape('claims_reaction_state', { reaction: SHOPPER_MAIL, state: 'running' })).toBe(1);

    const eventOf = (claimId: string) => parked.parked.find((p) => p.streamId === claimId)!.eventId;
    const path = (claimId: string, action: string) =>
      `/api/admin/operations/reactions/${SHOPPER_MAIL}/parked/${eventOf(claimId)}/${action}`;
    const owner = await h.login('acmeOwner');
    expect((await h.call({ method: 'POST', url: path(retried, 'retry'), cookie: owner })).statusCode).toBe(403);
    expect(
      (await h.call({ method: 'POST', url: path(retried, 'skip'), cookie: await h.login('finance') })).statusCode,
    ).toBe(403);

    // Still failing: still parked, with one more try.
    const stillFailing = await h.call({ method: 'POST', url: path(retried, 'retry'), cookie: admin });
    expect(stillFailing.statusCode).toBe(422);
    expect(json(stillFailing)).toMatchObject({
      error: 'apply_failed',
      message: expect.stringMatching(/mail record refused/),
    });
    expect(
      (await operations(admin)).reactions
        .find((r) => r.name === SHOPPER_MAIL)!
        .parked.find((p) => p.streamId === retried)!.attempts,
    ).toBe(TRIES + 1);

    // The fault fixed, the retry runs the reaction on the event: the shopper's mail goes out and is recorded.
    await sql`drop trigger poisoned_mail_record on events`.execute(db);
    const handled = await h.call({ method: 'POST', url: path(retried, 'retry'), cookie: admin });
    expect(handled.statusCode).toBe(200);
    expect(ParkedReactionOutcome.parse(json(handled))).toEqual({
      reaction: SHOPPER_MAIL,
      eventId: eventOf(retried),
      outcome: 'handled',
    });
    expect(await shopperMailRecorded(retried)).toBe(1);

    const gaveUp = await h.call({ method: 'POST', url: path(skipped, 'skip'), cookie: admin });
    expect(ParkedReactionOutcome.parse(json(gaveUp)).outcome).toBe('skipped');
    expect(await shopperMailRecorded(skipped)).toBe(0);
    expect((await h.call({ method: 'POST', url: path(skipped, 'retry'), cookie: admin })).statusCode).toBe(404);
    expect((await h.call({ method: 'POST', url: path(retried, 'skip'), cookie: admin })).statusCode).toBe(404);

    // Each decision is kept: who made it, and when.
    const adminId = json<{ user: { id: string } }>(await h.call({ method: 'GET', url: '/api/auth/me', cookie: admin }))
      .user.id;
    const { rows: audit } = await sql<{
      stream_id: string;
      resolution: string;
      resolved_by: string;
      resolved_at: Date | null;
    }>`
      select stream_id, resolution, resolved_by, resolved_at from reaction_parked where reaction = ${SHOPPER_MAIL} order by stream_id`.execute(
      db,
    );
    expect(
      audit
        .map(({ stream_id, resolution, resolved_by }) => ({ stream_id, resolution, resolved_by }))
        .sort((a, b) => a.stream_id.localeCompare(b.stream_id)),
    ).toEqual(
      [
        { stream_id: retried, resolution: 'handled', resolved_by: adminId },
        { stream_id: skipped, resolution: 'skipped', resolved_by: adminId },
      ].sort((a, b) => a.stream_id.localeCompare(b.stream_id)),
    );
    expect(audit.every((row) => row.resolved_at !== null)).toBe(true);

    expect((await operations(admin)).reactions.find((r) => r.name === SHOPPER_MAIL)!.parked).toEqual([]);
    expect(await scrape('claims_reaction_parked_events', { reaction: SHOPPER_MAIL })).toBe(0);
    expect((await h.call({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});
