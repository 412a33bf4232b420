import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DomainFailure, WebhookPayload } from '@claims/contracts';
import { applyEvents, webhookOutboxProjection } from '@claims/projections';
import {
  cancelPendingDeliveries,
  claimDueDeliveries,
  enqueueTestDelivery,
  listDeliveryAttempts,
  recordDeliveryAttempt,
  replayDelivery,
  replayDeliveriesBetween,
  type NextAttemptAfterFailure,
} from '../src/webhooks/deliveryQueue.js';
// The outbox projection enqueues what the queue then works: its own test's stories and database.
import { hoursAgo, webhookOutboxDatabase } from '../../projections/test/support/webhookOutboxDatabase.js';
import { busyClaim, ClaimStory, NOW, order } from '../../projections/test/support/claimStory.js';

const FIVE_SECONDS_LATER: NextAttemptAfterFailure = ({ failedAt }) => new Date(failedAt.getTime() + 5_000);

describe('the webhook delivery queue', () => {
  const { db, endpoint, deliveries } = webhookOutboxDatabase();

  it('claims, records, retries, lists, replays and cancels deliveries through its own functions', async () => {
    const endpointId = await endpoint({ eventTypes: ['claim.filed'] });
    const story = new ClaimStory().file();
    await applyEvents(db(), webhookOutboxProjection, story.envelopes);
    const now = new Date(Date.parse(NOW) + 60_000);

    const [claimed] = await claimDueDeliveries(db(), now, 10, 60_000);
    expect(claimed).toMatchObject({ endpointId, url: 'https://example.com/hook', secrets: ['whsec_x'] });
    expect(await claimDueDeliveries(db(), now, 10, 60_000)).toEqual([]);

    await recordDeliveryAttempt(
      db(),
      claimed!,
      { statusCode: 503, error: null, succeeded: false, durationMs: 40, responseExcerpt: 'busy' },
      now,
      FIVE_SECONDS_LATER,
    );
    const retryAt = new Date(now.getTime() + 40 + 5_000);
    expect(await claimDueDeliveries(db(), new Date(retryAt.getTime() - 1), 10, 60_000)).toEqual([]);
    const [retried] = await claimDueDeliveries(db(), retryAt, 10, 60_000);
    expect(retried!.webhookId).toBe(claimed!.webhookId);
    await recordDeliveryAttempt(
      db(),
      retried!,
      { statusCode: 200, error: null, succeeded: true, durationMs: 12, responseExcerpt: null },
      retryAt,
      FIVE_SECONDS_LATER,
    );

    const page = await listDeliveryAttempts(db(), endpointId, { limit: 1 });
    expect(page.data.map((a) => [a.attempt, a.statusCode, a.succeeded])).toEqual([[2, 200, true]]);
    expect(page.data[0]).toMatchObject({ deliveryStatus: 'succeeded', nextAttemptAt: null, responseExcerpt: null });
    const rest = await listDeliveryAttempts(db(), endpointId, { limit: 1, cursor: page.nextCursor! });
    expect(rest.data.map((a) => [a.attempt, a.statusCode, a.succeeded])).toEqual([[1, 503, false]]);
    expect(rest.data[0]).toMatchObject({ responseExcerpt: 'busy', deliveryStatus: 'succeeded' });
    expect(rest.nextCursor).toBeNull();
    await expect(listDeliveryAttempts(db(), endpointId, { limit: 1, cursor: 'bogus' })).rejects.toBeInstanceOf(
      DomainFailure,
    );
    expect((await deliveries())[0]!.status).toBe('succeeded');

    const replayed = await replayDelivery(db(), endpointId, claimed!.id, retryAt.toISOString());
    expect(replayed).toMatchObject({ deliveryId: claimed!.id, webhookId: claimed!.webhookId, status: 'pending' });
    expect(await replayDelivery(db(), randomUUID(), claimed!.id, retryAt.toISOString())).toBeNull();

    await cancelPendingDeliveries(db(), endpointId);
    expect((await deliveries())[0]!.status).toBe('cancelled');
    expect(await claimDueDeliveries(db(), new Date(retryAt.getTime() + 3_600_000), 10, 60_000)).toEqual([]);
  });

  it('claims at most perEndpoint attempts under way per endpoint, counting leases, so a busy endpoint leaves room for the others', async () => {
    const busy = await endpoint({});
    const other = await endpoint({ eventTypes: ['claim.filed'] });
    const stories = [busyClaim(), busyClaim(), busyClaim()];
    for (const story of stories) await applyEvents(db(), webhookOutboxProjection, story.envelopes);
    const now = new Date(Math.max(...stories.map((story) => Date.parse(story.at()))) + 60_000);
    const byEndpoint = (claimed: Awaited<ReturnType<typeof claimDueDeliveries>>) =>
      [busy, other].map((id) => claimed.filter((d) => d.endpointId === id).length);

    const first = await claimDueDeliveries(db(), now, 50, 60_000, 2);
    expect(byEndpoint(first)).toEqual([2, 2]);
    // Both at their limit while the leases run: nothing more, though 13 of the busy one's are due.
    expect(await claimDueDeliveries(db(), now, 50, 60_000, 2)).toEqual([]);
    await recordDeliveryAttempt(
      db(),
      first.find((d) => d.endpointId === busy)!,
      { statusCode: null, error: 'timeout', succeeded: false, durationMs: 10_000, responseExcerpt: null },
      now,
      FIVE_SECONDS_LATER,
    );
    expect(byEndpoint(await claimDueDeliveries(db(), now, 50, 60_000, 2))).toEqual([1, 0]);
    // A lease that ran out (its worker died) no longer counts.
    expect(byEndpoint(await claimDueDeliveries(db(), new Date(now.getTime() + 61_000), 50, 60_000, 2))).toEqual([2, 2]);
  });

  it('replays every delivery of the events of a time range, and queues test deliveries like any other', async () => {
    const endpointId = await endpoint({});
    const story = busyClaim();
    await applyEvents(db(), webhookOutboxProjection, story.envelopes);
    const now = new Date(Date.parse(story.at()) + 60_000);
    const claimed = await claimDueDeliveries(db(), now, 50, 60_000);
    expect(claimed).toHaveLength(5);
    for (const delivery of claimed) {
      await recordDeliveryAttempt(
        db(),
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
    expect(await replayDeliveriesBetween(db(), endpointId, hoursAgo(48), times[0]!, later)).toBe(0);
    expect(
      await replayDeliveriesBetween(
        db(),
        endpointId,
        times[0]!,
        new Date(Date.parse(times.at(-1)!) + 1).toISOString(),
        later,
      ),
    ).toBe(5);
    expect(await replayDeliveriesBetween(db(), randomUUID(), hoursAgo(48), later, later)).toBe(0);
    const again = await claimDueDeliveries(db(), now, 50, 60_000);
    expect(again.map((d) => d.webhookId).sort()).toEqual(claimed.map((d) => d.webhookId).sort());

    const test = await enqueueTestDelivery(db(), { id: endpointId, storeId: order.storeId }, later);
    const [sent] = await claimDueDeliveries(db(), now, 50, 60_000);
    expect(sent).toMatchObject({ id: test.deliveryId, webhookId: test.webhookId });
    expect(WebhookPayload.parse(JSON.parse(sent!.payload))).toMatchObject({
      type: 'webhook.test',
      data: { endpointId, storeId: order.storeId },
    });
  });
});
