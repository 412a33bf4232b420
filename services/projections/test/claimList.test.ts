import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DomainFailure, type EventOf, type Risk } from '@claims/contracts';
import { riskOfFiled } from '@claims/domain';
import { applyEvents, claimListProjection, idleClaims, listClaims } from '../src/index.js';
import { claimListRiskBackfill } from '../src/claim-list/claimListRiskBackfill.js';
import { projectionDatabase } from './support/projectionDatabase.js';
import { agent, ClaimStory, order, twoItems } from './support/claimStory.js';

const everyStore = { storeIds: null, limit: 50 };

/** Filed, opened, messaged, labelled and refunded: the life of most claims. */
function refundedClaim(claimNumber = '10001', startsAt?: string): ClaimStory {
  const story = new ClaimStory(randomUUID(), claimNumber, startsAt).file();
  return story
    .do({ type: 'ChangeClaimStatus', to: 'OPEN', note: null })
    .message('Sorry!')
    .do({ type: 'AddClaimLabel', label: 'vip' })
    .resolve({ resolutionType: 'REFUND' });
}

const reverse = (story: ClaimStory, reason = 'Charged back') =>
  story.do({
    type: 'ReverseResolution',
    storeId: order.storeId,
    clawbackEntryIds: [randomUUID(), randomUUID(), randomUUID()],
    reason,
    actor: agent,
    now: story.at(),
  });

describe('claim-list projection', () => {
  let db: Kysely<unknown>;
  beforeAll(async () => {
    db = await projectionDatabase([claimListProjection]);
  });
  beforeEach(async () => {
    await sql`truncate claim_list, projection_offsets`.execute(db);
  });
  afterAll(async () => {
    await db.destroy();
  });

  it('keeps one row per claim current through its events, and skips what it does not handle', async () => {
    const story = refundedClaim();
    const claimEvents = story.envelopes.filter((e) => e.streamId === story.claimId);
    expect(story.envelopes.map((e) => e.type)).toContain('OrderItemsClaimed');

    expect(await applyEvents(db, claimListProjection, story.envelopes)).toBe(claimEvents.length);

    const {
      rows: [row],
      nextCursor,
    } = await listClaims(db, everyStore);
    expect(nextCursor).toBeNull();
    const filed = claimEvents[0]!;
    const resolved = claimEvents.at(-1)!;
    expect(row).toMatchObject({
      claim_id: story.claimId,
      store_id: order.storeId,
      claim_number: '10001',
      status: 'RESOLVED',
      claim_type: 'DAMAGED',
      order_number: '1001',
      customer_email: 'ava@example.com',
      requested_resolution: 'REFUND',
      currency: 'USD',
      item_count: 1,
      message_count: 1,
      resolution_type: 'REFUND',
    });
    // Two of three socks at 1800, each with its share of the line's 300 discount and 432 tax: 2 × (1700 + 144).
    expect(Number(row!.claimed_value)).toBe(3688);
    expect(Number(row!.version)).toBe(resolved.streamVersion);
    expect(new Date(row!.created_at).toISOString()).toBe(filed.occurredAt);
    expect(new Date(row!.resolved_at!).toISOString()).toBe(resolved.occurredAt);
    expect(new Date(row!.updated_at).toISOString()).toBe(resolved.occurredAt);
  });

  it('moves the version but not the last activity on a label, so SLA timers count from the shopper-visible change', async () => {
    const story = new ClaimStory().file().do({ type: 'ChangeClaimStatus', to: 'WAITING_FOR_CUSTOMER', note: null });
    await applyEvents(db, claimListProjection, story.envelopes);
    const statusChangedAt = story.envelopes.at(-1)!.occurredAt;
    story.do({ type: 'AddClaimLabel', label: 'slow' });
    await applyEvents(db, claimListProjection, story.envelopes.slice(-1));

    const [row] = (await listClaims(db, everyStore)).rows;
    expect(row!.status).toBe('WAITING_FOR_CUSTOMER');
    expect(Number(row!.version)).toBe(story.envelopes.at(-1)!.streamVersion);
    expect(new Date(row!.updated_at).toISOString()).toBe(statusChangedAt);
    const idle = await idleClaims(
      db,
      [{ storeId: order.storeId, status: 'WAITING_FOR_CUSTOMER', before: statusChangedAt }],
      10,
    );
    expect(idle).toEqual([{ claimId: story.claimId, storeId: order.storeId }]);
    expect(await idleClaims(db, [{ storeId: order.storeId, status: 'OPEN', before: statusChangedAt }], 10)).toEqual([]);
  });

  it("carries the risk filing recorded, and fills it in for rows listed before from each claim's filing", async () => {
    const recorded: Risk = {
      level: 'high',
      score: 75,
      reasons: [{ code: 'reused_photos', text: 'A photo is on another claim.' }],
    };
    const assessed = new ClaimStory(randomUUID(), '10001').file();
    const legacy = new ClaimStory(randomUUID(), '10002').file();
    const filedOf = (story: ClaimStory) => story.envelopes.find((e) => e.streamId === story.claimId)!;
    const filedData = (story: ClaimStory) => filedOf(story).data as EventOf<'ClaimFiled'>['data'];
    const withRisk = { ...filedOf(assessed), data: { ...filedData(assessed), risk: recorded } };
    const { risk: _none, ...legacyData } = filedData(legacy);
    const withoutRisk = { ...filedOf(legacy), data: legacyData };
    await applyEvents(db, claimListProjection, [withRisk, withoutRisk]);
    const risks = async () =>
      (await listClaims(db, everyStore)).rows
        .map((r) => [r.claim_number, r.risk_level, r.risk_score])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    const fromEvent = riskOfFiled(legacyData);
    const expected = [
      ['10001', 'high', 75],
      ['10002', fromEvent.level, fromEvent.score],
    ];
    expect(await risks()).toEqual(expected);

    // Rows listed before the column: the migration reads each claim's ClaimFiled where the event store shares the
    // database (here a table of the same shape), through the same riskOfFiled.
    await sql`update claim_list set risk_level = null, risk_score = null`.execute(db);
    await sql`create table events (stream_id text, stream_version bigint, type text, data jsonb)`.execute(db);
    try {
      for (const e of [withRisk, withoutRisk])
        await sql`insert into events values (${e.streamId}, ${e.streamVersion}, ${e.type}, ${JSON.stringify(e.data)}::jsonb)`.execute(
          db,
        );
      await claimListRiskBackfill.up(db);
      expect(await risks()).toEqual(expected);
    } finally {
      await sql`drop table events`.execute(db);
    }
  });

  it('changes nothing when a batch is delivered again', async () => {
    const story = refundedClaim();
    await applyEvents(db, claimListProjection, story.envelopes);
    const before = await listClaims(db, everyStore);
    expect(await applyEvents(db, claimListProjection, story.envelopes)).toBe(0);
    expect(await listClaims(db, everyStore)).toEqual(before);
  });

  it('answers filters and pages newest first, and refuses a cursor it did not give out', async () => {
    const stories = [
      refundedClaim('10001', '2026-11-20T09:00:00.000Z'),
      new ClaimStory(randomUUID(), '10002', '2026-11-21T09:00:00.000Z').file(),
      new ClaimStory(randomUUID(), '10003', '2026-11-22T09:00:00.000Z').file(),
    ];
    await applyEvents(
      db,
      claimListProjection,
      stories.flatMap((story) => story.envelopes),
    );

    const first = await listClaims(db, { ...everyStore, limit: 2 });
    expect(first.rows.map((r) => r.claim_number)).toEqual(['10003', '10002']);
    const second = await listClaims(db, { ...everyStore, limit: 2, cursor: first.nextCursor! });
    expect(second.rows.map((r) => r.claim_number)).toEqual(['10001']);
    expect(second.nextCursor).toBeNull();

    expect((await listClaims(db, { ...everyStore, status: ['RESOLVED'] })).rows.map((r) => r.claim_number)).toEqual([
      '10001',
    ]);
    expect((await listClaims(db, { ...everyStore, search: '#10002' })).rows.map((r) => r.claim_number)).toEqual([
      '10002',
    ]);
    expect((await listClaims(db, { ...everyStore, search: 'AVA@example.com' })).rows).toHaveLength(3);
    expect((await listClaims(db, { ...everyStore, storeIds: [randomUUID()] })).rows).toEqual([]);
    await expect(listClaims(db, { ...everyStore, cursor: 'bogus' })).rejects.toMatchObject({
      code: 'validation_failed',
    });
    await expect(listClaims(db, { ...everyStore, cursor: 'bogus' })).rejects.toBeInstanceOf(DomainFailure);
  });

  describe('a reversed resolution', () => {
    const rowOf = async (claimId: string) =>
      (await listClaims(db, everyStore)).rows.find((r) => r.claim_id === claimId)!;

    it('leaves a decided claim open with no resolution, until the next decision names it again', async () => {
      const story = refundedClaim();
      await applyEvents(db, claimListProjection, story.envelopes);
      expect(await rowOf(story.claimId)).toMatchObject({ status: 'RESOLVED', resolution_type: 'REFUND' });

      reverse(story);
      const reversal = story.envelopes.at(-1)!;
      expect(reversal.type).toBe('ClaimStatusChanged');
      await applyEvents(db, claimListProjection, story.envelopes.slice(-2));
      const reversed = await rowOf(story.claimId);
      expect(reversed).toMatchObject({ status: 'OPEN', resolution_type: null, resolved_at: null });
      expect(Number(reversed.version)).toBe(reversal.streamVersion);

      story.resolve({ resolutionType: 'RESHIP' });
      await applyEvents(db, claimListProjection, story.envelopes.slice(-1));
      const decidedAgain = await rowOf(story.claimId);
      expect(decidedAgain).toMatchObject({ status: 'RESOLVED', resolution_type: 'RESHIP' });
      expect(new Date(decidedAgain.resolved_at!).toISOString()).toBe(story.envelopes.at(-1)!.occurredAt);
    });

    it('takes back a decision on some items while the claim keeps its status, and moves the version and last activity', async () => {
      const story = new ClaimStory().file(twoItems.request).do({ type: 'ChangeClaimStatus', to: 'OPEN', note: null });
      story.resolve({ resolutionType: 'STORE_CREDIT', items: [{ claimItemId: twoItems.itemIds[0] }] });
      await applyEvents(db, claimListProjection, story.envelopes);
      expect(await rowOf(story.claimId)).toMatchObject({
        status: 'OPEN',
        resolution_type: 'STORE_CREDIT',
        resolved_at: null,
      });

      reverse(story, 'Decided the wrong item');
      const reversal = story.envelopes.at(-1)!;
      expect(reversal.type).toBe('ClaimResolutionReversed');
      await applyEvents(db, claimListProjection, [reversal]);
      const row = await rowOf(story.claimId);
      expect(row).toMatchObject({ status: 'OPEN', resolution_type: null, resolved_at: null });
      expect(Number(row.version)).toBe(reversal.streamVersion);
      expect(new Date(row.updated_at).toISOString()).toBe(reversal.occurredAt);
    });

    it('ends as event by event when the decision, its reversal and the next decision come in one batch', async () => {
      const story = refundedClaim();
      reverse(story);
      story.resolve({ resolutionType: 'DENY', reason: 'PACKAGE_ARRIVED' });
      await applyEvents(db, claimListProjection, story.envelopes);
      const row = await rowOf(story.claimId);
      expect(row).toMatchObject({ status: 'DENIED', resolution_type: 'DENY' });
      expect(new Date(row.resolved_at!).toISOString()).toBe(story.envelopes.at(-1)!.occurredAt);
    });
  });
});
