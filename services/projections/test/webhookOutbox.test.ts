import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DomainFailure, WEBHOOK_EVENT_TYPES, WebhookPayload } from '@claims/contracts';
import {
  applyEvents,
  cancelPendingDeliveries,
  claimDueDeliveries,
  enqueueTestDelivery,
  listDeliveryAttempts,
  recordDeliveryAttempt,
  replayDelivery,
  replayDeliveriesBetween,
  webhookOutboxProjection,
  type NextAttemptAfterFailure,
} from '../src/index.js';
import { projectionDatabase } from './support/projectionDatabase.js';
import { webhookEndpointsTable } from './support/webhookEndpointsTable.js';
import { agent, ClaimStory, NOW, order } from './support/claimStory.js';

const hoursAgo = (hours: number) => new Date(Date.parse(NOW) - hours * 3_600_000).toISOString();
const FIVE_SECONDS_LATER: NextAttemptAfterFailure = ({ failedAt }) => new Date(failedAt.getTime() + 5_000);

/** A claim's life with everything a webhook receiver hears about, and a note and a label it never does. */
function busyClaim(): ClaimStory {
  const story = new ClaimStory().file();
  return story
    .do({ type: 'ChangeClaimStatus', to: 'OPEN', note: null })
    .message('Hi')
    .do({ type: 'AddClaimNote', noteId: randomUUID(), actor: agent, body: 'internal', now: story.at() })
    .do({ type: 'AddClaimLabel', label: 'vip' })
    .resolve({ resolutionType: 'REFUND' })
    .do({ type: 'AddReview', reviewId: randomUUID(), now: story.at(), review: { rating: 4, text: 'ok' } });
}

describe('webhook-outbox projection', () => {
  let db: Kysely<unknown>;
  const endpoint = async (input: {
    storeId?: string;
    eventTypes?: string[];
    createdAt?: string;
    deletedAt?: string;
  }) => {
    const id = randomUUID();
    await sql`insert into webhook_endpoints (id, store_id, url, secret, event_types, created_at, deleted_at)
      values (${id}::uuid, ${input.storeId ?? order.storeId}::uuid, 'https://example.com/hook', 'whsec_x', ${input.eventTypes ?? null}::text[],
              ${input.createdAt ?? hoursAgo(1)}::timestamptz, ${input.deletedAt ?? null}::timestamptz)`.execute(db);
    return id;
  };
  const deliveries = async () =>
    (
      await sql<{
        id: string;
        endpoint_id: string;
        event_type: string;
        webhook_id: string;
        payload: string;
        status: string;
      }>`
    select id, endpoint_id, event_type, webhook_id, payload, status from webhook_deliveries order by created_at, event_type`.execute(
        db,
      )
    ).rows;

  beforeAll(async () => {
    db = await projectionDatabase([webhookOutboxProjection], webhookEndpointsTable);
  });
  beforeEach(async () => {
    await sql`truncate webhook_deliveries, webhook_delivery_attempts, webhook_endpoints, projection_offsets`.execute(
      db,
    );
  });
  afterAll(async () => {
    await db.destroy();
  });

  it('owes each subscribed endpoint of the store one delivery per webhook event, and never a secret', async () => {
    const everything = await endpoint({});
    const resolvedOnly = await endpoint({ eventTypes: ['claim.resolved'] });
    await endpoint({ storeId: randomUUID() });
    await endpoint({ createdAt: hoursAgo(-24) });
    await endpoint({ deletedAt: hoursAgo(0.5) });
    const story = busyClaim();

    await applyEvents(db, webhookOutboxProjection, story.envelopes);

    const rows = await deliveries();
    expect(
      rows
        .filter((r) => r.endpoint_id === everything)
        .map((r) => r.event_type)
        .sort(),
    ).toEqual(['claim.filed', 'claim.message_created', 'claim.resolved', 'claim.reviewed', 'claim.status_changed']);
    expect(rows.filter((r) => r.endpoint_id === resolvedOnly).map((r) => r.event_type)).toEqual(['claim.resolved']);
    expect(rows).toHaveLength(6);
    expect(new Set(rows.map((r) => r.webhook_id)).size).toBe(6);
    for (const row of rows) {
      expect(row.webhook_id).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(row.status).toBe('pending');
      const payload = WebhookPayload.parse(JSON.parse(row.payload));
      expect(payload.type).toBe(row.event_type);
      expect(payload.data).toMatchObject({ claimId: story.claimId, storeId: order.storeId });
      expect(row.payload).not.toContain('tokenHash');
    }
  });

  it('sends a decision on some items as claim.items_resolved with its lines, and claim.resolved once the claim as a whole is decided', async () => {
    const everything = await endpoint({});
    const resolvedOnly = await endpoint({ eventTypes: ['claim.resolved'] });
    const itemsOnly = await endpoint({ eventTypes: ['claim.items_resolved'] });
    const story = new ClaimStory().file({
      fulfillmentIssues: [
        {
          sourceFulfillmentId: 'f-1',
          issues: ['li-1', 'li-3'].map((sourceItemId) => ({
            sourceItemId,
            claimType: 'DAMAGED' as const,
            quantity: 1,
            details: '',
            images: [],
          })),
        },
      ],
    });
    const itemIds = story.envelopes.flatMap((e) =>
      e.type === 'ClaimFiled' ? (e.data as { items: Array<{ id: string }> }).items.map((i) => i.id) : [],
    );
    const decide = (claimItemId: string, resolutionType: 'STORE_CREDIT' | 'DENY' | 'REFUND') =>
      story.resolve({ resolutionType, reason: 'NOT_COVERED', items: [{ claimItemId }] });
    decide(itemIds[0]!, 'STORE_CREDIT');
    await applyEvents(db, webhookOutboxProjection, story.envelopes);
    const payloads = async (endpointId: string) =>
      (await deliveries())
        .filter((r) => r.endpoint_id === endpointId)
        .map((r) => WebhookPayload.parse(JSON.parse(r.payload)))
        .filter((p) => p.type !== 'claim.filed');
    const first = await payloads(everything);
    expect(first).toEqual([
      {
        type: 'claim.items_resolved',
        timestamp: expect.any(String),
        data: expect.objectContaining({
          claimId: story.claimId,
          storeId: order.storeId,
          status: 'NEW',
          outcome: 'APPROVED',
          resolutions: [expect.objectContaining({ relatedClaimItemId: itemIds[0], resolutionType: 'STORE_CREDIT' })],
        }),
      },
    ]);
    expect(await payloads(resolvedOnly)).toEqual([]);

    decide(itemIds[1]!, 'DENY');
    await applyEvents(db, webhookOutboxProjection, story.envelopes);
    const whole = (await payloads(everything)).filter((p) => p.type === 'claim.resolved');
    expect(whole).toHaveLength(1);
    // Both items, and the claim's outcome: the jacket's credit stands, so the claim is approved though this decision denies.
    expect(whole[0]!.data).toMatchObject({
      status: 'RESOLVED',
      outcome: 'APPROVED',
      resolutions: [
        { relatedClaimItemId: itemIds[0], resolutionType: 'STORE_CREDIT' },
        { relatedClaimItemId: itemIds[1], resolutionType: 'DENY' },
      ],
    });
    expect(whole[0]!.data).not.toHaveProperty('claimResolutions');
    expect((await payloads(resolvedOnly)).map((p) => p.type)).toEqual(['claim.resolved']);
    expect((await payloads(itemsOnly)).map((p) => p.type)).toEqual(['claim.items_resolved']);

    // Taken back and decided again: a new whole decision, a claim.resolved of its own with the lines standing now.
    story
      .do({
        type: 'ReverseResolution',
        storeId: order.storeId,
        clawbackEntryIds: [randomUUID(), randomUUID()],
        reason: 'Charged back',
        actor: agent,
        now: story.at(),
      })
      .resolve({ resolutionType: 'REFUND' });
    await applyEvents(db, webhookOutboxProjection, story.envelopes);
    const resolved = (await payloads(resolvedOnly)).map((p) => p.data);
    expect(resolved).toHaveLength(2);
    expect(resolved[1]).toMatchObject({
      status: 'RESOLVED',
      outcome: 'APPROVED',
      resolutions: [{ resolutionType: 'REFUND' }, { resolutionType: 'REFUND' }],
    });
    expect(resolved[1]!['resolutions']).toHaveLength(2);
    // The reversal itself is told, with the lines it took back and why, never who in the back-office or its payout entries.
    const reversals = (await payloads(everything)).filter((p) => p.type === 'claim.resolution_reversed');
    expect(reversals).toHaveLength(1);
    expect(reversals[0]!.data).toEqual({
      claimId: story.claimId,
      storeId: order.storeId,
      reason: 'Charged back',
      reversedAt: expect.any(String),
      resolutionIds: z
        .array(z.object({ id: z.string() }))
        .parse(whole[0]!.data['resolutions'])
        .map((r) => r.id),
    });
  });

  it('owes nothing twice when the events come again, even with the offsets forgotten (a rebuild)', async () => {
    await endpoint({});
    const story = busyClaim();
    await applyEvents(db, webhookOutboxProjection, story.envelopes);
    const first = await deliveries();
    await sql`truncate projection_offsets`.execute(db);
    await applyEvents(db, webhookOutboxProjection, story.envelopes);
    expect(await deliveries()).toEqual(first);
  });

  it('claims, records, retries, lists, replays and cancels deliveries through its own functions', async () => {
    const endpointId = await endpoint({ eventTypes: ['claim.filed'] });
    const story = new ClaimStory().file();
    await applyEvents(db, webhookOutboxProjection, story.envelopes);
    const now = new Date(Date.parse(NOW) + 60_000);

    const [claimed] = await claimDueDeliveries(db, now, 10, 60_000);
    expect(claimed).toMatchObject({ endpointId, url: 'https://example.com/hook', secrets: ['whsec_x'] });
    expect(await claimDueDeliveries(db, now, 10, 60_000)).toEqual([]);

    await recordDeliveryAttempt(
      db,
      claimed!,
      { statusCode: 503, error: null, succeeded: false, durationMs: 40, responseExcerpt: 'busy' },
      now,
      FIVE_SECONDS_LATER,
    );
    const retryAt = new Date(now.getTime() + 40 + 5_000);
    expect(await claimDueDeliveries(db, new Date(retryAt.getTime() - 1), 10, 60_000)).toEqual([]);
    const [retried] = await claimDueDeliveries(db, retryAt, 10, 60_000);
    expect(retried!.webhookId).toBe(claimed!.webhookId);
    await recordDeliveryAttempt(
      db,
      retried!,
      { statusCode: 200, error: null, succeeded: true, durationMs: 12, responseExcerpt: null },
      retryAt,
      FIVE_SECONDS_LATER,
    );

    const page = await listDeliveryAttempts(db, endpointId, { limit: 1 });
    expect(page.data.map((a) => [a.attempt, a.statusCode, a.succeeded])).toEqual([[2, 200, true]]);
    expect(page.data[0]).toMatchObject({ deliveryStatus: 'succeeded', nextAttemptAt: null, responseExcerpt: null });
    const rest = await listDeliveryAttempts(db, endpointId, { limit: 1, cursor: page.nextCursor! });
    expect(rest.data.map((a) => [a.attempt, a.statusCode, a.succeeded])).toEqual([[1, 503, false]]);
    expect(rest.data[0]).toMatchObject({ responseExcerpt: 'busy', deliveryStatus: 'succeeded' });
    expect(rest.nextCursor).toBeNull();
    await expect(listDeliveryAttempts(db, endpointId, { limit: 1, cursor: 'bogus' })).rejects.toBeInstanceOf(
      DomainFailure,
    );
    expect((await deliveries())[0]!.status).toBe('succeeded');

    const replayed = await replayDelivery(db, endpointId, claimed!.id, retryAt.toISOString());
    expect(replayed).toMatchObject({ deliveryId: claimed!.id, webhookId: claimed!.webhookId, status: 'pending' });
    expect(await replayDelivery(db, randomUUID(), claimed!.id, retryAt.toISOString())).toBeNull();

    await cancelPendingDeliveries(db, endpointId);
    expect((await deliveries())[0]!.status).toBe('cancelled');
    expect(await claimDueDeliveries(db, new Date(retryAt.getTime() + 3_600_000), 10, 60_000)).toEqual([]);
  });

  it('claims at most perEndpoint attempts under way per endpoint, counting leases, so a busy endpoint leaves room for the others', async () => {
    const busy = await endpoint({});
    const other = await endpoint({ eventTypes: ['claim.filed'] });
    const stories = [busyClaim(), busyClaim(), busyClaim()];
    for (const story of stories) await applyEvents(db, webhookOutboxProjection, story.envelopes);
    const now = new Date(Math.max(...stories.map((story) => Date.parse(story.at()))) + 60_000);
    const byEndpoint = (claimed: Awaited<ReturnType<typeof claimDueDeliveries>>) =>
      [busy, other].map((id) => claimed.filter((d) => d.endpointId === id).length);

    const first = await claimDueDeliveries(db, now, 50, 60_000, 2);
    expect(byEndpoint(first)).toEqual([2, 2]);
    // Both at their limit while the leases run: nothing more, though 13 of the busy one's are due.
    expect(await claimDueDeliveries(db, now, 50, 60_000, 2)).toEqual([]);
    await recordDeliveryAttempt(
      db,
      first.find((d) => d.endpointId === busy)!,
      { statusCode: null, error: 'timeout', succeeded: false, durationMs: 10_000, responseExcerpt: null },
      now,
      FIVE_SECONDS_LATER,
    );
    expect(byEndpoint(await claimDueDeliveries(db, now, 50, 60_000, 2))).toEqual([1, 0]);
    // A lease that ran out (its worker died) no longer counts.
    expect(byEndpoint(await claimDueDeliveries(db, new Date(now.getTime() + 61_000), 50, 60_000, 2))).toEqual([2, 2]);
  });

  it('replays every delivery of the events of a time range, and queues test deliveries like any other', async () => {
    const endpointId = await endpoint({});
    const story = busyClaim();
    await applyEvents(db, webhookOutboxProjection, story.envelopes);
    const now = new Date(Date.parse(story.at()) + 60_000);
    const claimed = await claimDueDeliveries(db, now, 50, 60_000);
    expect(claimed).toHaveLength(5);
    for (const delivery of claimed) {
      await recordDeliveryAttempt(
        db,
        delivery,
        { statusCode: 204, error: null, succeeded: true, durationMs: 3, responseExcerpt: null },
        now,
        FIVE_SECONDS_LATER,
      );
    }
    const times = story.envelopes
      .filter((e) => e.type !== 'ClaimNoteAdded' && e.type !== 'ClaimLabelAdded')
      .map((e) => e.occurredAt)
      .sort();
    const later = now.toISOString();
    expect(await replayDeliveriesBetween(db, endpointId, hoursAgo(48), times[0]!, later)).toBe(0);
    expect(
      await replayDeliveriesBetween(
        db,
        endpointId,
        times[0]!,
        new Date(Date.parse(times.at(-1)!) + 1).toISOString(),
        later,
      ),
    ).toBe(5);
    expect(await replayDeliveriesBetween(db, randomUUID(), hoursAgo(48), later, later)).toBe(0);
    const again = await claimDueDeliveries(db, now, 50, 60_000);
    expect(again.map((d) => d.webhookId).sort()).toEqual(claimed.map((d) => d.webhookId).sort());

    const test = await enqueueTestDelivery(db, { id: endpointId, storeId: order.storeId }, later);
    const [sent] = await claimDueDeliveries(db, now, 50, 60_000);
    expect(sent).toMatchObject({ id: test.deliveryId, webhookId: test.webhookId });
    expect(WebhookPayload.parse(JSON.parse(sent!.payload))).toMatchObject({
      type: 'webhook.test',
      data: { endpointId, storeId: order.storeId },
    });
  });
});

describe('webhook-outbox projection, its decisions', () => {
  it('turns every event type of WEBHOOK_EVENT_TYPES into deliveries', () => {
    for (const type of Object.keys(WEBHOOK_EVENT_TYPES)) expect([...webhookOutboxProjection.handles]).toContain(type);
  });
});
