import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminClaimDetail,
  AdminClaimPage,
  AssigneeList,
  SavedView,
  SavedViewList,
  type AdminClaimListItem,
  type ClaimType,
  type CustomerIssueType,
  type FileClaimRequest,
} from '@claims/contracts';
import { PROJECTIONS } from '@claims/projections';
import { upsertOrder } from '../src/catalog/orderRepository.js';
import { json, projectionsCaughtUp, startHarness, type DemoUser, type Harness } from './support/backofficeHarness.js';
import { testOrder } from './support/testOrders.js';

interface Shopper {
  name: string;
  email: string;
  items: Array<{ name: string; sku: string; price: number; type: CustomerIssueType }>;
}

/**
 * The claim queue worked as a team, on PostgreSQL through the API: search that finds people, emails,
 * items and SKUs through typos, a type filter that looks inside MULTIPLE claims, assignment, tab
 * counts, sorting on the server both ways, and saved views shared with the team.
 */
describe('the claim queue as a team works it', () => {
  let h: Harness;
  const cookies = new Map<DemoUser, string>();
  let acme = '';
  let orderCount = 0;
  const filed = new Map<string, { claimId: string; claimNumber: string; orderNumber: string; token: string }>();

  const call = (user: DemoUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
    h.call({ method, url, cookie: cookies.get(user), body });
  async function ok<T>(
    user: DemoUser,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
  ): Promise<T> {
    const response = await call(user, method, url, body);
    if (response.statusCode >= 300)
      throw new Error(`${method} ${url} as ${user}: ${response.statusCode} ${response.body}`);
    return (response.body ? json<T>(response) : undefined) as T;
  }
  const queue = async (user: DemoUser, query: string) =>
    AdminClaimPage.parse(await ok(user, 'GET', `/api/admin/claims?${query}`));
  const numbersOf = (page: { data: AdminClaimListItem[] }) => page.data.map((c) => c.claimNumber);

  /** A new Acme order of this shopper and a claim on all its items, each with its own issue type. */
  async function fileFor(key: string, shopper: Shopper): Promise<void> {
    const orderNumber = `Q-${++orderCount}`;
    const input = testOrder(orderNumber, {
      customerEmail: shopper.email,
      shippingAddress: {
        name: shopper.name,
        address1: '1 Main St',
        city: 'Springfield',
        country: 'United States',
        countryCode: 'US',
      },
      lines: shopper.items.map((item, i) => ({
        sourceItemId: `${orderNumber}-li-${i}`,
        sku: item.sku,
        productName: item.name,
        price: item.price,
        quantity: 1,
      })),
    });
    await upsertOrder(h.runtime.ctx.database.db, acme, `src-${orderNumber}`, input);
    const body: FileClaimRequest = {
      email: shopper.email,
      fulfillmentIssues: [
        {
          sourceFulfillmentId: `${orderNumber}-f`,
          issues: shopper.items.map((item, i) => ({
            sourceItemId: `${orderNumber}-li-${i}`,
            claimType: item.type,
            quantity: 1,
            details: '',
            images: [],
          })),
        },
      ],
      resolution: { desiredMethod: 'REFUND', customerSignature: shopper.name },
    };
    const claim = await h.fileClaim(`src-${orderNumber}`, body);
    filed.set(key, { claimId: claim.claimId, claimNumber: claim.claimNumber, orderNumber, token: claim.token });
  }
  const claimOf = (key: string) => filed.get(key)!;

  const caughtUp = () => projectionsCaughtUp(h, PROJECTIONS);

  beforeAll(async () => {
    h = await startHarness();
    for (const user of ['acmeAgent', 'acmeOwner', 'acmeViewer', 'kumoOwner', 'admin'] as const)
      cookies.set(user, await h.login(user));
    acme = await h.storeId('acme');
    await fileFor('ortiz', {
      name: 'Maria Ortiz',
      email: 'maria.ortiz@example.com',
      items: [{ name: 'Trail Runner', sku: 'TR-42-BLU', price: 89, type: 'DAMAGED' }],
    });
    await fileFor('okafor', {
      name: 'Ben Okafor',
      email: 'ben@okafor.example',
      items: [{ name: 'Wool Socks', sku: 'WS-7', price: 12, type: 'MISSING_ITEM' }],
    });
    await fileFor('mixed', {
      name: 'Lena Berg',
      email: 'lena.berg@example.org',
      items: [
        { name: 'Camp Stove', sku: 'CS-1', price: 45, type: 'DEFECTIVE_ITEM' },
        { name: 'Fuel Canister', sku: 'FC-2', price: 7, type: 'DAMAGED' },
      ],
    });
    await caughtUp();
  }, 240_000);
  afterAll(() => h?.stop());

  it('finds claims by surname, part of an email (with a typo), item name, SKU, order and claim number', async () => {
    const search = async (term: string) => {
      const page = await queue('acmeAgent', `search=${encodeURIComponent(term)}`);
      return { match: page.match, claims: numbersOf(page) };
    };
    const { claimNumber: ortiz, orderNumber: ortizOrder } = claimOf('ortiz');
    const okafor = claimOf('okafor').claimNumber;
    expect(await search('Ortiz')).toEqual({ match: 'contains', claims: [ortiz] });
    expect(await search('ben@')).toEqual({ match: 'contains', claims: [okafor] });
    expect(await search('maria.ortzi@exmaple')).toEqual({ match: 'close', claims: [ortiz] });
    expect(await search('Okafr')).toEqual({ match: 'close', claims: [okafor] });
    expect(await search('trail')).toEqual({ match: 'contains', claims: [ortiz] });
    expect(await search('tr-42-blu')).toEqual({ match: 'exact', claims: [ortiz] });
    expect(await search('TR-42')).toEqual({ match: 'contains', claims: [ortiz] });
    expect(await search(ortizOrder)).toEqual({ match: 'exact', claims: [ortiz] });
    expect(await search(`#${okafor}`)).toEqual({ match: 'exact', claims: [okafor] });
    // Another tenant finds nothing of Acme's, however exact.
    expect(numbersOf(await queue('kumoOwner', 'search=Ortiz'))).toEqual([]);
  });

  it('matches the type filter on any item of a MULTIPLE claim', async () => {
    const mixed = claimOf('mixed').claimNumber;
    const ofType = async (type: ClaimType) =>
      numbersOf(await queue('acmeAgent', `type=${type}&search=${encodeURIComponent('lena berg')}`));
    const detail = AdminClaimDetail.parse(
      await ok('acmeAgent', 'GET', `/api/admin/claims/${claimOf('mixed').claimId}`),
    );
    expect(detail.claimType).toBe('MULTIPLE');
    expect(await ofType('DAMAGED')).toEqual([mixed]);
    expect(await ofType('DEFECTIVE_ITEM')).toEqual([mixed]);
    expect(await ofType('MULTIPLE')).toEqual([mixed]);
    expect(await ofType('WRONG_ITEM')).toEqual([]);
    const damaged = numbersOf(await queue('acmeAgent', 'type=DAMAGED&limit=100'));
    expect(damaged).toEqual(expect.arrayContaining([mixed, claimOf('ortiz').claimNumber]));
    expect(damaged).not.toContain(claimOf('okafor').claimNumber);
  });

  it('filters by the risk filing assessed, on the server, each row carrying its level and score', async () => {
    // One shopper's claims one after another: each counts the earlier ones (15 points each, docs/decisions/automation.md),
    // and the last, worth many times the store's usual claim, adds 20 more.
    const repeat = (price: number) => ({
      name: 'Riley Repeat',
      email: 'riley.repeat@example.com',
      items: [{ name: 'Head Torch', sku: 'HT-1', price, type: 'DAMAGED' as const }],
    });
    for (const [i, price] of [20, 20, 20].entries()) await fileFor(`repeat-${i}`, repeat(price));
    await caughtUp();
    await fileFor('repeat-3', repeat(400));
    await caughtUp();
    const riskOf = async (key: string) =>
      AdminClaimDetail.parse(await ok('acmeAgent', 'GET', `/api/admin/claims/${claimOf(key).claimId}`)).risk;
    const levels = await Promise.all(['repeat-0', 'repeat-2', 'repeat-3'].map(async (k) => (await riskOf(k)).level));
    expect(levels).toEqual(['low', 'medium', 'high']);

    const all = await queue('acmeAgent', 'limit=100');
    for (const level of ['low', 'medium', 'high'] as const) {
      const page = await queue('acmeAgent', `risk=${level}&limit=100&counts=true`);
      expect(page.data.length).toBeGreaterThan(0);
      expect(page.data.every((c) => c.risk?.level === level)).toBe(true);
      // Exactly the claims of that level, and the tabs count those.
      expect(numbersOf(page)).toEqual(
        numbersOf(all).filter((n) => all.data.find((c) => c.claimNumber === n)!.risk?.level === level),
      );
      expect(page.counts?.total).toBe(page.data.length);
    }
    const high = (await queue('acmeAgent', 'risk=high&limit=100')).data.find(
      (c) => c.claimNumber === claimOf('repeat-3').claimNumber,
    );
    const detail = await riskOf('repeat-3');
    expect(high?.risk).toEqual({ level: detail.level, score: detail.score });
    // With a search and a status: the filters combine.
    const searched = await queue('acmeAgent', `risk=medium&status=NEW&search=${encodeURIComponent('riley repeat')}`);
    expect(numbersOf(searched)).toEqual([claimOf('repeat-2').claimNumber]);
    expect((await call('acmeAgent', 'GET', '/api/admin/claims?risk=severe')).statusCode).toBe(400);
  });

  it('assigns claims to me, to a teammate and to nobody, with the views and tab counts that follow', async () => {
    const { claimId, claimNumber } = claimOf('okafor');
    const agentId = (await ok<{ user: { id: string } }>('acmeAgent', 'GET', '/api/auth/me')).user.id;
    const ownerId = (await ok<{ user: { id: string } }>('acmeOwner', 'GET', '/api/auth/me')).user.id;
    const kumoId = (await ok<{ user: { id: string } }>('kumoOwner', 'GET', '/api/auth/me')).user.id;

    // The teammates offered: Acme's people who can update claims, never Kumo's nor (to a merchant) Order Protection's staff.
    const people = AssigneeList.parse(await ok('acmeAgent', 'GET', `/api/admin/claims/${claimId}/assignees`)).data.map(
      (p) => p.email,
    );
    expect(people).toEqual(expect.arrayContaining(['agent@acme.test', 'owner@acme.test', 'viewer@acme.test']));
    expect(people.filter((e) => !e.endsWith('@acme.test'))).toEqual([]);
    const staffSees = AssigneeList.parse(await ok('admin', 'GET', `/api/admin/claims/${claimId}/assignees`)).data.map(
      (p) => p.email,
    );
    expect(staffSees).toEqual(expect.arrayContaining(['agent@acme.test', 'support@orderprotection.test']));

    const before = AdminClaimDetail.parse(await ok('acmeAgent', 'GET', `/api/admin/claims/${claimId}`));
    const mine = AdminClaimDetail.parse(
      await ok('acmeAgent', 'POST', `/api/admin/claims/${claimId}/assignee`, {
        assigneeId: agentId,
        expectedVersion: before.version,
      }),
    );
    expect(mine.assignee).toEqual({ id: agentId, name: 'Riley Agent' });
    expect(mine.version).toBe(before.version + 1);
    // Deciding on the version seen before: someone changed it since.
    expect(
      (
        await call('acmeAgent', 'POST', `/api/admin/claims/${claimId}/assignee`, {
          assigneeId: null,
          expectedVersion: before.version,
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (await call('acmeAgent', 'POST', `/api/admin/claims/${claimId}/assignee`, { assigneeId: kumoId })).statusCode,
    ).toBe(400);
    expect(
      (await call('kumoOwner', 'POST', `/api/admin/claims/${claimId}/assignee`, { assigneeId: kumoId })).statusCode,
    ).toBe(404);
    await caughtUp();

    const assignedToMe = await queue('acmeAgent', 'assignee=me&counts=true');
    expect(numbersOf(assignedToMe)).toEqual([claimNumber]);
    expect(assignedToMe.data[0]!.assignee).toEqual({ id: agentId, name: 'Riley Agent' });
    expect(assignedToMe.counts).toEqual({ byStatus: { NEW: 1 }, total: 1, capped: false });
    expect(numbersOf(await queue('acmeOwner', 'assignee=me'))).toEqual([]);
    // The list's version followed the assignment: a bulk change at that version goes through.
    expect(assignedToMe.data[0]!.version).toBe(mine.version);

    await ok('acmeAgent', 'POST', `/api/admin/claims/${claimId}/assignee`, { assigneeId: ownerId });
    await ok('acmeAgent', 'POST', `/api/admin/claims/${claimId}/status`, { status: 'OPEN' });
    await caughtUp();
    expect(numbersOf(await queue('acmeAgent', 'assignee=me'))).toEqual([]);
    const owners = await queue('acmeOwner', 'assignee=me&counts=true');
    expect(numbersOf(owners)).toEqual([claimNumber]);
    expect(owners.counts).toEqual({ byStatus: { OPEN: 1 }, total: 1, capped: false });
    expect(numbersOf(await queue('acmeOwner', `assignee=${ownerId}&status=OPEN`))).toEqual([claimNumber]);

    // The tab counts of everyone's queue add up to the claims it lists.
    const everyone = await queue('acmeAgent', 'counts=true&limit=100');
    expect(everyone.counts!.total).toBe(everyone.data.length);
    expect(everyone.counts!.byStatus.OPEN).toBe(everyone.data.filter((c) => c.status === 'OPEN').length);

    await ok('acmeOwner', 'POST', `/api/admin/claims/${claimId}/assignee`, { assigneeId: null });
    await caughtUp();
    expect(numbersOf(await queue('acmeAgent', 'assignee=none&limit=100'))).toContain(claimNumber);
    expect(numbersOf(await queue('acmeOwner', 'assignee=me'))).toEqual([]);
  });

  it('marks a claim whose customer wrote last, and sorts by that', async () => {
    const { claimId, claimNumber, token } = claimOf('ortiz');
    const row = async () => (await queue('acmeAgent', 'search=Ortiz')).data[0]!;
    expect((await row()).customerReplied).toBe(false);
    const wrote = await h.call({
      method: 'POST',
      url: `/api/claims/${token}/messages`,
      body: { messageContent: 'Any news on my runners?' },
    });
    expect(wrote.statusCode).toBe(201);
    await caughtUp();
    const waiting = await row();
    expect(waiting.customerReplied).toBe(true);
    expect(Date.parse(waiting.lastCustomerReplyAt)).toBeGreaterThan(Date.parse(waiting.createdAt));
    // The latest word from a customer puts the claim first when sorted by it, newest first.
    expect((await queue('acmeAgent', 'sort=reply&order=desc&limit=1')).data[0]!.claimNumber).toBe(claimNumber);
    await ok('acmeAgent', 'POST', `/api/admin/claims/${claimId}/messages`, {
      messageContent: 'Could you send a photo?',
    });
    await caughtUp();
    expect((await row()).customerReplied).toBe(false);
    const byReply = await queue('acmeAgent', 'sort=reply&order=desc&limit=100');
    expect(byReply.data.map((c) => c.lastCustomerReplyAt)).toEqual(
      [...byReply.data.map((c) => c.lastCustomerReplyAt)].sort().reverse(),
    );
    expect(byReply.data.some((c) => c.claimNumber === claimNumber)).toBe(true);
  });

  it.each(['filed', 'value', 'reply'] as const)(
    'sorts by %s on the server both ways, one keyset page at a time',
    async (sort) => {
      const walk = async (order: 'asc' | 'desc') => {
        const seen: AdminClaimListItem[] = [];
        let cursor: string | null = null;
        do {
          const page = await queue(
            'acmeAgent',
            `sort=${sort}&order=${order}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          );
          seen.push(...page.data);
          cursor = page.nextCursor;
        } while (cursor);
        return seen;
      };
      const key = (c: AdminClaimListItem) =>
        sort === 'filed'
          ? Date.parse(c.createdAt)
          : sort === 'value'
            ? Number(c.claimedValue)
            : Date.parse(c.lastCustomerReplyAt);
      const descending = await walk('desc');
      const ascending = await walk('asc');
      expect(descending.length).toBeGreaterThanOrEqual(3);
      expect(ascending.map((c) => c.id)).toEqual([...descending].reverse().map((c) => c.id));
      for (let i = 1; i < descending.length; i++)
        expect(key(descending[i - 1]!)).toBeGreaterThanOrEqual(key(descending[i]!));
      // A cursor belongs to its sort: another sort refuses it.
      const first = await queue('acmeAgent', `sort=${sort}&order=desc&limit=1`);
      expect(
        (
          await call(
            'acmeAgent',
            'GET',
            `/api/admin/claims?sort=${sort}&order=asc&cursor=${encodeURIComponent(first.nextCursor!)}`,
          )
        ).statusCode,
      ).toBe(400);
    },
  );

  it('keeps saved views on the server: private ones for their owner, shared ones for the team, changed only by the owner', async () => {
    const shared = SavedView.parse(
      await ok('acmeAgent', 'POST', '/api/admin/saved-views', {
        name: 'Damaged, by value',
        filters: { type: 'DAMAGED', sort: 'value', assignee: 'me' },
        shared: true,
      }),
    );
    const mine = SavedView.parse(
      await ok('acmeAgent', 'POST', '/api/admin/saved-views', {
        name: 'Just mine',
        filters: { status: 'NEW' },
        shared: false,
      }),
    );
    expect(shared.mine).toBe(true);
    expect(
      (await call('acmeAgent', 'POST', '/api/admin/saved-views', { name: 'just MINE', filters: {}, shared: false }))
        .statusCode,
    ).toBe(400);

    const names = async (user: DemoUser) =>
      SavedViewList.parse(await ok(user, 'GET', '/api/admin/saved-views')).data.map(
        (v) => `${v.name}${v.mine ? ' (mine)' : ` (by ${v.owner.name})`}`,
      );
    expect(await names('acmeAgent')).toEqual(['Damaged, by value (mine)', 'Just mine (mine)']);
    // A teammate on the same account sees the shared one, with its filters; another tenant and the platform's staff do not.
    expect(await names('acmeOwner')).toEqual(['Damaged, by value (by Riley Agent)']);
    expect(await names('acmeViewer')).toEqual(['Damaged, by value (by Riley Agent)']);
    expect(await names('kumoOwner')).toEqual([]);
    expect(await names('admin')).toEqual([]);
    const seen = SavedViewList.parse(await ok('acmeOwner', 'GET', '/api/admin/saved-views')).data[0]!;
    expect(seen.filters).toEqual({ type: 'DAMAGED', sort: 'value', assignee: 'me' });

    // Only the owner changes or deletes it; a view you cannot see is not found.
    expect(
      (
        await call('acmeOwner', 'PUT', `/api/admin/saved-views/${shared.id}`, {
          name: 'Mine now',
          filters: {},
          shared: true,
        })
      ).statusCode,
    ).toBe(403);
    expect((await call('acmeOwner', 'DELETE', `/api/admin/saved-views/${shared.id}`)).statusCode).toBe(403);
    expect((await call('acmeOwner', 'DELETE', `/api/admin/saved-views/${mine.id}`)).statusCode).toBe(404);
    expect((await call('kumoOwner', 'DELETE', `/api/admin/saved-views/${shared.id}`)).statusCode).toBe(404);

    await ok('acmeAgent', 'PUT', `/api/admin/saved-views/${shared.id}`, {
      name: 'Damaged, by value',
      filters: shared.filters,
      shared: false,
    });
    expect(await names('acmeOwner')).toEqual([]);
    expect((await call('acmeAgent', 'DELETE', `/api/admin/saved-views/${mine.id}`)).statusCode).toBe(204);
    expect(await names('acmeAgent')).toEqual(['Damaged, by value (mine)']);
  });
});
