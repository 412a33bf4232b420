import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, fileDemoClaim, itemIssue, fileHarness, signIn } from './harness.js';

const h = fileHarness();

/** Screenshots of the page, for a person to look at (git ignores the folder). */
const SHOTS = path.resolve(import.meta.dirname, '../../../test-results/e2e');

let claimId: string;

beforeAll(async () => {
  // A typical claim: one damaged item, a refund asked for.
  ({ claimId } = await fileDemoClaim(
    h.baseUrl,
    'acme-5002',
    'REFUND',
    itemIssue('li-4', 'DAMAGED', 1, 'Arrived broken.'),
  ));
});

const box = async (locator: Locator) => {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not laid out');
  return found;
};

async function openClaim(page: Page, width: number, height = 900) {
  await page.setViewportSize({ width, height });
  await page.goto(`/admin/claims/view/${claimId}`);
  await page.getByRole('button', { name: 'Review decision' }).waitFor();
}

const decisionPanel = (page: Page) => page.getByRole('region', { name: 'Resolve claim' });
const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

describe('the claim page as an agent works it', () => {
  it('at 1440×900 puts the decision beside the facts, its submit button in view without scrolling', async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    await openClaim(page, 1440);
    const submit = await box(page.getByRole('button', { name: 'Review decision' }));
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(submit.y).toBeGreaterThanOrEqual(0);
    expect(submit.y + submit.height).toBeLessThanOrEqual(900);
    // Two columns: the facts on the left, the decision on the right, both starting at the top.
    const decision = await box(decisionPanel(page));
    const items = await box(section(page, 'Item Issue(s)'));
    expect(items.x + items.width).toBeLessThanOrEqual(decision.x);
    expect(Math.abs(items.y - decision.y)).toBeLessThan(4);
    // The timeline is in the decision's column, under it.
    const timeline = await box(section(page, 'Timeline'));
    expect(timeline.x).toBe(decision.x);
    expect(timeline.y).toBeGreaterThan(decision.y);
    await expectAccessible(page);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'claim-page-1440.png') });
    expect(problems).toEqual([]);
  });

  it('below 1200px is one column: the decision first, the facts under it', async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    await openClaim(page, 1100);
    const decision = await box(decisionPanel(page));
    const items = await box(section(page, 'Item Issue(s)'));
    expect(items.x).toBe(decision.x);
    expect(items.y).toBeGreaterThan(decision.y + decision.height - 1);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'claim-page-1100.png'), fullPage: true });
    expect(problems).toEqual([]);
  });

  it('remembers a section folded or opened, per section, on the next visit', async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    await openClaim(page, 1440);
    const customer = section(page, 'Customer Claim');
    await expect.poll(() => customer.locator('details[open]').count()).toBe(1);
    await customer.locator('summary').click();
    await expect.poll(() => customer.locator('details[open]').count()).toBe(0);
    // A tool starts folded; opened once, it stays open.
    const labels = section(page, 'Labels');
    await labels.locator('summary').click();
    await expect.poll(() => labels.locator('details[open]').count()).toBe(1);

    await openClaim(page, 1440);
    await expect.poll(() => section(page, 'Customer Claim').locator('details[open]').count()).toBe(0);
    expect(await section(page, 'Item Issue(s)').locator('details[open]').count()).toBe(1);
    expect(await section(page, 'Labels').locator('details[open]').count()).toBe(1);
    // The keyboard still reaches a folded section's form: it opens again.
    await section(page, 'Messages').locator('summary').click();
    await expect.poll(() => section(page, 'Messages').locator('details[open]').count()).toBe(0);
    await page.keyboard.press('r');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('id') ?? '')).toMatch(/-text$/);
    expect(problems).toEqual([]);
  });
});
