import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES, WebhookPayload } from '@claims/contracts';
import { applyEvents, webhookOutboxProjection } from '../src/index.js';
import { hoursAgo, webhookOutboxDatabase } from './support/webhookOutboxDatabase.js';
import { busyClaim, chargeback, ClaimStory, order, twoItems } from './support/claimStory.js';

describe('webhook-outbox projection', () => {
  const { db, endpoint, deliveries } = webhookOutboxDatabase();

  it('owes each subscribed endpoint of the store one delivery per webhook event, and never a secret', async () => {
    const everything = await endpoint({});
    const resolvedOnly = await endpoint({ eventTypes: ['claim.resolved'] });
    await endpoint({ storeId: randomUUID() });
    await endpoint({ createdAt: hoursAgo(-24) });
    await endpoint({ deletedAt: hoursAgo(0.5) });
    const story = busyClaim();

    await applyEvents(db(), webhookOutboxProjection, story.envelopes);

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
    const story = new ClaimStory().file(twoItems.request);
    const itemIds = story.envelopes.flatMap((e) =>
      e.type === 'ClaimFiled' ? (e.data as { items: Array<{ id: string }> }).items.map((i) => i.id) : [],
    );
    const decide = (claimItemId: string, resolutionType: 'STORE_CREDIT' | 'DENY' | 'REFUND') =>
      story.resolve({ resolutionType, reason: 'NOT_COVERED', items: [{ claimItemId }] });
    decide(itemIds[0]!, 'STORE_CREDIT');
    await applyEvents(db(), webhookOutboxProjection, story.envelopes);
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
    await applyEvents(db(), webhookOutboxProjection, story.envelopes);
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
    story.do(chargeback(story)).resolve({ resolutionType: 'REFUND' });
    await applyEvents(db(), webhookOutboxProjection, story.envelopes);
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
    await applyEvents(db(), webhookOutboxProjection, story.envelopes);
    const first = await deliveries();
    await sql`truncate projection_offsets`.execute(db());
    await applyEvents(db(), webhookOutboxProjection, story.envelopes);
    expect(await deliveries()).toEqual(first);
  });
});

describe('webhook-outbox projection, its decisions', () => {
  it('turns every event type of WEBHOOK_EVENT_TYPES into deliveries', () => {
    for (const type of Object.keys(WEBHOOK_EVENT_TYPES)) expect([...webhookOutboxProjection.handles]).toContain(type);
  });
});
