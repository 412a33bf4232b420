import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminReviewList, ClaimReviewList } from '@claims/contracts';
import { claimListProjection, claimReviewsProjection } from '@claims/projections';
import {
  json,
  projectionsCaughtUp,
  oneItemClaim,
  startHarness,
  type DemoUser,
  type Harness,
} from './support/backofficeHarness.js';

describe("shoppers' reviews on the desk", () => {
  let h: Harness;
  const cookies = new Map<DemoUser, string>();
  let acmeClaim: { claimId: string; token: string };
  let kumoClaim: { claimId: string; token: string };
  const get = (user: DemoUser, url: string) => h.call({ method: 'GET', url, cookie: cookies.get(user) });

  const caughtUp = () => projectionsCaughtUp(h, [claimListProjection, claimReviewsProjection]);
  const review = async (token: string, rating: number, text: string) => {
    const response = await h.call({ method: 'POST', url: `/api/claims/${token}/reviews`, body: { rating, text } });
    expect(response.statusCode, response.body).toBe(201);
  };

  beforeAll(async () => {
    h = await startHarness();
    for (const user of ['acmeAgent', 'kumoOwner', 'admin', 'finance'] as const) cookies.set(user, await h.login(user));
    acmeClaim = await h.fileClaim('acme-5008', oneItemClaim('hugo@example.com', 'f-1008-1', 'li-12'));
    kumoClaim = await h.fileClaim('kumo-9001', oneItemClaim('ivy@example.com', 'f-k2001-1', 'k-1', 'RESHIP'));
    await review(acmeClaim.token, 2, 'Slow answers.');
    await review(kumoClaim.token, 5, 'Great service!');
    await caughtUp();
  });
  afterAll(async () => h?.stop());

  it("shows a claim's review with its rating and text; another tenant's claim is a 404", async () => {
    const own = ClaimReviewList.parse(json(await get('acmeAgent', `/api/admin/claims/${acmeClaim.claimId}/reviews`)));
    expect(own.data).toMatchObject([{ rating: 2, text: 'Slow answers.' }]);
    expect((await get('kumoOwner', `/api/admin/claims/${acmeClaim.claimId}/reviews`)).statusCode).toBe(404);
    expect((await get('finance', `/api/admin/claims/${acmeClaim.claimId}/reviews`)).statusCode).toBe(403);
  });

  it("lists the reviews of the caller's stores, by store and rating", async () => {
    const mine = AdminReviewList.parse(json(await get('acmeAgent', '/api/admin/reviews')));
    expect(mine.data.map((r) => [r.claimId, r.rating, r.text, r.store.slug])).toEqual([
      [acmeClaim.claimId, 2, 'Slow answers.', 'acme'],
    ]);
    const all = AdminReviewList.parse(json(await get('admin', '/api/admin/reviews')));
    expect(all.data.map((r) => r.claimId).sort()).toEqual([acmeClaim.claimId, kumoClaim.claimId].sort());
    const fives = AdminReviewList.parse(json(await get('admin', '/api/admin/reviews?rating=5')));
    expect(fives.data.map((r) => r.claimId)).toEqual([kumoClaim.claimId]);
    const kumo = await h.storeId('kumo');
    const ofKumo = AdminReviewList.parse(json(await get('admin', `/api/admin/reviews?store=${kumo}`)));
    expect(ofKumo.data.map((r) => r.claimId)).toEqual([kumoClaim.claimId]);
    // Another tenant's store is a 404, a role without reviews:read a 403, a bad rating a 400.
    expect((await get('acmeAgent', `/api/admin/reviews?store=${kumo}`)).statusCode).toBe(404);
    expect((await get('finance', '/api/admin/reviews')).statusCode).toBe(403);
    expect((await get('admin', '/api/admin/reviews?rating=6')).statusCode).toBe(400);
  });
});
