import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { upsertOrder } from '../../../services/api/src/catalog/orderRepository.js';
import { mailedInvitationToken } from '../../../services/api/test/support/invitations.js';
import { noordOrder } from '../../../test/support/noordOrder.js';
import {
  eventually,
  expectAccessible,
  heading,
  shopperAtResolution,
  signIn,
  fileHarness,
  type AdminPage,
  openUserMenu,
} from './harness.js';

const h = fileHarness();
/** The admin's signed-in page, from creating the account to inviting the store's owner. */
let staffPage: AdminPage | undefined;
/** Implementation's signed-in page, through the checklist. */
let implPage: AdminPage | undefined;
/** The owner's signed-in page, from her setting up the store (settings, branding) to her profile. */
let ownerPage: AdminPage | undefined;

const css = (locator: Locator, property: string) =>
  locator.evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);

/** Presses a step's button on Noord Linen's checklist and waits for the page to say it was taken. */
async function takeStep(page: Page, button: string, done: string): Promise<void> {
  await page.getByRole('region', { name: 'Noord Linen' }).getByRole('button', { name: button }).click();
  await page.getByRole('status').getByText(`Noord Linen: ${done}.`).waitFor();
}

/** The portal looks for a saved draft of the order first: none yet is its expected 404. */
const NO_DRAFT = [{ status: 404, path: '/api/sessions' }];

describe('store onboarding', () => {
  // One story in steps (each test continues where the one before left off): staff create a store and take it through
  // onboarding, its owner sets it up, and its shopper no longer sees the refund option.
  it("lets Order Protection's admin create an account", async () => {
    const staff = await h.newPage();
    await signIn(staff.page, 'admin@orderprotection.test');
    await staff.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Onboarding' }).click();
    await expect.poll(() => heading(staff.page).textContent()).toBe('Store onboarding');
    await staff.page.getByText('No store has been created here yet.').waitFor();
    await expectAccessible(staff.page);
    const account = staff.page.getByRole('region', { name: 'New account' });
    // The form's fields are styled and wide enough to read what is typed, not squashed in a row.
    for (const label of ['Account name', 'Account slug']) {
      const field = account.getByLabel(label);
      expect(await css(field, 'min-height')).toBe('40px');
      expect((await field.boundingBox())!.width).toBeGreaterThan(200);
    }
    await account.getByLabel('Account name').fill('Noord Group');
    await account.getByLabel('Account slug').fill('Noord Group');
    await account.getByRole('button', { name: 'Create account' }).click();
    await account
      .getByRole('alert')
      .getByText(/lowercase letters, digits and single hyphens/)
      .waitFor();
    await expectAccessible(staff.page);
    await account.getByLabel('Account slug').fill('noord-group');
    await account.getByRole('button', { name: 'Create account' }).click();
    await staff.page.getByRole('status').getByText('The account Noord Group was created.').waitFor();
    expect(staff.problems).toEqual([]);
    staffPage = staff;
  });

  it('lets the admin create a store in it, which starts its onboarding', async () => {
    const staff = staffPage!;
    const newStore = staff.page.getByRole('region', { name: 'New store' });
    await newStore.getByLabel('Account').selectOption({ label: 'Noord Group' });
    await newStore.getByLabel('Store name').fill('Noord Linen');
    await newStore.getByLabel('Store slug').fill('noord-linen');
    await newStore.getByLabel('Currency').fill('EUR');
    await newStore.getByRole('button', { name: 'Create store' }).click();
    await staff.page
      .getByRole('status')
      .getByText('The store Noord Linen was created: its onboarding starts below.')
      .waitFor();
    const card = staff.page.getByRole('region', { name: 'Noord Linen' });
    await card.getByText('Store created — ', { exact: false }).waitFor();
    // The admin holds no implementation right: the steps are not offered.
    expect(await card.getByRole('button').count()).toBe(0);
    await expectAccessible(staff.page);
    expect(staff.problems).toEqual([]);
  });

  it("lets the admin invite the new store's owner from its team", async () => {
    const staff = staffPage!;
    await staff.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team' }).click();
    await staff.page.getByLabel('Store').selectOption({ label: 'Noord Linen' });
    const invite = staff.page.getByRole('region', { name: 'Invite a member' });
    await invite.getByLabel('Email').fill('nora@noord.test');
    await invite.getByLabel('Name').fill('Nora Noord');
    await invite.getByLabel('Role').selectOption({ label: 'Store owner' });
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await staff.page.getByRole('dialog', { name: 'Invitation created' }).waitFor();
    expect(staff.problems).toEqual([]);
    await staff.context.close();
  });

  it('lets implementation take the store through branding and review to a rejection', async () => {
    const impl = await h.newPage();
    await signIn(impl.page, 'implementation@orderprotection.test');
    await impl.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Onboarding' }).click();
    const checklist = impl.page.getByRole('region', { name: 'Noord Linen' });
    const press = (button: string, done: string) => takeStep(impl.page, button, done);
    // Each step leads to the page its work is done on: branding to the store's branding editor.
    const { storeId } = (await (
      await fetch(new URL('/api/whitelabel/settings?store=noord-linen', h.baseUrl))
    ).json()) as { storeId: string };
    expect(await checklist.getByRole('link', { name: 'Open the branding editor' }).getAttribute('href')).toBe(
      `/admin/branding?store=${storeId}`,
    );
    await press('Mark branding created', 'branding created');
    await press('Send for review', 'sent for review');
    await checklist.getByLabel('Reason for rejecting').fill('The logo is blurry.');
    await checklist.getByRole('button', { name: 'Reject' }).click();
    await checklist.getByText(/Rejected .* by Ida Implementation: The logo is blurry\./).waitFor();
    await expectAccessible(impl.page);
    expect(impl.problems).toEqual([]);
    implPage = impl;
  });

  it('lets implementation send it for review again, approve, deploy and activate it', async () => {
    const impl = implPage!;
    const checklist = impl.page.getByRole('region', { name: 'Noord Linen' });
    const press = (button: string, done: string) => takeStep(impl.page, button, done);
    await press('Send for review', 'sent for review');
    await press('Approve', 'approved');
    await press('Deploy', 'deployed');
    await checklist.getByRole('button', { name: 'Activate store' }).click();
    await impl.page.getByRole('status').getByText('Noord Linen is active: its shoppers can file claims.').waitFor();
    const list = checklist.getByRole('list', { name: 'Onboarding checklist of Noord Linen' });
    expect(await list.getByText('to do').count()).toBe(0);
    await expectAccessible(impl.page);
    expect(impl.problems).toEqual([]);
    await impl.context.close();
  });

  it('offers the shopper of the new store a refund while its settings say so', async () => {
    const { storeId } = (await (
      await fetch(new URL('/api/whitelabel/settings?store=noord-linen', h.baseUrl))
    ).json()) as { storeId: string };
    // Two orders: the portal keeps a draft per order, and would bring a second visit back to where the first left off.
    for (const number of ['N7001', 'N7002'])
      await upsertOrder(h.runtime.ctx.database.db, storeId, `noord-${number}`, noordOrder(number));
    const before = await h.newPage(NO_DRAFT);
    await shopperAtResolution(before.page, 'N7001', 'noor@example.com');
    await before.page.getByRole('radio', { name: /I want a refund/ }).waitFor();
    await before.context.close();
  });

  it("lets the store's owner accept her invitation and invite a teammate", async () => {
    const token = await mailedInvitationToken(h.runtime, 'nora@noord.test');
    const owner = await h.newPage();
    await owner.page.goto(`/admin/accept-invitation#${token}`);
    await owner.page.getByLabel('Password', { exact: true }).fill('noord-pass-1234');
    await owner.page.getByLabel('Password again').fill('noord-pass-1234');
    await owner.page.getByRole('button', { name: 'Accept and sign in' }).click();
    // Her store has no claim yet: the desk guides her through what to set up instead of showing an empty table.
    const guide = owner.page.getByRole('region', { name: 'No claims yet' });
    await guide.waitFor();
    expect(await owner.page.getByRole('table', { name: /Claims, newest first/ }).count()).toBe(0);
    expect(await guide.getByRole('link').allTextContents()).toEqual(
      expect.arrayContaining(["Check your store's settings", 'Brand your claims portal', 'Invite your team']),
    );
    await expectAccessible(owner.page);
    await guide.getByRole('link', { name: 'Invite your team' }).click();
    const teammate = owner.page.getByRole('region', { name: 'Invite a member' });
    await teammate.getByLabel('Email').fill('tom@noord.test');
    await teammate.getByLabel('Name').fill('Tom Teammate');
    await teammate.getByLabel('Role').selectOption({ label: 'Store support' });
    await teammate.getByRole('button', { name: 'Send invitation' }).click();
    await owner.page.getByRole('dialog', { name: 'Invitation created' }).getByRole('button', { name: 'Done' }).click();
    expect(owner.problems).toEqual([]);
    ownerPage = owner;
  });

  it("lets the owner turn refunds off on her store's settings", async () => {
    const owner = ownerPage!;

    await owner.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await expect.poll(() => heading(owner.page).textContent()).toBe('Settings of Noord Linen');
    const capabilities = owner.page.getByRole('region', { name: 'Capabilities' });
    await capabilities.getByRole('checkbox', { name: 'Refund' }).uncheck();
    await capabilities.getByRole('button', { name: 'Save capabilities settings' }).click();
    await owner.page.getByRole('status').getByText('Capabilities settings saved.').waitFor();
    await capabilities.getByText('by Nora Noord').waitFor();
    await owner.page.getByRole('region', { name: 'Contact' }).waitFor();
    await expectAccessible(owner.page);
    expect(owner.problems).toEqual([]);
  });

  it('lets the owner brand her store, the preview of her portal following each change', async () => {
    const owner = ownerPage!;
    await owner.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Branding' }).click();
    await eventually(() => heading(owner.page).textContent()).toBe('Branding of Noord Linen');
    const button = owner.page.frameLocator('iframe[title="Portal preview"]').getByRole('button', { name: 'Continue' });
    await owner.page.getByLabel('Primary colour').fill('#0b3d91');
    await eventually(() => css(button, 'background-color')).toBe('rgb(11, 61, 145)');
    await owner.page.getByLabel('Button style').selectOption('SQUARE');
    await eventually(() => css(button, 'border-top-left-radius')).toBe('0px');
    await owner.page.getByRole('button', { name: 'Save branding' }).click();
    await owner.page.getByRole('status').getByText('Branding saved.').waitFor();
    await owner.page
      .getByRole('region', { name: /Versions/ })
      .getByText('Nora Noord')
      .waitFor();
    await expectAccessible(owner.page);
    expect(owner.problems).toEqual([]);
  });

  it('lets the owner change her own name and password on her profile', async () => {
    const owner = ownerPage!;
    await (await openUserMenu(owner.page)).getByRole('link', { name: 'Profile' }).click();
    const details = owner.page.getByRole('form', { name: 'Your details' });
    await details.getByLabel('Name').fill('Nora van Noord');
    await details.getByRole('button', { name: 'Save name' }).click();
    await details.getByText('Your name was saved.').waitFor();
    const password = owner.page.getByRole('form', { name: 'Change password' });
    await password.getByLabel('Current password').fill('noord-pass-1234');
    await password.getByLabel('New password', { exact: true }).fill('noord-pass-5678');
    await password.getByLabel('New password again').fill('noord-pass-5678');
    await password.getByRole('button', { name: 'Change password' }).click();
    await password.getByText('Your password was changed; your other sessions were signed out.').waitFor();
    await expectAccessible(owner.page);
    expect(owner.problems).toEqual([]);
    await owner.context.close();
  });

  it("no longer offers that store's shopper a refund, and shows her its brand", async () => {
    const after = await h.newPage(NO_DRAFT);
    await shopperAtResolution(after.page, 'N7002', 'noor@example.com');
    expect(await after.page.getByRole('radio', { name: /I want a refund/ }).count()).toBe(0);
    await eventually(() => css(after.page.getByRole('button', { name: 'Continue' }), 'background-color')).toBe(
      'rgb(11, 61, 145)',
    );
    expect(after.problems).toEqual([]);
    await after.context.close();
  });
});
