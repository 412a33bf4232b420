import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CustomerClaimView, RuleCreatedResponse, type RuleInput } from '@claims/contracts';
import { startMailCatcher, type MailCatcher } from '../../../services/api/src/ops/mailCatcher.js';
import {
  apiSession,
  expectAccessible,
  heading,
  shopperAtResolution,
  signIn,
  startHarness,
  type Harness,
} from './harness.js';
import { chooseResolution, submitReview } from '../../portal/e2e/harness.js';

let h: Harness;
let smtp: MailCatcher;

/** Where the pages are photographed for a person to look at, when E2E_SCREENSHOTS names a folder. */
async function photograph(page: Page, name: string): Promise<void> {
  const folder = process.env['E2E_SCREENSHOTS'];
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: path.join(folder, `${name}.png`), fullPage: true });
}

const approveDamaged: RuleInput = {
  name: 'Approve damaged claims',
  mode: 'live',
  conditions: [{ field: 'claimType', op: 'eq', value: 'DAMAGED' }],
  action: { type: 'approve' },
};
const shadowHold: RuleInput = {
  name: 'Hold every claim for review',
  mode: 'shadow',
  conditions: [],
  action: { type: 'hold' },
};

beforeAll(async () => {
  smtp = await startMailCatcher({ smtpPort: 0, viewerPort: 0 });
  h = await startHarness({ env: { SMTP_URL: smtp.smtpUrl } });
  const acme = ((await (await fetch(`${h.baseUrl}/api/whitelabel/settings?store=acme`)).json()) as { storeId: string })
    .storeId;
  const owner = await apiSession(h.baseUrl, 'owner@acme.test');
  // The shadow rule first: it records what it would do and the live one after it still acts.
  for (const rule of [shadowHold, approveDamaged]) {
    const created = await owner.post(`/api/stores/${acme}/rules`, rule);
    expect(created.status).toBe(201);
    RuleCreatedResponse.parse(await created.json());
  }
});

afterAll(async () => {
  await h?.stop();
  await smtp?.stop();
});

describe('a claim a live rule approves at filing', () => {
  it('tells the shopper "approved" on the received page and by mail; the desk shows the rule as the decider, the risk and the shadow rule', async () => {
    // The shopper files a damaged item of order 1001 and asks for store credit.
    // The portal asks for a draft of this order first: none yet, a 404 it expects.
    const shopper = await h.newPage([{ status: 404, path: '/api/sessions' }]);
    await shopperAtResolution(shopper.page, '1001', 'ava@example.com');
    await chooseResolution(shopper.page, /I want store credit/);
    await submitReview(shopper.page, 'Ava Stone');
    // No reload: the page asks again for a moment after filing, and the rule's decision shows.
    await expect.poll(() => heading(shopper.page).textContent(), { timeout: 10_000 }).toBe('Your claim is approved');
    await shopper.page
      .getByRole('status')
      .filter({ hasText: 'Acme Outfitters approved your claim right away.' })
      .waitFor();
    await expectAccessible(shopper.page);
    await photograph(shopper.page, 'portal-claim-received-approved');
    const subtitle = await shopper.page.getByText(/^Claim #\d+$/).textContent();
    const claimNumber = subtitle!.replace('Claim #', '');
    await shopper.page.getByRole('link', { name: 'View my claim' }).click();
    await shopper.page.waitForURL('**/view/**');
    const token = decodeURIComponent(new URL(shopper.page.url()).pathname.split('/')[2]!);
    const view = CustomerClaimView.parse(await (await fetch(`${h.baseUrl}/api/claims/${token}`)).json());
    expect(view.outcome).toBe('APPROVED');
    expect(shopper.problems).toEqual([]);

    // Mail: the filing's, then one decision that says "approved" (no second, no contradiction).
    await h.runtime.settle();
    const toAva = () =>
      smtp
        .messages()
        .filter((m) => m.to.includes('ava@example.com') && m.subject.includes(`#${claimNumber}`))
        .map((m) => m.subject)
        // The catcher keeps the newest first.
        .reverse();
    await expect
      .poll(toAva, { timeout: 20_000 })
      .toEqual([`We received your claim #${claimNumber}`, `Your claim #${claimNumber} has a decision: approved`]);

    // The desk: the queue's risk column and filter.
    const { page, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: `#${claimNumber}` }) });
    await row.getByText('Low risk').waitFor();
    expect(await row.getByText(/score \d+ of 100/).count()).toBe(1);
    const filters = page.getByRole('search', { name: 'Filter claims' });
    await filters.getByLabel('Risk').selectOption('high');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL('**/admin/?risk=high');
    await page.getByRole('status').filter({ hasText: 'matching the filters' }).waitFor();
    expect(await row.count()).toBe(0);
    await filters.getByLabel('Risk').selectOption('low');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL('**/admin/?risk=low');
    await row.getByText('Low risk').waitFor();
    await expectAccessible(page);
    await photograph(page, 'desk-queue-risk-low');

    // The claim: its risk block, the rules' activity (the shadow rule's "would have"), the rule as the decider.
    await row.getByRole('link', { name: `#${claimNumber}` }).click();
    await page.getByRole('heading', { level: 1, name: `Claim #${claimNumber}` }).waitFor();
    const risk = page.getByRole('region', { name: 'Risk' });
    await risk.getByText('Low risk').waitFor();
    await risk.getByText(/^\d+ of 100$/).waitFor();
    expect(await risk.getByRole('list', { name: 'Reasons' }).getByRole('listitem').count()).toBeGreaterThan(0);
    const rules = page.getByRole('region', { name: 'Rules' });
    await rules
      .getByText(
        `Shadow rule “${shadowHold.name}” (version 1) would have held this claim for review. It only records: nothing was changed.`,
      )
      .waitFor();
    await rules
      .getByText(new RegExp(`^Rule “${approveDamaged.name}” \\(version 1\\) approved this claim for `))
      .waitFor();
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await timeline.getByText(`Rule ${approveDamaged.name} (version 1)`, { exact: false }).first().waitFor();
    await expectAccessible(page);
    await photograph(page, 'desk-claim-risk-and-rules');
    expect(problems).toEqual([]);
  });
});
