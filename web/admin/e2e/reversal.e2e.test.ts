import { beforeAll, describe, expect, it } from 'vitest';
import { apiSession, expectAccessible, fileDemoClaim, itemIssue, signIn, fileHarness } from './harness.js';

const h = fileHarness();
/** Order 1006 (Finn): reshipped, then the reship taken back. */
let finn: { claimId: string; claimNumber: string };
/** Order 1001 (Ava): store credit with Acme's bonus, issued, then taken back. */
let ava: { claimId: string; claimNumber: string; token: string };

beforeAll(async () => {
  finn = await fileDemoClaim(h.baseUrl, 'acme-5006', 'RESHIP', itemIssue('li-9', 'DAMAGED', 1, 'Cracked.'));
  const owner = await apiSession(h.baseUrl, 'owner@acme.test');
  const resolved = await owner.post(`/api/admin/claims/${finn.claimId}/resolve`, {
    resolutionType: 'RESHIP',
    reason: 'OTHER',
  });
  expect(resolved.status, await resolved.clone().text()).toBe(200);
  const reversed = await owner.post(`/api/admin/claims/${finn.claimId}/reverse-resolution`, {
    reason: 'Sent to the wrong address',
  });
  expect(reversed.status, await reversed.clone().text()).toBe(200);

  ava = await fileDemoClaim(h.baseUrl, 'acme-5001', 'STORE_CREDIT', itemIssue('li-1', 'DAMAGED', 1, 'Torn.'));
  const credited = await owner.post(`/api/admin/claims/${ava.claimId}/resolve`, {
    resolutionType: 'STORE_CREDIT',
    reason: 'OTHER',
  });
  expect(credited.status, await credited.clone().text()).toBe(200);
  // Issued before it is taken back (a credit reversed before it is issued is never issued).
  await h.runtime.settle();
  const taken = await owner.post(`/api/admin/claims/${ava.claimId}/reverse-resolution`, { reason: 'Charged back' });
  expect(taken.status, await taken.clone().text()).toBe(200);
  await h.runtime.settle();
});

describe('a reversed resolution on the desk', () => {
  it("leaves the queue and its CSV without a resolution, and the claim's history says who reversed it and why", async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    await page.goto(`/admin/?q=${finn.claimNumber}`);

    const table = page.getByRole('table', { name: /Claims, newest first/ });
    const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: `#${finn.claimNumber}` }) });
    await row.getByText('Open', { exact: true }).waitFor();
    // The resolution column is one to choose.
    await page.getByText('Columns', { exact: true }).click();
    await page.getByRole('checkbox', { name: 'Resolution' }).check();
    await table.getByRole('columnheader', { name: 'Resolution' }).waitFor();
    const headers = await table.getByRole('columnheader').allTextContents();
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells[headers.indexOf('Resolution')]).toBe('—');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const [header, line] = Buffer.concat(await (await download.createReadStream()).toArray())
      .toString('utf8')
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n')
      .map((l) => l.split(','));
    expect(line![header!.indexOf('Claim number')]).toBe(finn.claimNumber);
    expect(line![header!.indexOf('Status')]).toBe('Open');
    expect([line![header!.indexOf('Resolution')], line![header!.indexOf('Resolved at')]]).toEqual(['', '']);

    await row.getByRole('link', { name: `#${finn.claimNumber}` }).click();
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const reversal = timeline.getByRole('button', { name: /^Resolution reversed.*Alex Owner/ });
    await reversal.waitFor();
    expect(await reversal.locator('.timeline-detail').textContent()).toBe('Reason: Sent to the wrong address');
    // The reversal first, then the status it sent the claim back to (mail lines aside).
    const titles = await timeline.getByRole('button').locator('.timeline-title').allTextContents();
    expect(titles.slice(-2)).toEqual(['Resolution reversed', 'Status changed from Resolved to Open']);
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });

  it('tells the shopper their store credit was taken back, as the desk says it was reclaimed', async () => {
    const { page, problems } = await h.newPage();
    await page.goto(`/view/${ava.token}`);
    const credit = page.getByRole('region', { name: 'Your store credit' });
    await expect
      .poll(() => credit.textContent())
      .toMatch(
        /\$153\.25 in store credit: \$139\.32 plus a \$13\.93 bonus\. Issued .*\. The store reversed this decision on .*: \$153\.25 was taken back\./,
      );
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });
});
