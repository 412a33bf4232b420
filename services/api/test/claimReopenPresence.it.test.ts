import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClaimDetail, TimelineResponse, type ClaimViewer } from '@claims/contracts';
import { upsertOrder } from '../src/catalog/orderRepository.js';
import { ClaimPresenceHub } from '../src/desk/claimPresence.js';
import { json, oneItemClaim, startHarness, type DemoUser, type Harness } from './support/backofficeHarness.js';
import { testOrder } from './support/testOrders.js';

let orderCount = 0;

/** The lists of viewers a hub sends one watcher, and a wait for the next one that satisfies a test. */
function listener() {
  const seen: ClaimViewer[][] = [];
  const waiting: Array<{ test: (v: ClaimViewer[]) => boolean; resolve: (v: ClaimViewer[]) => void }> = [];
  return {
    send(viewers: ClaimViewer[]) {
      seen.push(viewers);
      for (const w of [...waiting]) {
        if (w.test(viewers)) {
          waiting.splice(waiting.indexOf(w), 1);
          w.resolve(viewers);
        }
      }
    },
    next(test: (v: ClaimViewer[]) => boolean): Promise<ClaimViewer[]> {
      const last = seen.at(-1);
      if (last && test(last)) return Promise.resolve(last);
      return new Promise((resolve) => waiting.push({ test, resolve }));
    },
  };
}

describe('reopening a closed claim, and who else has a claim open', () => {
  let h: Harness;
  const cookies = new Map<DemoUser, string>();
  let acme = '';
  const call = (user: DemoUser, method: 'GET' | 'POST', url: string, body?: unknown) =>
    h.call({ method, url, cookie: cookies.get(user), body });

  async function fileClaim(): Promise<string> {
    const number = `REOPEN-${++orderCount}`;
    const input = testOrder(number);
    await upsertOrder(h.runtime.ctx.database.db, acme, `src-${number}`, input);
    return (await h.fileClaim(`src-${number}`, oneItemClaim(input.customerEmail, `${number}-f`, `${number}-li`)))
      .claimId;
  }

  beforeAll(async () => {
    h = await startHarness();
    for (const user of ['acmeAgent', 'acmeViewer', 'kumoOwner'] as const) cookies.set(user, await h.login(user));
    acme = await h.storeId('acme');
  });
  afterAll(async () => {
    await h.stop();
  });

  it('reopens a closed claim to OPEN with claim:resolve, as a status change in its history; refuses it otherwise', async () => {
    const claimId = await fileClaim();
    const reopen = (user: DemoUser, body: object = {}) =>
      call(user, 'POST', `/api/admin/claims/${claimId}/reopen`, body);

    const notClosed = await reopen('acmeAgent');
    expect(notClosed.statusCode).toBe(422);
    expect(json<{ message: string }>(notClosed).message).toContain('only a closed claim');

    const closed = await call('acmeAgent', 'POST', `/api/admin/claims/${claimId}/status`, {
      status: 'CLOSED',
      reason: 'OTHER',
    });
    expect(AdminClaimDetail.parse(json(closed)).status).toBe('CLOSED');
    // A store user may update claims but not resolve them: closing and reopening are the resolver's. Another tenant sees no claim.
    expect((await reopen('acmeViewer')).statusCode).toBe(403);
    expect((await reopen('kumoOwner')).statusCode).toBe(404);
    expect((await reopen('acmeAgent', { note: 'x'.repeat(2_001) })).statusCode).toBe(400);
    const version = AdminClaimDetail.parse(
      json(await call('acmeAgent', 'GET', `/api/admin/claims/${claimId}`)),
    ).version;
    expect((await reopen('acmeAgent', { expectedVersion: version - 1 })).statusCode).toBe(409);
    expect(AdminClaimDetail.parse(json(await call('acmeAgent', 'GET', `/api/admin/claims/${claimId}`))).status).toBe(
      'CLOSED',
    );

    const reopened = AdminClaimDetail.parse(
      json(await reopen('acmeAgent', { note: 'The shopper sent new photos', expectedVersion: version })),
    );
    expect(reopened.status).toBe('OPEN');
    expect(reopened.version).toBe(version + 1);
    await h.runtime.settle();
    const timeline = TimelineResponse.parse(
      json(await call('acmeAgent', 'GET', `/api/admin/claims/${claimId}/timeline`)),
    );
    expect(timeline.data.filter((e) => e.source === 'claim').at(-1)).toMatchObject({
      eventType: 'ClaimStatusChanged',
      status: 'OPEN',
      version: version + 1,
    });
    expect((await reopen('acmeAgent')).statusCode).toBe(422);
  });

  it('tells each page who else has the claim open, across API processes sharing the database', async () => {
    const claimId = await fileClaim();
    const db = h.runtime.ctx.database.db;
    // Two processes: each has its own hub, and only the table in between.
    const timing = { heartbeatMs: 50, staleMs: 15_000 };
    const first = new ClaimPresenceHub(db, timing);
    const second = new ClaimPresenceHub(db, timing);
    const riley = { userId: 'u-riley', name: 'Riley Agent' };
    const sam = { userId: 'u-sam', name: 'Sam Support' };

    const rileySees = listener();
    const leaveRiley = await first.join(claimId, riley, (v) => rileySees.send(v));
    expect(await rileySees.next(() => true)).toEqual([]);

    const samSees = listener();
    const leaveSam = await second.join(claimId, sam, (v) => samSees.send(v));
    expect(await samSees.next(() => true)).toEqual([riley]);
    // Riley is on the other process: the news comes with that process's next heartbeat.
    expect(await rileySees.next((v) => v.length === 1)).toEqual([sam]);

    // Riley in a second tab is still nobody else to Riley, and one entry to Sam.
    const rileyAgain = listener();
    const leaveRileyAgain = await second.join(claimId, riley, (v) => rileyAgain.send(v));
    expect(await rileyAgain.next(() => true)).toEqual([sam]);
    await leaveRileyAgain();
    expect(await samSees.next(() => true)).toEqual([riley]);

    await leaveSam();
    expect(await rileySees.next((v) => v.length === 0)).toEqual([]);
    await leaveRiley();
    await Promise.all([first.stop(), second.stop()]);
  });
});
