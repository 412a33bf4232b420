import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, signIn, startHarness, type Harness } from './harness.js';

/**
 * The API answering 503 with Retry-After (PostgreSQL restarting): the back-office says it will retry, does so after
 * the wait asked for, and shows the page once the API answers again, without the user doing anything.
 */

const NOTICE = "Our service is briefly unavailable; we'll retry.";
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(() => h?.stop());

describe('the back-office while the API is briefly unavailable', () => {
  it('says it will retry, retries, and shows the queue once the API is back', async () => {
    const { page, problems } = await h.newPage([{ status: 503, path: '/api/admin/claims' }]);
    await signIn(page, 'owner@acme.test');

    // The claim list answers 503 database_unavailable to its first tries, as while PostgreSQL restarts.
    let unavailable = 3;
    let refused = 0;
    await page.route('**/api/admin/claims?**', async (route) => {
      if (unavailable-- <= 0) return route.continue();
      refused++;
      return route.fulfill({
        status: 503,
        headers: { 'retry-after': '1', 'content-type': 'application/json' },
        body: JSON.stringify({
          error: 'database_unavailable',
          message: 'Our service is briefly unavailable; please try again in a few seconds.',
        }),
      });
    });
    await page.reload();

    const notice = page.getByRole('status').filter({ hasText: NOTICE });
    await notice.waitFor();
    await expectAccessible(page);
    // The demo's claims, listed once a try got through; the notice is gone with the wait.
    await page
      .getByRole('table', { name: /Claims, newest first/ })
      .getByRole('link', { name: /^#/ })
      .first()
      .waitFor();
    await expect.poll(() => notice.count()).toBe(0);
    expect(refused).toBe(3);
    expect(problems).toEqual([]);
  });
});
