import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { formatMonth } from '@claims/format';
import { apiSession, expectAccessible, fileDemoClaim, itemIssue, signIn, fileHarness } from './harness.js';

const h = fileHarness();
/** Screenshots of the page, for a person to look at (git ignores the folder). */
const SHOTS = path.resolve(import.meta.dirname, '../../../test-results/e2e');
/** Order 1006 (Finn, 32.00 USD and its tax: 34.00 paid): reshipped. */
let finn: { claimId: string; claimNumber: string; token: string };
/** Order 1007 (Gia, 24.00 USD and 8% tax: 25.92 paid): store credit, with Acme's 10% bonus (2.59). */
let gia: { claimId: string; claimNumber: string; token: string };
/** What the ledger owes Acme: Finn's 34.00, Gia's 28.51 and the demo data's refund of Gia's other item, 25.92. */
const OWED = '$88.43';

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const financeNav = (page: Page) => page.getByRole('navigation', { name: 'Finance' });
const status = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text });

beforeAll(async () => {
  finn = await fileDemoClaim(h.baseUrl, 'acme-5006', 'RESHIP', itemIssue('li-9', 'DAMAGED', 1, 'Cracked.'));
  gia = await fileDemoClaim(
    h.baseUrl,
    'acme-5007',
    'STORE_CREDIT',
    itemIssue('li-10', 'DEFECTIVE_ITEM', 1, 'Dead on arrival.'),
  );
  const owner = await apiSession(h.baseUrl, 'owner@acme.test');
  for (const [claim, resolutionType] of [
    [finn, 'RESHIP'],
    [gia, 'STORE_CREDIT'],
  ] as const) {
    const resolved = await owner.post(`/api/admin/claims/${claim.claimId}/resolve`, {
      resolutionType,
      reason: 'OTHER',
    });
    expect(resolved.status, await resolved.clone().text()).toBe(200);
  }
  // The ledger's entries and the store credit the reaction issues.
  await h.runtime.settle();
});

describe('finance pages of the back-office', () => {
  it('shows the finance user the payouts, and moves a batch through four eyes to paid, each step with who and when', async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'finance@orderprotection.test');
    await mainNav(page).getByRole('link', { name: 'Finance' }).click();
    await page.getByRole('heading', { level: 1, name: 'Payouts' }).waitFor();

    const entries = page.getByRole('table', { name: 'Payout entries' });
    const finnRow = entries.getByRole('row', { name: `Claim #${finn.claimNumber}` });
    await finnRow.waitFor();
    expect(await finnRow.getByRole('cell').allTextContents()).toEqual([
      'Acme Outfitters',
      'Reship',
      expect.any(String),
      'pending',
      '$34.00',
    ]);
    const giaRow = entries.getByRole('row', { name: `Claim #${gia.claimNumber}` });
    expect(await giaRow.getByRole('cell').allTextContents()).toEqual([
      'Acme Outfitters',
      'Store Credit',
      expect.any(String),
      'pending',
      '$28.51',
    ]);
    const totals = page
      .getByRole('table', { name: 'Totals per store and currency' })
      .getByRole('row', { name: /^Acme Outfitters USD/ });
    expect(await totals.getByRole('cell').allTextContents()).toEqual([
      'USD',
      '3',
      OWED,
      '$0.00',
      '$0.00',
      '$0.00',
      OWED,
    ]);
    await expectAccessible(page);

    // Only paid entries: none yet.
    await page.getByLabel('Status', { exact: true }).selectOption('paid');
    await page.getByLabel('Store', { exact: true }).selectOption({ label: 'Acme Outfitters' });
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await status(page, 'No entries.').waitFor();

    const batches = page.getByRole('region', { name: 'Payout batches of Acme Outfitters' });
    await batches.getByText('No payout batches yet.').waitFor();
    await batches.getByRole('button', { name: 'Create batch' }).click();
    await status(page, new RegExp(`^Batch [0-9a-f]{8} made: 3 entries, \\${OWED}\\.`)).waitFor();
    const row = batches.getByRole('row', { name: /^Batch [0-9a-f]{8}/ });
    expect(await row.getByRole('cell').nth(2).textContent()).toMatch(/^Fay Finance/);
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('created');
    // The maker is not offered the approval the server would refuse (403), and is told why.
    await row.getByText('Waiting for another approver').waitFor();
    await row.getByText('You made this batch: someone else approves it.').waitFor();
    expect(await row.getByRole('button', { name: /^Approve batch/ }).count()).toBe(0);
    await expectAccessible(page);

    // A second finance user approves it, then marks it paid with the transfer's reference.
    const second = await h.newPage();
    await signIn(second.page, 'controller@orderprotection.test');
    await second.page.goto('/admin/finance/payouts');
    await second.page.getByLabel('Store', { exact: true }).selectOption({ label: 'Acme Outfitters' });
    await second.page.getByRole('button', { name: 'Apply filters' }).click();
    const theirs = second.page
      .getByRole('region', { name: 'Payout batches of Acme Outfitters' })
      .getByRole('row', { name: /^Batch [0-9a-f]{8}/ });
    await theirs.getByRole('button', { name: /^Approve batch/ }).click();
    await status(second.page, /approved; it can be marked paid\./).waitFor();
    expect(await theirs.getByRole('cell').nth(3).textContent()).toMatch(/^Cole Controller/);
    await theirs.getByRole('button', { name: /paid$/ }).click();
    await second.page.getByRole('alert').filter({ hasText: "Enter the transfer's reference." }).waitFor();
    await theirs.getByLabel(/Transfer reference/).fill('WIRE-42');
    await theirs.getByRole('button', { name: /paid$/ }).click();
    await status(second.page, 'marked paid (WIRE-42).').waitFor();
    expect(await theirs.getByRole('cell').nth(4).textContent()).toMatch(/^Cole Controller.*Reference WIRE-42$/);
    await expectAccessible(second.page);
    expect(second.problems).toEqual([]);

    // The maker sees every step, and the entries paid.
    await h.runtime.settle();
    await page.reload();
    await row.getByRole('cell').nth(1).getByText('paid', { exact: true }).waitFor();
    expect(await row.getByRole('cell').nth(3).textContent()).toMatch(/^Cole Controller/);
    await entries
      .getByRole('row', { name: `Claim #${finn.claimNumber}` })
      .getByText('paid', { exact: true })
      .waitFor();
    expect(problems).toEqual([]);
  });

  it("replays a period to exactly the live ledger, and under a candidate replacement cost shows the reship's difference by claim", async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'finance@orderprotection.test');
    await page.goto('/admin/finance/payouts');
    await financeNav(page).getByRole('link', { name: 'Replay' }).click();
    await page.getByRole('heading', { level: 1, name: 'Finance replay' }).waitFor();

    await page.getByRole('checkbox', { name: 'Acme Outfitters' }).check();
    await page.getByRole('button', { name: 'Start replay' }).click();
    await status(page, 'The replay is done.').waitFor();
    expect(await page.getByRole('progressbar').getAttribute('value')).toBe('1');
    await status(page, 'Replay equals the live ledger.').waitFor();
    const acme = page
      .getByRole('table', { name: 'Live and replayed totals per store and currency' })
      .getByRole('row', { name: /^Acme Outfitters/ });
    expect(await acme.getByRole('cell').allTextContents()).toEqual(['USD', OWED, OWED, '$0.00']);
    expect(await page.getByRole('table', { name: /^Differences/ }).count()).toBe(0);
    await expectAccessible(page);

    // Acme values reshipments at 100%; at 80% Finn's reship is owed 27.20 instead of 34.00.
    await page.getByLabel(/Replacement cost of a reshipment/).fill('80');
    await page.getByRole('button', { name: 'Start replay' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: '1 payout of the replay differs from the live ledger.' })
      .waitFor();
    // Named by the claim's number and its resolution, linking to the claim.
    const difference = page
      .getByRole('table', { name: 'Differences, by the claim that decided them' })
      .getByRole('row', { name: `Claim #${finn.claimNumber}` });
    await difference.getByRole('link', { name: `Claim #${finn.claimNumber}` }).waitFor();
    expect(await difference.getByRole('cell').allTextContents()).toEqual([
      'Acme Outfitters',
      'Reship',
      '$34.00',
      '$27.20',
      '-$6.80',
    ]);
    expect(await acme.getByRole('cell').allTextContents()).toEqual(['USD', OWED, '$81.63', '-$6.80']);
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });

  it('charts premiums and payouts per month and store, a chart per currency, with the figures as tables', async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'finance@orderprotection.test');
    await page.goto('/admin/finance/payouts');
    await financeNav(page).getByRole('link', { name: 'Premiums & payouts' }).click();
    await page.getByRole('heading', { level: 1, name: 'Premiums & payouts' }).waitFor();
    const payouts = page.getByRole('figure', { name: 'Payouts decided per month (USD)' });
    await payouts.getByText('Payouts decided per month (USD): data table').click();
    const month = formatMonth(new Date().toISOString().slice(0, 7));
    const acme = payouts.getByRole('row', { name: new RegExp(`^${month} Acme Outfitters`) });
    expect(await acme.getByRole('cell').allTextContents()).toEqual(['Acme Outfitters', OWED, '3']);
    const premiums = page.getByRole('figure', { name: 'Premiums collected per month (USD)' });
    await premiums.getByText('Premiums collected per month (USD): data table').click();
    await premiums.getByRole('row', { name: new RegExp(`^${month} Acme Outfitters`) }).waitFor();
    // The demo orders paid premiums in dollars, euros and yen: three charts, each axis in its one currency.
    const premiumCharts = page.getByRole('figure', { name: /^Premiums collected per month/ });
    const titles = await premiumCharts.locator('h2').allTextContents();
    expect(titles).toEqual([
      'Premiums collected per month (EUR)',
      'Premiums collected per month (JPY)',
      'Premiums collected per month (USD)',
    ]);
    for (const [index, symbol] of ['€', '¥', '$'].entries()) {
      const ticks = await premiumCharts
        .nth(index)
        .locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value')
        .allTextContents();
      expect(ticks.length).toBeGreaterThan(1);
      expect(ticks.every((tick) => tick.startsWith(symbol))).toBe(true);
    }
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'finance-charts-1280.png'), fullPage: true });
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });

  it('shows the store credit a resolution issued on the claim page, in the ledger and to the shopper; changes never go below zero', async () => {
    const finance = await h.newPage();
    await signIn(finance.page, 'finance@orderprotection.test');
    await finance.page.goto(`/admin/claims/view/${gia.claimId}`);
    const credit = finance.page.getByRole('region', { name: 'Store Credit' });
    await credit.waitFor();
    const fact = (term: string) =>
      credit
        .getByRole('term')
        .filter({ hasText: new RegExp(`^${term}$`) })
        .locator('xpath=following-sibling::dd');
    expect([
      await fact('Credit').textContent(),
      await fact('Bonus').textContent(),
      await fact('Total Store Credit').textContent(),
    ]).toEqual(['$25.92', '$2.59', '$28.51']);
    expect(await fact('Issued').locator('time').count()).toBe(1);
    await expectAccessible(finance.page);

    // The finance team reads store credit; it does not change it.
    await mainNav(finance.page).getByRole('link', { name: 'Store credit' }).click();
    await finance.page.getByRole('heading', { level: 1, name: 'Store credit of Acme Outfitters' }).waitFor();
    await finance.page.getByRole('link', { name: 'gia@example.com' }).click();
    const ledger = finance.page.getByRole('region', { name: 'Ledger of gia@example.com' });
    const issued = ledger.getByRole('table').getByRole('row').nth(1);
    await issued.waitFor();
    expect(await issued.getByRole('cell').allTextContents()).toEqual([
      'Issued',
      '$28.51',
      '$2.59 included',
      `Claim #${gia.claimNumber}`,
      '—',
    ]);
    expect(await ledger.getByRole('button', { name: 'Redeem' }).count()).toBe(0);
    await expectAccessible(finance.page);
    expect(finance.problems).toEqual([]);

    // The store's owner redeems: more than the balance is refused with the server's words, then some is redeemed.
    const owner = await h.newPage([{ status: 400, path: '/store-credit/redeem' }]);
    await signIn(owner.page, 'owner@acme.test');
    // The claim page says what the resolution issued: the credit with the store's bonus, decided and in the timeline.
    await owner.page.goto(`/admin/claims/view/${gia.claimId}`);
    const credited = /Store credit \$25\.92 \+ \$2\.59 bonus = \$28\.51/;
    await owner.page.getByRole('region', { name: 'Decisions' }).getByRole('row', { name: credited }).waitFor();
    await owner.page.getByRole('region', { name: 'Timeline' }).getByRole('button', { name: credited }).waitFor();
    await owner.page.goto(`/admin/store-credit?customer=${encodeURIComponent('gia@example.com')}`);
    const redeem = owner.page.getByRole('form', { name: 'Redeem credit' });
    await redeem.getByLabel('Amount to redeem (USD)').fill('500');
    await redeem.getByLabel(/Reference/).fill('Order 2001');
    await redeem.getByRole('button', { name: 'Redeem' }).click();
    await redeem
      .getByRole('alert')
      .filter({ hasText: "That is more than the customer's store credit balance." })
      .waitFor();
    await redeem.getByLabel('Amount to redeem (USD)').fill('8.51');
    await redeem.getByRole('button', { name: 'Redeem' }).click();
    await status(owner.page, '$8.51 redeemed. The balance is $20.00.').waitFor();
    await owner.page
      .getByRole('region', { name: 'Ledger of gia@example.com' })
      .getByRole('cell', { name: 'Order 2001' })
      .waitFor();
    await expectAccessible(owner.page);
    expect(owner.problems).toEqual([]);

    // The shopper's own claim view in the portal, in the claim's currency.
    const shopper = await h.newPage();
    await shopper.page.goto(`/view/${gia.token}`);
    const yours = shopper.page.getByRole('region', { name: 'Your store credit' });
    await yours.getByText(/^\$28\.51 in store credit: \$25\.92 plus a \$2\.59 bonus\. Issued /).waitFor();
    await expectAccessible(shopper.page);
    expect(shopper.problems).toEqual([]);
  });

  it('shows on the claim page what reversing the resolution reclaimed of its store credit and what the customer had redeemed', async () => {
    const owner = await apiSession(h.baseUrl, 'owner@acme.test');
    const reversed = await owner.post(`/api/admin/claims/${gia.claimId}/reverse-resolution`, {
      reason: 'Charged back',
    });
    expect(reversed.status).toBe(200);
    const { page, problems } = await h.newPage();
    await signIn(page, 'finance@orderprotection.test');
    await page.goto(`/admin/claims/view/${gia.claimId}`);
    const credit = page.getByRole('region', { name: 'Store Credit' });
    const fact = (term: string) =>
      credit
        .getByRole('term')
        .filter({ hasText: new RegExp(`^${term}$`) })
        .locator('xpath=following-sibling::dd');
    // The reclaiming reaction runs after the reversal: the page shows it once reloaded after it ran.
    await expect
      .poll(
        async () => {
          await page.reload();
          return fact('Reclaimed on reversal').count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    expect(await fact('Reclaimed on reversal').textContent()).toMatch(/^\$20\.00 \(/);
    expect(await fact('Already redeemed, kept by the customer').textContent()).toBe('$8.51');
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });
});
