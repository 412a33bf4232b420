import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileClaimResponse } from '@claims/contracts';
import { expectAccessible, heading, startHarness, type Harness } from './harness.js';

/**
 * The API answering 503 with Retry-After (PostgreSQL restarting) while a shopper opens their claim link: the portal
 * says it will retry, does so after the wait asked for, and shows the claim, without the shopper doing anything.
 */

const NOTICE = "Our service is briefly unavailable; we'll retry.";
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(() => h?.stop());

describe('the portal while the API is briefly unavailable', () => {
  it('says it will retry, retries, and shows the claim once the API is back', async () => {
    const filing = await fetch(`${h.baseUrl}/api/claims/acme-5001`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'ava@example.com',
        fulfillmentIssues: [
          {
            sourceFulfillmentId: 'f-1001-1',
            issues: [{ sourceItemId: 'li-1', claimType: 'DAMAGED', quantity: 1, details: 'Torn.', images: [] }],
          },
        ],
        resolution: { desiredMethod: 'REFUND', customerSignature: 'Ava Stone' },
      }),
    });
    expect(filing.status).toBe(201);
    const { token, claimNumber } = FileClaimResponse.parse(await filing.json());

    const { page, problems } = await h.newPage();
    // The claim answers 503 database_unavailable to its first tries, as while PostgreSQL restarts.
    let unavailable = 3;
    let refused = 0;
    await page.route(`**/api/claims/${token}`, async (route) => {
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
    await page.goto(`/view/${token}`);

    const notice = page.getByRole('status').filter({ hasText: NOTICE });
    await notice.waitFor();
    await expectAccessible(page);
    await expect.poll(() => heading(page).textContent(), { timeout: 20_000 }).toBe(`My Claim #${claimNumber}`);
    await expect.poll(() => notice.count()).toBe(0);
    expect(refused).toBe(3);
    expect(problems.filter((problem) => !/status of 503/.test(problem))).toEqual([]);
  });
});
