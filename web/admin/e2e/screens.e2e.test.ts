import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chooseResolution, describeFirstItem, lookUp, submitReview } from '../../portal/e2e/harness.js';
import { expectAccessible, fileClaim, heading, signIn, type AdminPage, fileHarness } from './harness.js';

/**
 * Every screen of both apps, as the role that may see it: a screenshot at a phone's, a tablet's and a desktop's width
 * (kept under test-results/screens for people to look at) and axe at 0 violations at the desktop width. One server, one
 * browser, one signed-in context per role: the whole file is meant to stay under three minutes.
 */
const SCREENS = path.resolve(import.meta.dirname, '../../../test-results/screens');
const DESKTOP = 1440;
const WIDTHS = [390, 768, DESKTOP] as const;
const HEIGHT = 900;

const h = fileHarness();
let claimId = '';

/** Demo orders a shopper may claim (some demo shipments are not claimable yet): the first that files is the desk's claim. */
const CANDIDATES = [
  { order: 'acme-5001', email: 'ava@example.com', fulfillment: 'f-1001-1', item: 'li-1', name: 'Ava Stone' },
  { order: 'acme-5002', email: 'ben@example.com', fulfillment: 'f-1002-1', item: 'li-4', name: 'Ben Ortiz' },
  { order: 'acme-5004', email: 'dan@example.com', fulfillment: 'f-1004-1', item: 'li-7', name: 'Dan' },
] as const;

beforeAll(async () => {
  mkdirSync(SCREENS, { recursive: true });
  for (const c of CANDIDATES) {
    try {
      const filed = await fileClaim(h.baseUrl, c.order, {
        email: c.email,
        fulfillmentIssues: [
          {
            sourceFulfillmentId: c.fulfillment,
            issues: [
              { sourceItemId: c.item, claimType: 'DAMAGED', quantity: 1, details: 'Arrived broken.', images: [] },
            ],
          },
        ],
        resolution: { desiredMethod: 'REFUND', customerSignature: c.name },
      });
      claimId = filed.claimId;
      break;
    } catch {
      // Not claimable (yet): the next candidate.
    }
  }
  expect(claimId).not.toBe('');
});

/** The page has its heading and no loading placeholder left. */
async function settled(page: Page) {
  await heading(page).first().waitFor();
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], .skeleton, .ui-skeleton'));
}

/** Screenshots of the page at each width, then axe at the widest. */
async function capture(page: Page, app: 'admin' | 'portal', name: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: HEIGHT });
    await page.screenshot({ path: path.join(SCREENS, `${app}-${name}-${width}.png`), fullPage: true });
  }
  await expectAccessible(page, `${app} ${name}`);
}

/** Opens `url` in the app, waits for it to settle and captures it. */
async function visit(page: Page, url: string, app: 'admin' | 'portal', name: string) {
  await page.setViewportSize({ width: DESKTOP, height: HEIGHT });
  await page.goto(url);
  await settled(page);
  await capture(page, app, name);
}

/** The page in the dark theme (the system's preference, no choice remembered): a screenshot and axe. */
async function captureDark(page: Page, name: string) {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await settled(page);
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  await page.screenshot({ path: path.join(SCREENS, `admin-${name}-dark-1440.png`), fullPage: true });
  await expectAccessible(page, `admin ${name} (dark)`);
  await page.emulateMedia({ colorScheme: 'light' });
}

/** A context signed in as `email`, its problems checked when the test ends. */
async function signedIn(email: string): Promise<AdminPage> {
  const admin = await h.newPage();
  await admin.page.setViewportSize({ width: DESKTOP, height: HEIGHT });
  await signIn(admin.page, email);
  return admin;
}

describe('every screen at 390, 768 and 1440 px, with axe at 0 violations', () => {
  it('the signed-out back-office', async () => {
    const { page, context, problems } = await h.newPage();
    await visit(page, '/admin/sign-in', 'admin', 'sign-in');
    await visit(page, '/admin/accept-invitation', 'admin', 'accept-invitation');
    expect(problems).toEqual([]);
    await context.close();
  });

  it("an agent's desk: the queue, a claim and its order, in both themes", async () => {
    const { page, context, problems } = await signedIn('agent@acme.test');
    await visit(page, '/admin/', 'admin', 'queue');
    await captureDark(page, 'queue');
    await visit(page, `/admin/claims/view/${claimId}`, 'admin', 'claim');
    await captureDark(page, 'claim');
    await page
      .getByRole('link', { name: /^Order / })
      .first()
      .click();
    await page.waitForURL('**/admin/orders/**');
    await settled(page);
    await capture(page, 'admin', 'order');
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a store owner's pages", async () => {
    const { page, context, problems } = await signedIn('owner@acme.test');
    for (const [name, url] of [
      ['analytics', '/admin/analytics'],
      ['returns', '/admin/returns'],
      ['reviews', '/admin/reviews'],
      ['invoices', '/admin/invoices'],
      ['payment-methods', '/admin/payment-methods'],
      ['store-credit', '/admin/store-credit'],
      ['rules', '/admin/rules'],
      ['macros', '/admin/macros'],
      ['sops', '/admin/sops'],
      ['webhooks', '/admin/webhooks'],
      ['api-tokens', '/admin/api-tokens'],
      ['settings', '/admin/settings'],
      ['branding', '/admin/branding'],
      ['ab-tests', '/admin/ab-tests'],
      ['team', '/admin/team'],
      ['profile', '/admin/profile'],
      ['not-found', '/admin/no-such-page'],
    ] as const)
      await visit(page, url, 'admin', name);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("Order Protection's pages: operations, onboarding, support users and finance", async () => {
    const admin = await signedIn('admin@orderprotection.test');
    await visit(admin.page, '/admin/operations', 'admin', 'operations');
    await visit(admin.page, '/admin/onboarding', 'admin', 'onboarding');
    await visit(admin.page, '/admin/support-users', 'admin', 'support-users');
    expect(admin.problems).toEqual([]);
    await admin.context.close();

    const finance = await signedIn('finance@orderprotection.test');
    await visit(finance.page, '/admin/finance', 'admin', 'finance');
    await visit(finance.page, '/admin/finance/payouts', 'admin', 'finance-payouts');
    await visit(finance.page, '/admin/finance/replay', 'admin', 'finance-replay');
    await visit(finance.page, '/admin/finance/charts', 'admin', 'finance-charts');
    expect(finance.problems).toEqual([]);
    await finance.context.close();
  });

  it("the shopper's portal: the entry pages, the lookups that cannot file, the steps to a filed claim, and the 404", async () => {
    const { page, context, problems } = await h.newPage();
    await visit(page, '/start', 'portal', 'start');
    await visit(page, '/claim-links', 'portal', 'claim-links');
    await visit(page, '/return', 'portal', 'return');

    // Lookups that cannot file: too soon after delivery (1003), too late (1004), not shipped yet (1005).
    for (const [order, email, outcome] of [
      ['1003', 'cara@example.com', 'too-soon'],
      ['1004', 'dan@example.com', 'too-late'],
      ['1005', 'eve@example.com', 'not-shipped'],
    ] as const) {
      await lookUp(page, order, email);
      await page.waitForURL(`**/${outcome}`);
      await settled(page);
      await capture(page, 'portal', outcome);
    }

    // Order 1002 has two deliveries: the shipment steps.
    await lookUp(page, '1002', 'ben@example.com');
    await page.waitForURL('**/issues');
    await settled(page);
    await capture(page, 'portal', 'issues');
    await page.getByRole('button', { name: /Haven't received my order/ }).click();
    await page.waitForURL('**/issues/shipment');
    await settled(page);
    await capture(page, 'portal', 'shipment');
    await page.getByRole('checkbox', { name: /In Transit/ }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL('**/issues/shipment/details');
    await settled(page);
    await capture(page, 'portal', 'shipment-details');

    // Order 1010: the items steps, through to the filed claim.
    await lookUp(page, '1010', 'jon@example.com');
    await page.waitForURL('**/issues');
    await page.getByRole('button', { name: /Issues with my items/ }).click();
    await page.waitForURL('**/multiple-shipments');
    await settled(page);
    await capture(page, 'portal', 'multiple-shipments');
    await page.getByRole('radio').first().check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL('**/issues/items');
    await settled(page);
    await capture(page, 'portal', 'items');
    const dialog = await describeFirstItem(page, 'MISSING_ITEM', { details: 'Box was half empty.' });
    await capture(page, 'portal', 'issue-dialog');
    await dialog.getByRole('button', { name: 'Add issue to claim' }).click();
    await page.waitForURL('**/resolution');
    await settled(page);
    await capture(page, 'portal', 'resolution');
    await chooseResolution(page, /Reship them to me/);
    await settled(page);
    await capture(page, 'portal', 'review');
    await submitReview(page, 'Jon');
    await settled(page);
    await capture(page, 'portal', 'claim-received');
    await page.getByRole('link', { name: 'View my claim' }).click();
    await page.waitForURL('**/view/**');
    await settled(page);
    await capture(page, 'portal', 'view-claim');
    expect(problems).toEqual([]);
    await context.close();

    // The page no route matches answers 404, which the browser logs: expected here.
    const lost = await h.newPage([{ status: 404, path: '/no-such-page' }]);
    await visit(lost.page, '/no-such-page', 'portal', 'not-found');
    expect(lost.problems).toEqual([]);
    await lost.context.close();
  });
});
