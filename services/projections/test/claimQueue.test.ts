import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EventEnvelope, QueueSort, SortOrder } from '@claims/contracts';
import {
  applyEvents,
  claimAssignmentProjection,
  claimListProjection,
  claimSearchProjection,
  queueClaims,
  queueCounts,
  type QueueFilter,
} from '../src/index.js';
import { projectionDatabase } from './support/projectionDatabase.js';
import { agent, ClaimStory, order } from './support/claimStory.js';

const PROJECTIONS = [claimListProjection, claimSearchProjection, claimAssignmentProjection];
const everyStore: QueueFilter = { storeIds: null, sort: 'filed', order: 'desc', limit: 50 };
const riley = { id: '5f0c3d1e-2b4a-4c6d-8e9f-0a1b2c3d4e5f', name: 'Riley Agent' };

/** A filed claim whose shopper is someone else than the fixture's Ava (the filing is the domain's; only the person changes). */
function filedBy(name: string, email: string, claimNumber: string, startsAt: string): ClaimStory {
  const story = new ClaimStory(randomUUID(), claimNumber, startsAt).file();
  const filed = story.envelopes.find((e) => e.type === 'ClaimFiled')!;
  filed.data = { ...(filed.data as object), customer: { name, email } };
  return story;
}

async function project(db: Kysely<unknown>, envelopes: readonly EventEnvelope[]): Promise<void> {
  for (const projection of PROJECTIONS) await applyEvents(db, projection, envelopes);
}

const numbers = async (db: Kysely<unknown>, filter: Partial<QueueFilter>) =>
  (await queueClaims(db, { ...everyStore, ...filter })).rows.map((r) => r.claim_number);

describe('the claim queue (claim list + search + assignment read models)', () => {
  let db: Kysely<unknown>;
  beforeAll(async () => {
    db = await projectionDatabase(PROJECTIONS);
  });
  beforeEach(async () => {
    await sql`truncate claim_list, claim_search, claim_search_lexicon, claim_assignment, claim_queue_counts, projection_offsets`.execute(
      db,
    );
  });
  afterAll(async () => {
    await db.destroy();
  });

  it('finds a claim by surname, part of an email, item name, SKU, order and claim number, and through typos', async () => {
    const ortiz = filedBy('Ben Ortiz', 'ben@example.com', '20001', '2026-11-20T09:00:00.000Z');
    const stone = filedBy('Ava Stone', 'ava@example.com', '20002', '2026-11-21T09:00:00.000Z');
    await project(db, [...ortiz.envelopes, ...stone.envelopes]);

    const search = async (term: string) => {
      const found = await queueClaims(db, { ...everyStore, search: term });
      return { match: found.match, claims: found.rows.map((r) => r.claim_number) };
    };
    expect(await search('Ortiz')).toEqual({ match: 'contains', claims: ['20001'] });
    expect(await search('ben@')).toEqual({ match: 'contains', claims: ['20001'] });
    expect(await search('BEN@EXAM')).toEqual({ match: 'contains', claims: ['20001'] });
    expect(await search('#20002')).toEqual({ match: 'exact', claims: ['20002'] });
    expect(await search('ava@example.com')).toEqual({ match: 'exact', claims: ['20002'] });
    // Both claim the fixture's socks (SKU SOCK) on order 1001.
    expect(await search('sock')).toEqual({ match: 'exact', claims: ['20002', '20001'] });
    expect(await search('merino')).toEqual({ match: 'contains', claims: ['20002', '20001'] });
    expect(await search('1001')).toEqual({ match: 'exact', claims: ['20002', '20001'] });
    expect(await search('ava stone')).toEqual({ match: 'contains', claims: ['20002'] });
    // Typos: transposed, dropped and swapped letters find the nearest words the claims hold.
    expect(await search('Ortzi')).toEqual({ match: 'close', claims: ['20001'] });
    expect(await search('ben@exmaple')).toEqual({ match: 'close', claims: ['20001'] });
    expect(await search('ortz ben')).toEqual({ match: 'close', claims: ['20001'] });
    expect(await search('stnoe')).toEqual({ match: 'close', claims: ['20002'] });
    expect(await search('zzzqqq')).toEqual({ match: null, claims: [] });
    // Too short to look for anywhere but whole numbers.
    expect(await search('be')).toEqual({ match: null, claims: [] });
  });

  it('matches a type filter on any item of a claim of several types (MULTIPLE)', async () => {
    const mixed = new ClaimStory(randomUUID(), '20010', '2026-11-20T09:00:00.000Z').file({
      fulfillmentIssues: [
        {
          sourceFulfillmentId: 'f-1',
          issues: [
            { sourceItemId: 'li-2', claimType: 'DAMAGED', quantity: 1, details: 'torn', images: [] },
            { sourceItemId: 'li-1', claimType: 'MISSING_ITEM', quantity: 1, details: '', images: [] },
          ],
        },
      ],
    });
    const damaged = new ClaimStory(randomUUID(), '20011', '2026-11-21T09:00:00.000Z').file();
    await project(db, [...mixed.envelopes, ...damaged.envelopes]);

    expect(await numbers(db, { claimType: 'DAMAGED' })).toEqual(['20011', '20010']);
    expect(await numbers(db, { claimType: 'MISSING_ITEM' })).toEqual(['20010']);
    expect(await numbers(db, { claimType: 'MULTIPLE' })).toEqual(['20010']);
    expect(await numbers(db, { claimType: 'WRONG_ITEM' })).toEqual([]);
  });

  it('keeps who works each claim and counts the status tabs per assignee, through status changes and reassignment', async () => {
    const a = new ClaimStory(randomUUID(), '20020', '2026-11-20T09:00:00.000Z').file();
    const b = new ClaimStory(randomUUID(), '20021', '2026-11-21T09:00:00.000Z').file();
    await project(db, [...a.envelopes, ...b.envelopes]);
    a.do({ type: 'AssignClaim', assignee: riley }).do({ type: 'ChangeClaimStatus', to: 'OPEN', note: null });
    await project(db, a.envelopes.slice(-2));

    const row = (await queueClaims(db, { ...everyStore, assignee: { kind: 'user', id: riley.id } })).rows;
    expect(row.map((r) => [r.claim_number, r.assignee_name])).toEqual([['20020', 'Riley Agent']]);
    // The list's version follows the assignment, so it stays a valid expectedVersion.
    expect(Number(row[0]!.version)).toBe(a.envelopes.at(-1)!.streamVersion);
    expect(await numbers(db, { assignee: { kind: 'none' } })).toEqual(['20021']);

    const counts = (assignee?: QueueFilter['assignee']) =>
      queueCounts(db, { storeIds: [order.storeId], assignee }, null);
    expect(await counts()).toEqual({ byStatus: { NEW: 1, OPEN: 1 }, total: 2, capped: false });
    expect(await counts({ kind: 'user', id: riley.id })).toEqual({ byStatus: { OPEN: 1 }, total: 1, capped: false });
    expect(await counts({ kind: 'none' })).toEqual({ byStatus: { NEW: 1 }, total: 1, capped: false });

    a.do({ type: 'AssignClaim', assignee: null });
    await project(db, a.envelopes.slice(-1));
    expect(await counts({ kind: 'user', id: riley.id })).toEqual({ byStatus: {}, total: 0, capped: false });
    expect(await counts({ kind: 'none' })).toEqual({ byStatus: { NEW: 1, OPEN: 1 }, total: 2, capped: false });
    // Counted live when another filter is on: the same figures.
    const searchedPage = await queueClaims(db, { ...everyStore, search: '1001' });
    expect(await queueCounts(db, { storeIds: null, search: '1001' }, searchedPage.searched)).toEqual({
      byStatus: { NEW: 1, OPEN: 1 },
      total: 2,
      capped: false,
    });
  });

  it('marks a claim whose customer wrote after the store, until the store answers', async () => {
    const story = new ClaimStory(randomUUID(), '20030', '2026-11-20T09:00:00.000Z').file();
    const say = (senderType: 'customer' | 'merchant') =>
      story.do({
        type: 'SendMessage',
        messageId: randomUUID(),
        actor: agent,
        senderType,
        senderName: senderType,
        messageContent: 'Hello',
        medias: [],
        now: story.at(),
      });
    await project(db, story.envelopes);
    const marker = async () =>
      (await queueClaims(db, everyStore)).rows.map((r) => [
        r.customer_replied,
        new Date(r.customer_activity_at).toISOString(),
      ]);
    expect(await marker()).toEqual([[false, '2026-11-20T09:00:00.000Z']]);
    say('customer');
    await project(db, story.envelopes.slice(-1));
    const wrote = story.envelopes.at(-1)!.data as { createdAt: string };
    expect(await marker()).toEqual([[true, wrote.createdAt]]);
    say('merchant');
    await project(db, story.envelopes.slice(-1));
    expect(await marker()).toEqual([[false, wrote.createdAt]]);
  });

  it.each<[QueueSort, SortOrder]>([
    ['filed', 'desc'],
    ['filed', 'asc'],
    ['value', 'desc'],
    ['value', 'asc'],
    ['reply', 'desc'],
    ['reply', 'asc'],
  ])('sorts by %s %s on the server and pages by keyset through every claim once', async (sort, direction) => {
    // Claimed values 1, 2 and 3 socks; customer replies in another order than filing.
    const stories = [1, 2, 3, 2].map((quantity, i) =>
      new ClaimStory(randomUUID(), `2004${i}`, `2026-11-2${i}T09:00:00.000Z`).file({
        fulfillmentIssues: [
          {
            sourceFulfillmentId: 'f-1',
            issues: [{ sourceItemId: 'li-2', claimType: 'DAMAGED', quantity, details: '', images: [] }],
          },
        ],
      }),
    );
    stories[0]!.do({
      type: 'SendMessage',
      messageId: randomUUID(),
      actor: agent,
      senderType: 'customer',
      senderName: 'Ava',
      messageContent: 'Any news?',
      medias: [],
      now: '2026-11-29T09:00:00.000Z',
    });
    await project(
      db,
      stories.flatMap((s) => s.envelopes),
    );

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const got = await queueClaims(db, { ...everyStore, sort, order: direction, limit: 1, cursor });
      seen.push(...got.rows.map((r) => r.claim_number));
      cursor = got.nextCursor ?? undefined;
    } while (cursor);

    const all = (await queueClaims(db, { ...everyStore, sort, order: direction })).rows;
    const key = (r: (typeof all)[number]) =>
      sort === 'filed'
        ? new Date(r.created_at).getTime()
        : sort === 'value'
          ? Number(r.claimed_value)
          : new Date(r.customer_activity_at).getTime();
    const expected = [...all].sort(
      (x, y) => (key(x) - key(y) || x.claim_id.localeCompare(y.claim_id)) * (direction === 'asc' ? 1 : -1),
    );
    expect(all.map((r) => r.claim_number)).toEqual(expected.map((r) => r.claim_number));
    expect(seen).toEqual(all.map((r) => r.claim_number));
    expect(new Set(seen).size).toBe(4);
    await expect(
      queueClaims(db, {
        ...everyStore,
        sort: sort === 'value' ? 'filed' : 'value',
        order: direction,
        cursor: (await queueClaims(db, { ...everyStore, sort, order: direction, limit: 1 })).nextCursor!,
      }),
    ).rejects.toMatchObject({ code: 'validation_failed' });
  });
});
