import { describe, expect, it } from 'vitest';
import { CustomerOrder, OfferResponse } from '@claims/contracts';
import { eventually, expectAccessible, fileDemoClaim, itemIssue, heading, signIn, fileHarness } from './harness.js';

const h = fileHarness();

/** The portal looks for a saved draft of the order first: none yet is its expected 404. */
const NO_DRAFT = [{ status: 404, path: '/api/sessions' }];

async function offerOf(order: string, email: string): Promise<OfferResponse> {
  const lookup = new URL('/api/order-lookup', h.baseUrl);
  lookup.search = new URLSearchParams({ order, email }).toString();
  const { systemOrderId } = CustomerOrder.parse(await (await fetch(lookup)).json());
  const response = await fetch(`${h.baseUrl}/api/sessions/offer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ orderId: systemOrderId, email }),
  });
  expect(response.status).toBe(200);
  return OfferResponse.parse(await response.json());
}

describe('A/B tests page', () => {
  it('starts a test of the store-credit bonus, shows the shopper their variant, and counts sessions and claims per variant', async () => {
    const { page, context, problems } = await h.newPage();
    await signIn(page, 'owner@acme.test');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'A/B tests' }).click();
    await page.waitForURL('**/admin/ab-tests');
    await eventually(() => heading(page).textContent()).toBe('A/B tests of Acme Outfitters');
    await page.getByText('No test yet.').waitFor();
    await expectAccessible(page);

    await page.getByLabel('Variant A store-credit bonus (%)').fill('10');
    await page.getByLabel('Variant B store-credit bonus (%)').fill('15');
    await page.getByRole('button', { name: 'Start test' }).click();
    await page.getByRole('status').getByText('Test started: each new claim session sees one variant.').waitFor();
    const test = page.getByRole('region', { name: 'Store credit bonus' });
    await test.getByText('Running').waitFor();
    expect(await page.getByRole('button', { name: 'Start test' }).count()).toBe(0);

    // The shopper reaches the resolution step and is offered their session's variant; asking again gives the same one.
    const offer = await offerOf('1001', 'ava@example.com');
    expect(offer.test).not.toBeNull();
    expect(await offerOf('1001', 'ava@example.com')).toEqual(offer);
    const shopper = await h.newPage(NO_DRAFT);
    await shopper.page.goto('/start');
    await shopper.page.getByLabel('Order number').fill('1001');
    await shopper.page.getByLabel('Email address').fill('ava@example.com');
    await shopper.page.getByRole('button', { name: 'Continue' }).click();
    await shopper.page.waitForURL('**/issues');
    await shopper.page.getByRole('button', { name: /Issues with my items/ }).click();
    await shopper.page.waitForURL('**/issues/items');
    await shopper.page.getByRole('checkbox').first().check();
    await shopper.page.getByRole('button', { name: 'Continue' }).click();
    const dialog = shopper.page.getByRole('dialog', { name: 'Tell us about your issue' });
    await dialog.waitFor();
    const same = dialog.getByRole('button', { name: 'Yes, they do' });
    if (await same.isVisible()) await same.click();
    await dialog.getByLabel("What's the issue with this item?").selectOption('DAMAGED');
    await dialog.getByRole('button', { name: 'Add issue to claim' }).click();
    await shopper.page.waitForURL('**/resolution');
    await shopper.page
      .getByRole('radio', { name: new RegExp(`Get a ${offer.credit.bonus}% bonus on your store credit`) })
      .waitFor();
    expect(shopper.problems).toEqual([]);
    await shopper.context.close();

    // Ava files, choosing store credit: her variant counts one session and one claim, all of it store credit.
    await fileDemoClaim(h.baseUrl, 'acme-5001', 'STORE_CREDIT', itemIssue('li-3', 'DAMAGED', 1, 'Chipped.'));
    const label = `${offer.credit.bonus}% bonus`;
    const row = test.getByRole('row', { name: new RegExp(`^${label}`) });
    await eventually(async () => {
      await page.reload();
      return row.textContent();
    }).toContain('100.0% (1)');
    expect(await row.getByRole('cell').nth(0).textContent()).toBe('1');
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('1');
    await test.getByText('No clear winner').waitFor();
    await test.getByText(/each variant needs at least 30 claims/).waitFor();
    await expectAccessible(page);

    await test.getByRole('button', { name: 'Stop test' }).click();
    await page.getByRole('status').getByText('"Store credit bonus" stopped.').waitFor();
    await test.getByText('Stopped').first().waitFor();
    // With no test running, the shopper gets the store's own offer again.
    expect(await offerOf('1002', 'ben@example.com')).toEqual({
      credit: { bonus: 10, bonusType: 'percentage' },
      test: null,
    });
    expect(problems).toEqual([]);
    await context.close();
  }, 240_000);

  it('keeps the tests from store support', async () => {
    const { page, context, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'A/B tests' }).count()).toBe(
      0,
    );
    await page.goto('/admin/ab-tests');
    await page.getByText('You have no store whose A/B tests you may see.').waitFor();
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
