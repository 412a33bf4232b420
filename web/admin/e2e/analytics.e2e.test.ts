import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiSession, expectAccessible, fileDemoClaim, itemIssue, heading, signIn, fileHarness } from './harness.js';

const h = fileHarness();
/** Screenshots of the page, for a person to look at (git ignores the folder). */
const SHOTS = path.resolve(import.meta.dirname, '../../../test-results/e2e');

beforeAll(async () => {
  // Besides the demo data's claim on order 1007 (filed ten days ago, refunded): Ava's claim today, answered and denied.
  const ava = await fileDemoClaim(h.baseUrl, 'acme-5001', 'REFUND', itemIssue('li-2', 'DAMAGED', 1, 'Torn.'));
  const owner = await apiSession(h.baseUrl, 'owner@acme.test');
  expect(
    (await owner.post(`/api/admin/claims/${ava.claimId}/messages`, { messageContent: 'We are looking into it.' }))
      .status,
  ).toBe(201);
  expect(
    (
      await owner.post(`/api/admin/claims/${ava.claimId}/resolve`, {
        resolutionType: 'DENY',
        reason: 'PACKAGE_ARRIVED',
      })
    ).status,
  ).toBe(200);
  await h.runtime.settle();
});

const tile = (page: Page, label: string) =>
  page.getByRole('list', { name: 'Key figures' }).getByRole('listitem').filter({ hasText: label });
const kpi = (page: Page, label: string) => tile(page, label).locator('.kpi-value');
const change = (page: Page, label: string) => tile(page, label).locator('.kpi-change');
/** The one format of a day (docs/product.md#dates). */
const DAY = /^\d\d\/\d\d\/\d{4}$/;

describe('back-office analytics', () => {
  it('shows a merchant the figures and charts of their store, for a chosen period, and exports them', async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'owner@acme.test');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
    await expect.poll(() => heading(page).textContent()).toBe('Analytics');

    // The last 30 days: the demo claim and Ava's.
    await expect.poll(() => kpi(page, 'Claims filed').textContent()).toBe('2');
    expect(await kpi(page, 'Approval rate').textContent()).toBe('50.0%');
    expect(await kpi(page, 'Denial rate').textContent()).toBe('50.0%');
    for (const title of [
      'Claims filed per day by type',
      'Claims by carrier',
      'Claims by shipment status',
      'Resolution mix',
      'Reimbursed by resolution type',
      'Top denial reasons',
    ]) {
      await page.getByRole('heading', { level: 2, name: title }).waitFor();
    }
    await page.locator('.chart-canvas svg').first().waitFor();
    // The days are bars, the counts whole numbers, every day written DD/MM/YYYY: on the axis, in the tooltip, in the table.
    const byDay = page.getByRole('figure', { name: 'Claims filed per day by type' });
    const bars = byDay.locator('.recharts-bar-rectangle path');
    await expect.poll(() => bars.count()).toBeGreaterThanOrEqual(2);
    const ticks = (axis: string) =>
      byDay.locator(`.recharts-${axis}-tick-labels .recharts-cartesian-axis-tick-value`).allTextContents();
    const counts = await ticks('yAxis');
    expect(counts.length).toBeGreaterThan(1);
    expect(counts.every((t) => /^\d+$/.test(t))).toBe(true);
    const days = await ticks('xAxis');
    expect(days.length).toBeGreaterThan(1);
    expect(days.every((t) => DAY.test(t))).toBe(true);
    await bars.last().hover();
    await expect.poll(() => byDay.locator('.recharts-tooltip-label').textContent()).toMatch(DAY);
    await byDay.getByText('Claims filed per day by type: data table').click();
    const rows = await byDay.getByRole('rowheader').allTextContents();
    expect(rows.length).toBe(2);
    expect(rows.every((d) => DAY.test(d))).toBe(true);
    expect(await page.getByText(/^Claims filed \d\d\/\d\d\/\d{4} to \d\d\/\d\d\/\d{4} \(UTC days\)/).count()).toBe(1);
    // Nothing was filed in the 30 days before: no tile pretends to compare with them.
    expect(await page.locator('.kpi-change').count()).toBe(0);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'analytics-1280.png'), fullPage: true });
    await expect.poll(() => page.getByRole('row', { name: /Package Arrived/ }).count()).toBe(1);
    // A chart's figures are also a table.
    await page.getByText('Claims by carrier: data table').click();
    await page.getByRole('row', { name: 'UPS 1' }).waitFor();
    await expectAccessible(page);

    // The last 7 days leave the demo claim out (it is in the week before, which the tile says in words).
    await page.getByLabel('Period').selectOption('7');
    await expect.poll(() => kpi(page, 'Claims filed').textContent()).toBe('1');
    expect(page.url()).toContain('range=7');
    expect(await change(page, 'Claims filed').textContent()).toBe('was 1 the period before');
    // The week before had no answered claim: the first response tile has nothing to compare with.
    expect(await change(page, 'First response, median').count()).toBe(0);

    // A custom range without claims: the empty state.
    await page.getByLabel('Period').selectOption('custom');
    await page.getByLabel('From', { exact: true }).fill('2020-01-01');
    await page.getByLabel('To', { exact: true }).fill('2020-01-31');
    await page.getByRole('button', { name: 'Apply range' }).click();
    await page.getByRole('heading', { name: 'No claims in this period' }).waitFor();
    await expectAccessible(page);

    // A backwards range is refused in words, and nothing is asked of the server.
    await page.getByLabel('From', { exact: true }).fill('2020-02-10');
    await page.getByRole('button', { name: 'Apply range' }).click();
    await page.getByRole('alert').filter({ hasText: 'The first day must be on or before the last day.' }).waitFor();

    // Back to 30 days, and the CSV of those figures.
    await page.getByLabel('Period').selectOption('30');
    await expect.poll(() => kpi(page, 'Claims filed').textContent()).toBe('2');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^claims-analytics-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8').split('\r\n');
    expect(csv[0]).toBe('period,from,to,section,figure,currency,value');
    expect(csv.find((line) => line.startsWith('current,') && line.endsWith(',claims,filed,,2'))).toBeDefined();
    expect(
      csv.find((line) => line.startsWith('current,') && line.endsWith(',denial reasons,PACKAGE_ARRIVED,,1')),
    ).toBeDefined();

    expect(problems).toEqual([]);
  });
});
