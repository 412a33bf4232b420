import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { RuleList } from '@claims/contracts';
import {
  apiSession,
  eventually,
  expectAccessible,
  fileDemoClaim,
  itemIssue,
  heading,
  signIn,
  fileHarness,
} from './harness.js';

const h = fileHarness();

/** Screenshots of the page, for a person to look at (git ignores the folder). */
const SHOTS = path.resolve(import.meta.dirname, '../../../test-results/e2e');

async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const ruleHeadings = (page: Page) =>
  page
    .getByRole('region', { name: 'Rules, in the order they are tried' })
    .getByRole('heading', { level: 3 })
    .allTextContents();

const DENY = 'Deny small damage from new shoppers';
const HOLD = 'Hold high-risk claims';

describe('rules page', () => {
  it('builds a rule with its preview, backtests it over the store’s history, saves, reorders by drag and by keyboard, switches its mode and pauses every rule', async () => {
    const { page, context, problems } = await h.newPage();
    await signIn(page, 'owner@acme.test');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Rules' }).click();
    await page.waitForURL('**/admin/rules');
    await eventually(() => heading(page).textContent()).toBe('Rules of Acme Outfitters');
    await page.getByText('No rules yet.').waitFor();
    await page.getByText('Rules are on.').waitFor();
    await expectAccessible(page);

    // The builder: three conditions, and the sentence follows every change.
    await page.getByRole('button', { name: 'New rule' }).click();
    const builder = page.getByRole('region', { name: 'New rule' });
    const preview = builder.getByRole('region', { name: 'Preview' }).locator('p');
    await builder.getByLabel('Rule name').fill(DENY);
    const first = builder.getByRole('group', { name: 'Condition 1' });
    await first.getByLabel('Value').selectOption('DAMAGED');
    await eventually(() => preview.textContent()).toBe('Approve damaged claims.');
    await builder.getByRole('button', { name: 'Add condition' }).click();
    await builder.getByRole('group', { name: 'Condition 2' }).getByLabel('Value (USD)').fill('50');
    await builder.getByRole('button', { name: 'Add condition' }).click();
    const third = builder.getByRole('group', { name: 'Condition 3' });
    await third.getByLabel('Field').selectOption('shopperClaims90d');
    await third.getByLabel('Comparison').selectOption('eq');
    await third.getByLabel('Value').fill('0');
    await eventually(() => preview.textContent()).toBe(
      'Approve damaged claims worth up to $50.00 from shoppers with no claim in 90 days.',
    );

    // A denial needs a reason: said next to the field, before anything is sent.
    await builder.getByRole('radio', { name: 'Deny' }).check();
    await builder.getByRole('button', { name: 'Run backtest' }).click();
    const reason = builder.getByLabel('Reason for the denial');
    await builder.getByText('A denial needs a reason.').waitFor();
    expect(await reason.getAttribute('aria-invalid')).toBe('true');
    expect(await reason.getAttribute('aria-describedby')).toBeTruthy();
    await reason.selectOption('OTHER');
    await eventually(() => preview.textContent()).toBe(
      'Deny damaged claims worth up to $50.00 from shoppers with no claim in 90 days (reason: Other).',
    );

    // The backtest over the seeded history: the $24 damaged claim refunded ten days ago is one it would have denied.
    await builder.getByRole('button', { name: 'Run backtest' }).click();
    const result = builder.getByRole('region', { name: 'Backtest result' });
    await result.waitFor();
    const figure = (term: string) => result.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd');
    expect(Number(await figure('Claims matched').textContent())).toBeGreaterThanOrEqual(1);
    expect(await figure('Money paid out').textContent()).toBe('$0.00');
    const disagreements = result.getByRole('table', { name: 'Claims where the rule disagrees with the decision made' });
    const row = disagreements.getByRole('row').filter({ hasText: 'Approved' }).first();
    await row.waitFor();
    expect(await row.getByRole('cell').last().textContent()).toBe('Denied');
    const link = row.getByRole('link');
    expect(await link.getAttribute('href')).toMatch(/^\/admin\/claims\/view\/[0-9a-f-]{36}$/);
    await result.getByRole('figure', { name: 'Claims by week' }).waitFor();
    await expectAccessible(page);
    await screenshots(page, 'rules-builder');

    await builder.getByRole('button', { name: 'Save rule' }).click();
    await page.getByRole('status').getByText(`“${DENY}” saved as version 1.`).waitFor();
    await eventually(() => ruleHeadings(page)).toEqual([`1. ${DENY}`]);

    // A second rule, then the second moved first from the keyboard, announced, and kept.
    await page.getByRole('button', { name: 'New rule' }).click();
    const second = page.getByRole('region', { name: 'New rule' });
    await second.getByLabel('Rule name').fill(HOLD);
    const risk = second.getByRole('group', { name: 'Condition 1' });
    await risk.getByLabel('Field').selectOption('riskLevel');
    await risk.getByLabel('Value').selectOption('high');
    await second.getByRole('radio', { name: 'Hold for review' }).check();
    await eventually(() => second.getByRole('region', { name: 'Preview' }).locator('p').textContent()).toBe(
      'Hold every claim with high risk for review, labelled “Held by rule”.',
    );
    await second.getByRole('button', { name: 'Save rule' }).click();
    await page.getByRole('status').getByText(`“${HOLD}” saved as version 1.`).waitFor();
    await eventually(() => ruleHeadings(page)).toEqual([`1. ${DENY}`, `2. ${HOLD}`]);

    // Dragged onto the first, the second rule goes first.
    const rowOf = (name: string) =>
      page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: new RegExp(`^\\d\\. ${name}$`) }) });
    await rowOf(HOLD).dragTo(rowOf(DENY));
    await page.getByRole('status').getByText(`“${HOLD}” moved to position 1 of 2.`).waitFor();
    await eventually(() => ruleHeadings(page)).toEqual([`1. ${HOLD}`, `2. ${DENY}`]);
    // From the keyboard: down, then up again; the handle keeps the focus, so each arrow key moves the same rule.
    const handle = page.getByRole('button', { name: new RegExp(`^Reorder “${HOLD}”`) });
    await handle.focus();
    await page.keyboard.press('ArrowDown');
    await page.getByRole('status').getByText(`“${HOLD}” moved to position 2 of 2.`).waitFor();
    await eventually(() => ruleHeadings(page)).toEqual([`1. ${DENY}`, `2. ${HOLD}`]);
    expect(await handle.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowUp');
    await page.getByRole('status').getByText(`“${HOLD}” moved to position 1 of 2.`).waitFor();
    await eventually(() => ruleHeadings(page)).toEqual([`1. ${HOLD}`, `2. ${DENY}`]);
    const owner = await apiSession(h.baseUrl, 'owner@acme.test');
    const storeId = owner.me.stores.find((s) => s.name === 'Acme Outfitters')!.id;
    await eventually(async () =>
      RuleList.parse(await (await owner.get(`/api/stores/${storeId}/rules`)).json()).rules.map((r) => r.name),
    ).toEqual([HOLD, DENY]);

    // Live: the next version; a claim filed now is denied by it, and the rule's history says so.
    await page.getByLabel(`Mode of “${DENY}”`).selectOption('live');
    await page.getByRole('status').getByText(`“${DENY}” is now live (version 2).`).waitFor();
    const denyRow = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: `2. ${DENY}` }) });
    await denyRow.getByText('Version 2').waitFor();
    const filed = await fileDemoClaim(h.baseUrl, 'acme-5001', 'REFUND', itemIssue('li-3', 'DAMAGED', 1, 'Chipped.'));
    await eventually(async () => {
      await page.reload();
      await denyRow.getByRole('button', { name: `History of “${DENY}”` }).click();
      return denyRow
        .getByRole('region', { name: `What “${DENY}” did` })
        .textContent()
        .catch(() => '');
    }).toContain(filed.claimNumber);
    const did = denyRow.getByRole('region', { name: `What “${DENY}” did` });
    expect(await did.getByRole('row').filter({ hasText: filed.claimNumber }).textContent()).toContain('Denied');
    const versions = denyRow.getByRole('region', { name: `Versions of “${DENY}”` });
    await versions.getByRole('row').nth(2).waitFor();
    expect(await versions.getByRole('row').nth(1).getByRole('cell').nth(2).textContent()).toBe('Live');
    expect(await versions.getByRole('row').nth(2).getByRole('cell').nth(2).textContent()).toBe('Shadow');
    expect(await versions.getByRole('row').nth(1).getByRole('cell').nth(1).textContent()).toBe('Alex Owner');
    await expectAccessible(page);
    await screenshots(page, 'rules-list');

    // Edited: the builder starts from the rule, and saving makes its next version.
    await page.getByRole('button', { name: `Edit “${HOLD}”` }).click();
    const editor = page.getByRole('region', { name: `Edit “${HOLD}”` });
    expect(await editor.getByLabel('Rule name').inputValue()).toBe(HOLD);
    await editor.getByLabel('Claims a day').fill('20');
    await eventually(() => editor.getByRole('region', { name: 'Preview' }).locator('p').textContent()).toBe(
      'Hold every claim with high risk for review, labelled “Held by rule”, at most 20 claims a day.',
    );
    await editor.getByRole('button', { name: 'Save as version 2' }).click();
    await page.getByRole('status').getByText(`“${HOLD}” saved as version 2.`).waitFor();

    // The kill switch, after a confirmation; then on again.
    await page.getByRole('button', { name: 'Pause all rules' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pause every rule of this store?' });
    await dialog.getByRole('button', { name: 'Pause all rules' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('All rules are paused.').waitFor();
    await page.getByRole('status').getByText('Every rule is paused.').waitFor();
    expect(RuleList.parse(await (await owner.get(`/api/stores/${storeId}/rules`)).json()).paused).toBe(true);
    await expectAccessible(page);
    await screenshots(page, 'rules-paused');
    await page.getByRole('button', { name: 'Resume rules' }).click();
    await page.getByText('Rules are on.').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  }, 240_000);

  it('shows store support the rules and what they did, read-only', async () => {
    const { page, context, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Rules' }).click();
    await eventually(() => heading(page).textContent()).toBe('Rules of Acme Outfitters');
    await page.getByText('You can see these rules and what they did; owners and admins change them.').waitFor();
    await eventually(() => ruleHeadings(page)).toEqual([`1. ${HOLD}`, `2. ${DENY}`]);
    for (const control of [
      page.getByRole('button', { name: 'New rule' }),
      page.getByRole('button', { name: /^Reorder/ }),
      page.getByRole('button', { name: /^Move (up|down)/ }),
      page.getByRole('button', { name: /^Edit/ }),
      page.getByRole('button', { name: 'Pause all rules' }),
      page.getByRole('combobox'),
    ])
      expect(await control.count()).toBe(0);
    await page.getByRole('button', { name: `History of “${DENY}”` }).click();
    await page.getByRole('region', { name: `Versions of “${DENY}”` }).waitFor();
    await expectAccessible(page);
    await screenshots(page, 'rules-support');
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
