import { describe, expect, it } from 'vitest';
import { FileClaimResponse } from '@claims/contracts';
import { unavailableAtFirst } from '../../../test/support/browserHarness.js';
import { demoClaim, itemIssue } from '../../../test/support/seededDemo.js';
import { expectAccessible, heading, fileHarness } from './harness.js';

/**
 * The API answering 503 with Retry-After (PostgreSQL restarting) while a shopper opens their claim link: the portal
 * says it will retry, does so after the wait asked for, and shows the claim, without the shopper doing anything.
 */

const NOTICE = "Our service is briefly unavailable; we'll retry.";
const h = fileHarness();

describe('the portal while the API is briefly unavailable', () => {
  it('says it will retry, retries, and shows the claim once the API is back', async () => {
    const filing = await fetch(`${h.baseUrl}/api/claims/acme-5001`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(demoClaim('acme-5001', 'REFUND', itemIssue('li-1', 'DAMAGED', 1, 'Torn.'))),
    });
    expect(filing.status).toBe(201);
    const { token, claimNumber } = FileClaimResponse.parse(await filing.json());

    const { page, problems } = await h.newPage();
    // The claim answers 503 database_unavailable to its first tries, as while PostgreSQL restarts.
    const refused = await unavailableAtFirst(page, `**/api/claims/${token}`, 3);
    await page.goto(`/view/${token}`);

    const notice = page.getByRole('status').filter({ hasText: NOTICE });
    await notice.waitFor();
    await expectAccessible(page);
    await expect.poll(() => heading(page).textContent(), { timeout: 20_000 }).toBe(`My Claim #${claimNumber}`);
    await expect.poll(() => notice.count()).toBe(0);
    expect(refused()).toBe(3);
    expect(problems.filter((problem) => !/status of 503/.test(problem))).toEqual([]);
  });
});
