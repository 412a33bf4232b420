import { describe, expect, it } from 'vitest';
import { ClaimSession, CustomerOrder } from '@claims/contracts';
import { chooseResolution } from '../../portal/e2e/harness.js';
import { expectAccessible, heading, shopperAtResolution, signIn, fileHarness } from './harness.js';

const h = fileHarness();

/** The resolution the portal saved in the order's draft, once the draft has reached the review step. */
async function savedChoice(order: string, email: string): Promise<() => Promise<string | null>> {
  const lookup = new URL('/api/order-lookup', h.baseUrl);
  lookup.search = new URLSearchParams({ order, email }).toString();
  const { systemOrderId } = CustomerOrder.parse(await (await fetch(lookup)).json());
  const sessions = new URL('/api/sessions', h.baseUrl);
  sessions.search = new URLSearchParams({ orderId: systemOrderId, email }).toString();
  return async () => {
    const response = await fetch(sessions);
    if (!response.ok) return null;
    const session = ClaimSession.parse(await response.json());
    return session.status === 'REVIEWING' ? (session.metadata?.claim.resolution.desiredMethod ?? null) : null;
  };
}

/** The portal looks for a saved draft of the order first: none yet is its expected 404. */
const NO_DRAFT = [{ status: 404, path: '/api/sessions' }];

describe('store settings page', () => {
  // Four shopper visits, a sign-in and three axe runs over a page of sixteen groups: more than the default minute on a loaded machine.
  it('lets the owner turn refunds off, and the shopper no longer sees the refund option', async () => {
    // Ava chooses a refund and stops at the review: her draft keeps the choice.
    const before = await h.newPage(NO_DRAFT);
    await shopperAtResolution(before.page, '1001', 'ava@example.com');
    await chooseResolution(before.page, /I want a refund/);
    const avasChoice = await savedChoice('1001', 'ava@example.com');
    await expect.poll(avasChoice).toBe('REFUND');
    await before.context.close();

    const { page, context, problems } = await h.newPage();
    await signIn(page, 'owner@acme.test');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/admin/settings');
    await expect.poll(() => heading(page).textContent()).toBe('Settings of Acme Outfitters');
    const capabilities = page.getByRole('region', { name: 'Capabilities' });
    await capabilities.getByText('Last changed').waitFor();
    expect(await capabilities.getByText('by Demo data').count()).toBe(1);
    await expectAccessible(page);

    // A rule of the group is checked before sending: returns need their portal address.
    await capabilities.getByLabel('Returns portal address').fill('');
    await capabilities.getByRole('button', { name: 'Save capabilities settings' }).click();
    await capabilities.getByText('Returns need the returns portal address.').waitFor();
    expect(await capabilities.getByLabel('Returns portal address').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page);
    await capabilities.getByLabel('Returns portal address').fill('https://returns.acme.test');

    await capabilities.getByRole('checkbox', { name: 'Refund' }).uncheck();
    await capabilities.getByRole('button', { name: 'Save capabilities settings' }).click();
    await page.getByRole('status').getByText('Capabilities settings saved.').waitFor();
    await capabilities.getByText('by Alex Owner').waitFor();
    expect(await capabilities.getByRole('checkbox', { name: 'Refund' }).isChecked()).toBe(false);
    await capabilities.getByText('Change history (2)').click();
    await capabilities.getByText('Refund: On → Off').waitFor();
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();

    const after = await h.newPage(NO_DRAFT);
    await shopperAtResolution(after.page, '1008', 'hugo@example.com');
    expect(await after.page.getByRole('radio', { name: /I want a refund/ }).count()).toBe(0);
    await expectAccessible(after.page);
    expect(after.problems).toEqual([]);
    await after.context.close();

    // Ava comes back to her draft at the review: the refund she chose is no longer offered, so she chooses again.
    const back = await h.newPage();
    await back.page.goto('/start');
    await back.page.getByLabel('Order number').fill('1001');
    await back.page.getByLabel('Email address').fill('ava@example.com');
    await back.page.getByRole('button', { name: 'Continue' }).click();
    await back.page.waitForURL('**/resolution/review');
    await back.page.getByText('Choose how we can fix this for you first.').waitFor();
    await expectAccessible(back.page);
    await back.page.getByRole('link', { name: 'Go Back' }).click();
    await back.page.waitForURL('**/resolution');
    await back.page.getByRole('radio', { name: /Reship them to me/ }).waitFor();
    expect(await back.page.getByRole('radio', { name: /I want a refund/ }).count()).toBe(0);
    expect(await back.page.getByRole('radio', { checked: true }).count()).toBe(0);
    expect(back.problems).toEqual([]);
    await back.context.close();
  }, 150_000);

  it('shows store support the settings it may read, without a form', async () => {
    const { page, context, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    await page.goto('/admin/settings');
    await expect.poll(() => heading(page).textContent()).toBe('Settings of Acme Outfitters');
    const capabilities = page.getByRole('region', { name: 'Capabilities' });
    await capabilities.getByText('changing them needs capabilities:update').waitFor();
    expect(await capabilities.getByRole('checkbox').count()).toBe(0);
    expect(await capabilities.getByRole('button', { name: /Save/ }).count()).toBe(0);
    await capabilities.getByRole('definition').filter({ hasText: 'Off' }).first().waitFor();
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  });
});
