import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyEvents, claimTimeline, claimTimelineProjection } from '../src/index.js';
import { projectionDatabase } from './support/projectionDatabase.js';
import { agent, ClaimStory, order, twoItems } from './support/claimStory.js';

describe('claim-timeline projection', () => {
  let db: Kysely<unknown>;
  beforeAll(async () => {
    db = await projectionDatabase([claimTimelineProjection]);
  });
  afterAll(async () => {
    await db.destroy();
  });

  it('writes one history line per claim event, with its status, actor and summary, oldest first', async () => {
    const noteId = randomUUID();
    const story = new ClaimStory().file();
    story
      .do({ type: 'ChangeClaimStatus', to: 'OPEN', note: 'looking into it' })
      .message('Photos?')
      .do({ type: 'AddClaimNote', noteId, actor: agent, body: 'Repeat claimer, check the photos', now: story.at() })
      .do({ type: 'AddClaimLabel', label: 'vip' })
      .do({ type: 'RemoveClaimLabel', label: 'vip' })
      .do({ type: 'SetClaimMetadata', key: 'carrier', value: 'UPS' })
      .resolve({ resolutionType: 'RESHIP' })
      .do({ type: 'AddReview', reviewId: randomUUID(), now: story.at(), review: { rating: 5, text: 'Quick!' } });
    const claimEvents = story.envelopes.filter((e) => e.streamId === story.claimId);

    expect(await applyEvents(db, claimTimelineProjection, story.envelopes)).toBe(claimEvents.length);
    const entries = await claimTimeline(db, story.claimId);

    expect(entries.every((e) => e.source === 'claim')).toBe(true);
    expect(entries.map((e) => [e.version, e.eventType, e.status])).toEqual([
      [1, 'ClaimFiled', 'NEW'],
      [2, 'ClaimStatusChanged', 'OPEN'],
      [3, 'ClaimMessageSent', null],
      [4, 'ClaimNoteAdded', null],
      [5, 'ClaimLabelAdded', null],
      [6, 'ClaimLabelRemoved', null],
      [7, 'ClaimMetadataSet', null],
      [8, 'ClaimResolved', 'RESOLVED'],
      [9, 'ClaimReviewed', null],
    ]);
    expect(entries.map((e) => e.occurredAt)).toEqual(claimEvents.map((e) => e.occurredAt));
    expect(entries.map((e) => e.globalPosition)).toEqual(claimEvents.map((e) => e.globalPosition));
    expect(entries[0]!.actor).toMatchObject({ type: 'customer' });
    expect(entries[1]!.actor).toEqual(agent);
    expect(entries.map((e) => e.summary)).toEqual([
      { claimType: 'DAMAGED', items: 1, desiredMethod: 'REFUND' },
      { from: 'NEW', to: 'OPEN', note: 'looking into it' },
      { senderType: 'merchant', senderName: 'Acme' },
      // The note's text is for claim-note readers only, never the history.
      { noteId, author: 'Ana Agent' },
      { label: 'vip' },
      { label: 'vip' },
      { key: 'carrier', value: 'UPS', previous: null },
      { outcome: 'APPROVED', resolutionTypes: ['RESHIP'], resolutionIds: [expect.any(String)] },
      { rating: 5 },
    ]);
    expect(JSON.stringify(entries)).not.toContain('Repeat claimer');
  });

  it("merges the claim's mail, from its own stream, into the history in the order recorded", async () => {
    const story = new ClaimStory().file();
    const filedEvent = story.envelopes.find((e) => e.type === 'ClaimFiled')!.eventId;
    const shopperMail = {
      notificationId: randomUUID(),
      kind: 'claim_filed' as const,
      causedBy: filedEvent,
      to: 'ava@example.com',
    };
    const memberId = randomUUID();
    story
      .notify(
        { ...shopperMail, subject: 'We received your claim #10001' },
        { sent: false, error: 'connection refused', nextAttemptAt: '2025-01-01T00:00:01.000Z' },
      )
      .do({ type: 'ChangeClaimStatus', to: 'OPEN', note: null })
      .notify({ ...shopperMail, subject: 'We received your claim #10001' }, { sent: true })
      .notify(
        {
          notificationId: randomUUID(),
          kind: 'new_claim',
          causedBy: filedEvent,
          memberId,
          to: 'agent@acme.test',
          subject: 'New claim #10001',
        },
        { sent: true },
      );
    await applyEvents(db, claimTimelineProjection, story.envelopes);
    const entries = await claimTimeline(db, story.claimId);
    expect(entries.map((e) => [e.source, e.version, e.eventType])).toEqual([
      ['claim', 1, 'ClaimFiled'],
      ['notifications', 1, 'ClaimNotificationFailed'],
      ['claim', 2, 'ClaimStatusChanged'],
      ['notifications', 2, 'ClaimNotificationSent'],
      ['notifications', 3, 'ClaimNotificationSent'],
    ]);
    expect(entries.filter((e) => e.source === 'notifications').map((e) => e.summary)).toEqual([
      {
        kind: 'claim_filed',
        recipient: 'customer',
        to: 'ava@example.com',
        subject: 'We received your claim #10001',
        attempt: 1,
        sent: false,
        error: 'connection refused',
        nextAttemptAt: '2025-01-01T00:00:01.000Z',
      },
      {
        kind: 'claim_filed',
        recipient: 'customer',
        to: 'ava@example.com',
        subject: 'We received your claim #10001',
        attempt: 2,
        sent: true,
      },
      {
        kind: 'new_claim',
        recipient: 'team',
        to: 'agent@acme.test',
        subject: 'New claim #10001',
        attempt: 1,
        sent: true,
      },
    ]);
  });

  it('adds nothing when the same events come again', async () => {
    const story = new ClaimStory().file().do({ type: 'ChangeClaimStatus', to: 'OPEN', note: null });
    await applyEvents(db, claimTimelineProjection, story.envelopes);
    expect(await applyEvents(db, claimTimelineProjection, story.envelopes)).toBe(0);
    expect(await claimTimeline(db, story.claimId)).toHaveLength(2);
  });

  describe('a reversed resolution', () => {
    const reverse = (story: ClaimStory, reason: string) =>
      story.do({
        type: 'ReverseResolution',
        storeId: order.storeId,
        clawbackEntryIds: [randomUUID(), randomUUID()],
        reason,
        actor: agent,
        now: story.at(),
      });

    it('is a line with its reason and who, before the status going back to open', async () => {
      const resolutionId = randomUUID();
      const story = new ClaimStory().file();
      story.resolve({ resolutionType: 'REFUND' }, [resolutionId]);
      reverse(story, 'Charged back');
      await applyEvents(db, claimTimelineProjection, story.envelopes);
      const entries = await claimTimeline(db, story.claimId);
      expect(entries.map((e) => [e.version, e.eventType, e.status])).toEqual([
        [1, 'ClaimFiled', 'NEW'],
        [2, 'ClaimResolved', 'RESOLVED'],
        [3, 'ClaimResolutionReversed', null],
        [4, 'ClaimStatusChanged', 'OPEN'],
      ]);
      expect(entries[2]).toMatchObject({
        actor: agent,
        summary: { reason: 'Charged back', resolutionIds: [resolutionId] },
      });
      expect(entries[2]!.occurredAt).toBe(
        story.envelopes.find((e) => e.type === 'ClaimResolutionReversed')!.occurredAt,
      );
    });

    it('is a line even when the claim keeps its status (a decision on some items taken back)', async () => {
      const resolutionId = randomUUID();
      const story = new ClaimStory().file(twoItems.request).do({ type: 'ChangeClaimStatus', to: 'OPEN', note: null });
      story.resolve({ resolutionType: 'RESHIP', items: [{ claimItemId: twoItems.itemIds[1] }] }, [resolutionId]);
      reverse(story, 'Wrong item');
      await applyEvents(db, claimTimelineProjection, story.envelopes);
      const entries = await claimTimeline(db, story.claimId);
      expect(entries.map((e) => [e.eventType, e.status])).toEqual([
        ['ClaimFiled', 'NEW'],
        ['ClaimStatusChanged', 'OPEN'],
        ['ClaimResolved', 'OPEN'],
        ['ClaimResolutionReversed', null],
      ]);
      expect(entries.at(-1)).toMatchObject({
        actor: agent,
        summary: { reason: 'Wrong item', resolutionIds: [resolutionId] },
      });
    });
  });
});
