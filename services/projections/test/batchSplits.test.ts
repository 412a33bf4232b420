import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ClaimStatus, EventEnvelope, FilingScreening } from '@claims/contracts';
import type { StoredRule } from '@claims/domain';
import { applyEvents, PROJECTIONS } from '../src/index.js';
import { projectionDatabase } from './support/projectionDatabase.js';
import { webhookEndpointsTable } from './support/webhookEndpointsTable.js';
import { agent, ClaimStory, NOW, order, storeTerms, twoItems } from './support/claimStory.js';
import { MoneyHistory, moneyStep } from './support/moneyHistory.js';

type ClaimStep =
  | { kind: 'status'; to: ClaimStatus }
  | { kind: 'message'; sender: 'customer' | 'merchant' | 'staff' }
  | { kind: 'label'; label: string; remove: boolean }
  | { kind: 'assign'; who: number | null }
  | { kind: 'resolve'; type: 'REFUND' | 'RESHIP' | 'STORE_CREDIT' | 'DENY'; firstItemOnly: boolean }
  | { kind: 'reverse' }
  | { kind: 'review'; rating: number }
  | { kind: 'mail'; sent: boolean }
  | { kind: 'rule'; rule: number; mode: 'live' | 'shadow' };

const claimStep: fc.Arbitrary<ClaimStep> = fc.oneof(
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
  fc.record({
    kind: fc.constant('rule' as const),
    rule: fc.nat({ max: 1 }),
    mode: fc.constantFrom('live' as const, 'shadow' as const),
  }),
);

/** What filing looked up for the claim's risk (contract §Automation), or nothing: a claim filed before risk was recorded. */
const screening: fc.Arbitrary<FilingScreening | null> = fc.option(
  fc.record({
    shopperKey: fc.constantFrom('shopper-a', 'shopper-b'),
    shopperClaims90d: fc.nat({ max: 3 }),
    shopperClaimsElsewhere90d: fc.nat({ max: 3 }),
    reusedPhotos: fc.nat({ max: 2 }),
    storeCurrency: fc.constant('USD'),
    storeUsualClaim: fc.option(fc.integer({ min: 1, max: 20_000 })),
  }),
);

/** A claim's two rules (one approving within a daily count, one holding), each claim's own so their day streams are too. */
const rulesOfClaim = (): StoredRule[] =>
  (['approve', 'hold'] as const).map((type) => ({
    id: randomUUID(),
    version: 1,
    updatedAt: NOW,
    rule: {
      name: `${type} them`,
      mode: 'live',
      conditions: [],
      action: { type },
      dailyLimit: { count: 5, amount: null },
    },
  }));

const TEAM = [
  { id: randomUUID(), name: 'Ana Agent' },
  { id: randomUUID(), name: 'Ben Agent' },
];

type ClaimCommandOfStory = Parameters<ClaimStory['do']>[0];

function commandOf(step: ClaimStep, story: ClaimStory): ClaimCommandOfStory {
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
      return {
        type: 'ReverseResolution',
        storeId: order.storeId,
        clawbackEntryIds: [randomUUID(), randomUUID()],
        reason: 'Charged back',
        actor: agent,
        now: story.at(),
      };
    case 'review':
      return {
        type: 'AddReview',
        reviewId: randomUUID(),
        now: story.at(),
        review: { rating: step.rating, text: 'ok' },
      };
    case 'mail':
    case 'rule':
      throw new Error(`${step.kind} is not a claim command`);
  }
}

/**
 * A claim's life from random steps, of one item or two (so a decision on the first item alone leaves the claim in work);
 * a step the domain refuses is left out, as the API would answer it with an error.
 */
function claimHistory(
  [ofTwoItems, steps, screened]: readonly [boolean, readonly ClaimStep[], FilingScreening | null],
  n: number,
): EventEnvelope[] {
  const story = new ClaimStory(randomUUID(), String(20_000 + n)).file(
    ofTwoItems ? twoItems.request : {},
    screened ?? undefined,
  );
  const rules = rulesOfClaim();
  const filed = story.envelopes.find((e) => e.type === 'ClaimFiled')!.eventId;
  for (const step of steps) {
    try {
      if (step.kind === 'rule') {
        story.applyRule(rules[step.rule]!, step.mode);
      } else if (step.kind === 'mail') {
        story.notify(
          {
            notificationId: randomUUID(),
            kind: 'claim_filed',
            causedBy: filed,
            to: 'ava@example.com',
            subject: 'We received your claim',
          },
          step.sent ? { sent: true } : { sent: false, error: 'refused', nextAttemptAt: NOW },
        );
      } else {
        story.do(commandOf(step, story));
      }
    } catch {
      // Refused by the domain: nothing recorded.
    }
  }
  return story.envelopes;
}

/** Interleaves the sources at random, each kept in its own order (so each stream's versions stay in order), numbered anew. */
function interleave(sources: EventEnvelope[][], picks: readonly number[]): EventEnvelope[] {
  const queues = sources.map((s) => [...s]);
  const merged: EventEnvelope[] = [];
  for (let i = 0; queues.some((q) => q.length > 0); i++) {
    const open = queues.filter((q) => q.length > 0);
    merged.push(open[(picks[i % Math.max(1, picks.length)] ?? 0) % open.length]!.shift()!);
  }
  return merged.map((e, i) => ({ ...e, globalPosition: i + 1 }));
}

const TABLES = [...new Set(PROJECTIONS.flatMap((p) => p.tables))];

/** Every row of every read model, as text, sorted; a delivery without its random id and insert time. */
async function snapshot(db: Kysely<unknown>): Promise<Record<string, string[]>> {
  const tables: Record<string, string[]> = {};
  for (const table of [...TABLES, 'webhook_deliveries']) {
    const { rows } = await sql<{
      row: string;
    }>`select (to_jsonb(t) - 'id' - 'created_at')::text as row from ${sql.table(table)} t`.execute(db);
    tables[table] = rows.map((r) => r.row).sort();
  }
  return tables;
}

async function reset(db: Kysely<unknown>): Promise<void> {
  await sql`truncate ${sql.join([...TABLES, 'webhook_deliveries', 'webhook_delivery_attempts', 'projection_offsets'].map((t) => sql.table(t)))}`.execute(
    db,
  );
}

describe('every projection applied in batches equals it applied event by event', () => {
  let oneByOne: Kysely<unknown>;
  let batched: Kysely<unknown>;
  beforeAll(async () => {
    oneByOne = await projectionDatabase(PROJECTIONS, webhookEndpointsTable);
    batched = await projectionDatabase(PROJECTIONS, webhookEndpointsTable);
    const endpointId = randomUUID();
    for (const db of [oneByOne, batched]) {
      await sql`insert into webhook_endpoints (id, store_id, url, secret, event_types, created_at)
        values (${endpointId}, ${order.storeId}, 'https://example.com/hook', 'whsec_x', null, '2000-01-01T00:00:00Z')`.execute(
        db,
      );
    }
  }, 240_000);
  afterAll(async () => {
    await Promise.all([oneByOne.destroy(), batched.destroy()]);
  });

  it('for a random history, in random batch splits, with earlier batches and overlapping slices delivered again', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.boolean(), fc.array(claimStep, { maxLength: 12 }), screening), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.array(moneyStep, { maxLength: 30 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 30 })), { maxLength: 4 }),
        async (claims, moneySteps, picks, sizes, redeliveries) => {
          const money = new MoneyHistory();
          for (const step of moneySteps) money.play(step);
          const history = interleave([...claims.map(claimHistory), money.envelopes], picks);
          await Promise.all([reset(oneByOne), reset(batched)]);

          for (const event of history)
            for (const projection of PROJECTIONS) await applyEvents(oneByOne, projection, [event]);

          const applied: number[] = [];
          for (let start = 0, i = 0; start < history.length; i++) {
            const end = Math.min(history.length, start + sizes[i % sizes.length]!);
            for (const projection of PROJECTIONS) await applyEvents(batched, projection, history.slice(start, end));
            applied.push(end);
            // At-least-once delivery: a slice of what was delivered already, starting anywhere, comes again.
            const [after, at, size] = redeliveries[i % Math.max(1, redeliveries.length)] ?? [0, 0, 0];
            if (redeliveries.length > 0 && after % 2 === 0) {
              const from = at % end;
              for (const projection of PROJECTIONS)
                await applyEvents(batched, projection, history.slice(from, Math.min(end, from + size)));
            }
            start = end;
          }

          expect(await snapshot(batched)).toEqual(await snapshot(oneByOne));
        },
      ),
      { numRuns: 15 },
    );
  }, 600_000);
});
