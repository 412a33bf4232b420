import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible, heading, signIn, fileHarness } from './harness.js';

const h = fileHarness();

/** Waits for the page whose main heading is `name` (a screen may take a while on a busy machine). */
const title = (page: Page, name: string | RegExp) =>
  page.getByRole('heading', { level: 1, name, exact: typeof name === 'string' }).waitFor();
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const status = (page: Page, text: string | RegExp) =>
  page.getByRole('status').filter({ hasText: text }).first().waitFor();

describe("the desk's macro and SOP pages", () => {
  it('creates, edits and deletes a store macro with a live preview, and a global one as Order Protection staff', async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'owner@acme.test');
    await mainNav(page).getByRole('link', { name: 'Macros' }).click();
    await title(page, 'Macros');
    await page.getByRole('heading', { level: 2, name: 'Macros of Acme Outfitters' }).waitFor();
    await page.getByText('No macros yet.').waitFor();
    // A store owner holds no global-macro right: no global section.
    expect(await page.getByRole('heading', { level: 2, name: 'Global macros' }).count()).toBe(0);
    await expectAccessible(page);

    await page.getByRole('button', { name: 'New macro' }).click();
    await page.getByLabel('Name').fill('Photo request');
    const preview = page.getByTestId('macro-preview');
    await page.getByLabel('Text').fill('Hi {{customer.firstName}}, about claim #{{ claim.number }} at {{store.name}}');
    await expect
      .poll(() => preview.textContent(), { timeout: 15_000 })
      .toBe('Hi Ava, about claim #10001 at Acme Outfitters');
    await expectAccessible(page);
    // An unknown placeholder is refused before anything is sent.
    await page.getByLabel('Text').fill('Hi {{customer.nickname}}');
    await page.getByRole('button', { name: 'Create macro' }).click();
    await page.getByText(/Unknown placeholders: customer\.nickname/).waitFor();
    await page.getByLabel('Text').fill('Hi {{customer.firstName}}, please send a photo. {{agent.name}}');
    await expect.poll(() => preview.textContent(), { timeout: 15_000 }).toBe('Hi Ava, please send a photo. Alex Owner');
    await page.getByRole('button', { name: 'Create macro' }).click();
    await status(page, 'Macro "Photo request" created.');
    const table = page.getByRole('table', { name: 'Macros of Acme Outfitters' });
    await table.getByRole('row', { name: /Photo request.*reply/ }).waitFor();

    await table.getByRole('button', { name: 'Edit Photo request' }).click();
    await page.getByRole('heading', { name: 'Edit macro Photo request' }).waitFor();
    await page.getByLabel('Name').fill('Photo request (resolution)');
    await page.getByRole('radio', { name: /Resolution/ }).check();
    // The preset's reasons fit its decision, as on the claim page: denial grounds for a denial only.
    const reasons = page.getByLabel('Reason (optional)');
    await page.getByLabel('Resolution', { exact: true }).selectOption('DENY');
    await reasons.selectOption({ label: 'Claim Type Not Covered' });
    await page.getByLabel('Resolution', { exact: true }).selectOption('RESHIP');
    expect(await reasons.inputValue()).toBe('');
    const reshipReasons = await reasons.locator('option').allTextContents();
    expect(reshipReasons).toContain('Reship');
    expect(reshipReasons).not.toContain('Claim Type Not Covered');
    await page.getByLabel('Resolution', { exact: true }).selectOption('REFUND');
    await page.getByLabel('Description (optional, placeholders allowed)').fill('Refund for order {{order.number}}');
    await expect
      .poll(() => page.getByTestId('macro-preview-description').textContent(), { timeout: 15_000 })
      .toBe('Refund for order 1001');
    await page.getByRole('button', { name: 'Save macro' }).click();
    await status(page, 'Macro "Photo request (resolution)" saved.');
    await table.getByRole('row', { name: /Photo request \(resolution\).*resolution/ }).waitFor();

    await table.getByRole('button', { name: 'Delete Photo request (resolution)' }).click();
    const dialog = page.getByRole('dialog', { name: /Delete macro/ });
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Delete macro' }).click();
    await status(page, 'Macro "Photo request (resolution)" deleted.');
    await page.getByText('No macros yet.').waitFor();
    expect(problems).toEqual([]);

    // Order Protection's admin manages the global macros too.
    const staff = await h.newPage();
    await signIn(staff.page, 'admin@orderprotection.test');
    await staff.page.goto('/admin/macros');
    const global = staff.page.getByRole('region', { name: 'Global macros' });
    await global.getByRole('button', { name: 'New macro' }).click();
    await global.getByLabel('Name').fill('Welcome');
    await global.getByLabel('Text').fill('Hello {{customer.name}}');
    await expect
      .poll(() => global.getByTestId('macro-preview').textContent(), { timeout: 15_000 })
      .toBe('Hello Ava Stone');
    await global.getByRole('button', { name: 'Create macro' }).click();
    await staff.page
      .getByRole('table', { name: 'Global macros' })
      .getByRole('row', { name: /Welcome/ })
      .waitFor();
    await expectAccessible(staff.page);
    expect(staff.problems).toEqual([]);
  });

  it('writes an SOP, publishes, archives, restores and deletes it', async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'owner@acme.test');
    await mainNav(page).getByRole('link', { name: 'SOPs' }).click();
    await title(page, 'SOPs of Acme Outfitters');
    await page.getByText('No SOPs yet.').waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'New SOP' }).click();
    await page.getByRole('button', { name: 'Create SOP' }).click();
    await page.getByText('Give the SOP a title.').waitFor();
    await page.getByLabel('Title').fill('Damaged parcels');
    await page.getByLabel('Procedure', { exact: true }).fill('Ask for a photo of the box, then reship.');
    await page.getByRole('button', { name: 'Create SOP' }).click();
    await status(page, 'SOP "Damaged parcels" created as a draft.');
    const sop = page.getByRole('article', { name: /Damaged parcels/ });
    await sop.getByText('draft', { exact: true }).waitFor();
    await expectAccessible(page);

    await sop.getByRole('button', { name: 'Edit Damaged parcels' }).click();
    await page.getByLabel('Procedure', { exact: true }).fill('Ask for a photo of the box and the item, then reship.');
    await page.getByRole('button', { name: 'Save SOP' }).click();
    await status(page, 'SOP "Damaged parcels" saved.');
    await sop.getByText('Ask for a photo of the box and the item, then reship.').waitFor();

    for (const [button, state] of [
      ['Publish', 'active'],
      ['Archive', 'archived'],
      ['Restore as draft', 'draft'],
    ] as const) {
      await sop.getByRole('button', { name: `${button} Damaged parcels` }).click();
      await status(page, `SOP "Damaged parcels" is now ${state}.`);
      await sop.getByText(state, { exact: true }).waitFor();
    }
    await sop.getByRole('button', { name: 'Delete Damaged parcels' }).click();
    await page
      .getByRole('dialog', { name: /Delete SOP/ })
      .getByRole('button', { name: 'Delete SOP' })
      .click();
    await status(page, 'SOP "Damaged parcels" deleted.');
    await page.getByText('No SOPs yet.').waitFor();
    expect(problems).toEqual([]);
  });
});

describe("the desk's order page", () => {
  it('opens by source or system order id, removes and adds protection, files a claim for the shopper and links back from the claim', async () => {
    // A system order id is first asked for as a claim id (no claim has it: 404), then found as an order.
    const { page, problems } = await h.newPage([{ status: 404, path: '/api/admin/claims/' }]);
    await signIn(page, 'owner@acme.test');
    await page.goto('/admin/claims/view/acme-5002');
    await title(page, 'Order 1002');
    const orderUrl = page.url();
    const orderId = /\/orders\/([0-9a-f-]{36})$/.exec(orderUrl)?.[1];
    expect(orderId).toBeDefined();
    await page
      .getByRole('table')
      .getByRole('row', { name: /Claimed/ })
      .waitFor();
    await page.getByText('f-1002-2').first().waitFor();
    await expectAccessible(page);

    // The system id works through the same link shape.
    await page.goto(`/admin/claims/view/${orderId!}`);
    await page.waitForURL(orderUrl);
    await title(page, 'Order 1002');

    const protection = page.getByRole('region', { name: 'Protection' });
    await protection.getByText('protected', { exact: true }).waitFor();
    await protection.getByRole('button', { name: 'Remove protection' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove the protection of order 1002?' });
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Remove protection' }).click();
    await status(page, 'Protection removed; its premium was reversed.');
    await protection.getByText('removed', { exact: true }).waitFor();
    await protection.getByRole('button', { name: 'Add protection' }).click();
    await status(page, 'The order is protected; its premium was recorded.');
    await protection.getByText('protected', { exact: true }).waitFor();

    const form = page.getByRole('form', { name: 'File a claim' });
    await form.getByRole('checkbox').first().check();
    await form.getByLabel('Issue').selectOption('DAMAGED');
    await form.getByLabel('What happened').fill('The shopper phoned: the lamp arrived cracked.');
    expect(await form.getByLabel('Signed by').inputValue()).toBe('Alex Owner');
    await form.getByRole('button', { name: 'File claim' }).click();
    await title(page, /^Claim #\d+$/);
    const claimNumber = (await heading(page).textContent())!.slice('Claim #'.length);

    await page.getByRole('link', { name: 'Order 1002' }).click();
    await title(page, 'Order 1002');
    await page
      .getByRole('region', { name: 'Claims' })
      .getByRole('link', { name: `Claim #${claimNumber}` })
      .waitFor();
    expect(problems).toEqual([]);
  });

  it('offers no protection change to a support agent, who may still file a claim', async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    await page.goto('/admin/claims/view/acme-5010');
    await title(page, 'Order 1010');
    await page.getByRole('region', { name: 'Protection' }).waitFor();
    expect(await page.getByRole('button', { name: /protection/i }).count()).toBe(0);
    await page.getByRole('form', { name: 'File a claim' }).waitFor();
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });
});
