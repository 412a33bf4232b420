import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import {
  CHROMIUM,
  collectProblems,
  expectAccessible,
  startBrowserHarness,
  startedForFile,
  type BrowserHarness,
} from '../../../test/support/browserHarness.js';

export { expectAccessible };
const DIST = path.resolve(import.meta.dirname, '../dist/index.html');

export interface Harness extends BrowserHarness {
  /** A fresh browser context (no stored order) with CSP and console errors collected. */
  newPage(): Promise<{ page: Page; context: BrowserContext; problems: string[] }>;
}

/** The portal's browser harness. */
export async function startHarness(): Promise<Harness> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run infra/scripts/chromium.sh`);
  if (!existsSync(DIST)) throw new Error('The portal is not built: run `npm run build -w web/portal`');
  const harness = await startBrowserHarness('portal', {
    // Every test browses from 127.0.0.1: the per-address limits are lifted, the per-order ones (10 lookups, 5 filings) kept.
    RATE_LIMIT_LOOKUP_PER_IP: '1000',
    RATE_LIMIT_FILING_PER_IP: '1000',
    RATE_LIMIT_LOOKUP_PER_ORDER: '10',
    RATE_LIMIT_FILING_PER_ORDER: '5',
    SENTRY_DSN: '',
    SENTRY_ENVIRONMENT: '',
  });
  return {
    ...harness,
    async newPage() {
      const context = await harness.browser.newContext({
        baseURL: harness.baseUrl,
        viewport: { width: 390, height: 844 },
      });
      const page = await context.newPage();
      // A 404 answer the portal handles (a lookup's no-match, a path no route matches) is logged by Chromium; it is not
      // a defect. A missing draft is not even that: the lookup says whether one is saved, so /api/sessions never 404s.
      const problems = collectProblems(
        page,
        (text, where) => /status of 404/.test(text) && !where.includes('/api/sessions'),
      );
      return { page, context, problems };
    },
  };
}

/** The portal's harness for one test file: started before its tests, stopped after them. */
export const fileHarness = (): Harness => startedForFile(startHarness);

export const heading = (page: Page) => page.getByRole('heading', { level: 1 });

/** A valid 1×1 PNG. */
export const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export async function lookUp(page: Page, order: string, email: string): Promise<void> {
  await page.goto('/start');
  await page.getByLabel('Order number').fill(order);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/**
 * The items step's first item and its issue dialog: the given issue (all of a multiple), with details and photos if
 * given. Answers the dialog, the issue not yet added.
 */
export async function describeFirstItem(
  page: Page,
  issue: string,
  { photos = 0, details }: { photos?: number; details?: string } = {},
): Promise<Locator> {
  await page.getByRole('checkbox').first().check();
  await page.getByRole('button', { name: 'Continue' }).click();
  const dialog = page.getByRole('dialog', { name: 'Tell us about your issue' });
  await dialog.waitFor();
  const same = dialog.getByRole('button', { name: 'Yes, they do' });
  if (await same.isVisible()) await same.click();
  await dialog.getByLabel("What's the issue with this item?").selectOption(issue);
  if (details) await dialog.getByLabel('Provide an additional information').fill(details);
  for (let i = 1; i <= photos; i++) {
    await dialog
      .getByLabel('Upload photos')
      .setInputFiles({ name: `photo-${i}.png`, mimeType: 'image/png', buffer: PNG_1PX });
    await dialog.getByRole('img', { name: `Uploaded photo ${i}` }).waitFor();
  }
  return dialog;
}

/** Issues with my items → the first item → the given issue (all of a multiple), optionally with photos. */
export async function addItemIssue(page: Page, issue: string, photos = 0): Promise<void> {
  await page.getByRole('button', { name: /Issues with my items/ }).click();
  await page.waitForURL('**/issues/items');
  const dialog = await describeFirstItem(page, issue, { photos });
  await dialog.getByRole('button', { name: 'Add issue to claim' }).click();
  await page.waitForURL('**/resolution');
}

/** The resolution step: picks the option its label matches and continues to the review. */
export async function chooseResolution(page: Page, option: RegExp): Promise<void> {
  await page.getByRole('radio', { name: option }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL('**/resolution/review');
}

/** The review step's confirmation that the shipping address is right. */
export async function confirmAddress(page: Page): Promise<void> {
  await page
    .getByLabel(
      'I confirm this address is accurate and understand items cannot be reshipped multiple times if incorrect.',
    )
    .check();
}

/** Confirms the address, signs with a typed name and submits: the claim is filed once the claim-received page shows. */
export async function submitReview(page: Page, name: string): Promise<void> {
  await confirmAddress(page);
  await page.getByLabel('Type your full name to sign').fill(name);
  await page.getByRole('button', { name: 'Submit your claim' }).click();
  await page.waitForURL('**/claim-received');
}
