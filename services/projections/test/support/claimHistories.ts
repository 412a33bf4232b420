import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { abAssignmentsStreamOf, type ClaimStatus, type EventEnvelope, type ReturnStatus } from '@claims/contracts';
import { abAssignmentsDecider, returnDecider } from '@claims/domain';
import { agent, chargeback, ClaimStory, NOW, order, storeTerms, twoItems } from './claimStory.js';

/** One thing that may happen to a claim after it is filed; the domain refuses some of them, as it would the API's. */
export type ClaimStep =
  | { kind: 'status'; to: ClaimStatus }
  | { kind: 'message'; sender: 'customer' | 'merchant' | 'staff' }
  | { kind: 'label'; label: string; remove: boolean }
  | { kind: 'assign'; who: number | null }
  | { kind: 'resolve'; type: 'REFUND' | 'RESHIP' | 'STORE_CREDIT' | 'DENY'; firstItemOnly: boolean }
  | { kind: 'reverse' }
  | { kind: 'review'; rating: number }
  | { kind: 'mail'; sent: boolean }
  | { kind: 'startReturn'; n: number }
  | { kind: 'moveReturn'; n: number; to: ReturnStatus }
  | { kind: 'abVariant'; test: number; variant: 'A' | 'B' };

export const claimStep: fc.Arbitrary<ClaimStep> = fc.oneof(
  fc.record({
    kind: fc.constant('status' as const),
    to: fc.constantFrom<ClaimStatus>('OPEN', 'COMMUNICATING', 'CLOSED', 'ARCHIVED', 'NEW'),
  }),
  fc.record({
    kind: fc.constant('message' as const),
    sender: fc.constantFrom('customer' as const, 'merchant' as const, 'staff' as const),
  }),
  fc.record({ kind: fc.constant('label' as const), label: fc.constantFrom('vip', 'fragile'), remove: fc.boolean() }),
  fc.record({ kind: fc.constant('assign' as const), who: fc.option(fc.nat({ max: 1 })) }),
  fc.record({
    kind: fc.constant('resolve' as const),
    type: fc.constantFrom('REFUND' as const, 'RESHIP' as const, 'STORE_CREDIT' as const, 'DENY' as const),
    firstItemOnly: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('reverse' as const) }),
  fc.record({ kind: fc.constant('review' as const), rating: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ kind: fc.constant('mail' as const), sent: fc.boolean() }),
  fc.record({ kind: fc.constant('startReturn' as const), n: fc.nat({ max: 1 }) }),
  fc.record({
    kind: fc.constant('moveReturn' as const),
    n: fc.nat({ max: 1 }),
    to: fc.constantFrom<ReturnStatus>('APPROVED', 'RECEIVED', 'COMPLETED', 'REJECTED', 'CANCELLED'),
  }),
  fc.record({
    kind: fc.constant('abVariant' as const),
    test: fc.nat({ max: 1 }),
    variant: fc.constantFrom('A' as const, 'B' as const),
  }),
);

const TEAM = [
  { id: randomUUID(), name: 'Ana Agent' },
  { id: randomUUID(), name: 'Ben Agent' },
];
const AB_TESTS = [randomUUID(), randomUUID()];

type ClaimCommandOfStory = Parameters<ClaimStory['do']>[0];

function claimCommandOf(
  step: Exclude<ClaimStep, { kind: 'mail' | 'startReturn' | 'moveReturn' | 'abVariant' }>,
  story: ClaimStory,
): ClaimCommandOfStory {
  switch (step.kind) {
    case 'status':
      return { type: 'ChangeClaimStatus', to: step.to, note: null };
    case 'message':
      return {
        type: 'SendMessage',
        messageId: randomUUID(),
        actor: agent,
        senderType: step.sender,
        senderName: step.sender,
        messageContent: 'Hello',
        medias: [],
        now: story.at(),
      };
    case 'label':
      return step.remove
        ? { type: 'RemoveClaimLabel', label: step.label }
        : { type: 'AddClaimLabel', label: step.label };
    case 'assign':
      return { type: 'AssignClaim', assignee: step.who === null ? null : TEAM[step.who]! };
    case 'resolve':
      return {
        type: 'ResolveClaim',
        resolutionIds: [randomUUID(), randomUUID()],
        actor: agent,
        now: story.at(),
        ...storeTerms,
        request: {
          resolutionType: step.type,
          reason: 'OTHER',
          ...(step.firstItemOnly ? { items: [{ claimItemId: twoItems.itemIds[0] }] } : {}),
        },
      };
    case 'reverse':
      return chargeback(story);
    case 'review':
      return {
        type: 'AddReview',
        reviewId: randomUUID(),
        now: story.at(),
        review: { rating: step.rating, text: 'ok' },
      };
  }
}

function play(step: ClaimStep, story: ClaimStory, ids: { filed: string; returns: string[]; session: string }): void {
  switch (step.kind) {
    case 'mail':
      story.notify(
        {
          notificationId: randomUUID(),
          kind: 'claim_filed',
          causedBy: ids.filed,
          to: 'ava@example.com',
          subject: 'We received your claim',
        },
        step.sent ? { sent: true } : { sent: false, error: 'refused', nextAttemptAt: NOW },
      );
      return;
    case 'startReturn':
      story.decide(returnDecider, story.claimId, {
        type: 'StartReturn',
        claimId: story.claimId,
        returnId: ids.returns[step.n]!,
        storePortalUrl: null,
        request: { items: [{ claimItemId: story.firstItemId(), quantity: 1 }], reason: 'DAMAGED', method: 'DROP_OFF' },
        actor: agent,
        now: story.at(),
      });
      return;
    case 'moveReturn':
      story.decide(returnDecider, story.claimId, {
        type: 'ChangeReturnStatus',
        claimId: story.claimId,
        returnId: ids.returns[step.n]!,
        to: step.to,
        note: null,
        actor: agent,
        now: story.at(),
      });
      return;
    case 'abVariant':
      story.decide(abAssignmentsDecider, abAssignmentsStreamOf(ids.session), {
        type: 'AssignAbVariant',
        storeId: order.storeId,
        testId: AB_TESTS[step.test]!,
        sessionId: ids.session,
        orderId: order.id,
        variantId: step.variant,
        now: story.at(),
      });
      return;
    default:
      story.do(claimCommandOf(step, story));
  }
}

/**
 * A claim's life from random steps, of one item or two (so a decision on the first item alone leaves the claim in work);
 * a step the domain refuses is left out, as the API would answer it with an error.
 */
export function claimHistory(
  [ofTwoItems, steps]: readonly [boolean, readonly ClaimStep[]],
  n: number,
): EventEnvelope[] {
  const story = new ClaimStory(randomUUID(), String(20_000 + n)).file(ofTwoItems ? twoItems.request : {});
  const ids = {
    filed: story.envelopes.find((e) => e.type === 'ClaimFiled')!.eventId,
    returns: [randomUUID(), randomUUID()],
    session: randomUUID(),
  };
  for (const step of steps) {
    try {
      play(step, story, ids);
    } catch {
      // Refused by the domain: nothing recorded.
    }
  }
  return story.envelopes;
}

/** Random claim histories: a few claims of a few steps each. */
export const claimHistories = fc.array(fc.tuple(fc.boolean(), fc.array(claimStep, { maxLength: 12 })), {
  minLength: 1,
  maxLength: 4,
});

/** Interleaves the sources at random, each kept in its own order (so each stream's versions stay in order), numbered anew. */
export function interleave(sources: EventEnvelope[][], picks: readonly number[]): EventEnvelope[] {
  const queues = sources.map((s) => [...s]);
  const merged: EventEnvelope[] = [];
  for (let i = 0; queues.some((q) => q.length > 0); i++) {
    const open = queues.filter((q) => q.length > 0);
    merged.push(open[(picks[i % Math.max(1, picks.length)] ?? 0) % open.length]!.shift()!);
  }
  return merged.map((e, i) => ({ ...e, globalPosition: i + 1 }));
}
