import { describe, expect, it } from 'vitest';
import { unavailableAtFirst } from '../../../test/support/browserHarness.js';
import { expectAccessible, signIn, fileHarness } from './harness.js';

/**
 * The API answering 503 with Retry-After (PostgreSQL restarting): the back-office says it will retry, does so after
 * the wait asked for, and shows the page once the API answers again, without the user doing anything.
 */

const NOTICE = "Our service is briefly unavailable; we'll retry.";
const h = fileHarness();

describe('the back-office while the API is briefly unavailable', () => {
  it('says it will retry, retries, and shows the queue once the API is back', async () => {
    const { page, problems } = await h.newPage([{ status: 503, path: '/api/admin/claims' }]);
    await signIn(page, 'owner@acme.test');

    // The claim list answers 503 database_unavailable to its first tries, as while PostgreSQL restarts.
    const refused = await unavailableAtFirst(page, '**/api/admin/claims?**', 3);
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
    expect(refused()).toBe(3);
    expect(problems).toEqual([]);
  });
});
