import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiSession, expectAccessible, signIn, startHarness, type Harness } from './harness.js';

/** The month this run's events fall in, and the server's clock an hour into the next one, when it is over and can be invoiced. */
const started = new Date();
const MONTH = started.toISOString().slice(0, 7);
const NEXT_MONTH_START = Date.UTC(started.getUTCFullYear(), started.getUTCMonth() + 1, 1);
const clockOffset = NEXT_MONTH_START + 3_600_000 - started.getTime();
const NUMBER = `ACME-${MONTH}`;

let h: Harness;

const status = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text });

beforeAll(async () => {
  h = await startHarness({ now: () => new Date(Date.now() + clockOffset).toISOString() });
  await h.runtime.settle();
  // Acme's month issued from the demo data: premiums 18.86, its 15% share -2.83, the demo's refunded claim.
  const finance = await apiSession(h.baseUrl, 'finance@orderprotection.test');
  const acme = finance.me.stores.find((s) => s.name === 'Acme Outfitters')!;
  const issued = await finance.post('/api/finance/invoices', { storeId: acme.id, month: MONTH });
  expect(issued.status, await issued.clone().text()).toBe(201);
  await h.runtime.settle();
});

afterAll(async () => {
  await h?.stop();
});

describe('the finance replay of invoices', () => {
  it("replays a period to exactly the issued invoice, and under a candidate revenue share shows the changed lines down to the invoice's event", async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'finance@orderprotection.test');
    await page.goto('/admin/finance/replay');
    await page.getByRole('heading', { level: 1, name: 'Finance replay' }).waitFor();

    await page.getByLabel('Decided from').fill(`${MONTH}-01`);
    await page.getByRole('checkbox', { name: 'Acme Outfitters' }).check();
    await page.getByRole('button', { name: 'Start replay' }).click();
    await status(page, 'The replay is done.').waitFor();
    await status(page, 'Replay equals the live ledger.').waitFor();
    await status(page, 'Replayed invoices equal the issued ones.').waitFor();
    const totals = page
      .getByRole('table', { name: 'Issued and replayed invoice totals per store and currency' })
      .getByRole('row', { name: /^Acme Outfitters/ });
    const [currency, issued, replayed, difference] = await totals.getByRole('cell').allTextContents();
    expect([currency, replayed, difference]).toEqual(['USD', issued, '$0.00']);
    expect(await page.getByRole('table', { name: /^Invoice lines that differ/ }).count()).toBe(0);
    await expectAccessible(page);

    // Acme's invoice recorded its 15% share of 18.86 (2.83); at 25% it is 4.715, half to even 4.72: 1.89 more owed to Acme.
    await page.getByLabel(/revenue share of premiums/).fill('25');
    await page.getByRole('button', { name: 'Start replay' }).click();
    await status(page, '2 invoice lines of the replay differ from the issued invoices.').waitFor();
    await status(page, 'Replay equals the live ledger.').waitFor();
    const lines = page.getByRole('table', { name: 'Invoice lines that differ, by the events behind them' });
    const share = lines.getByRole('row', { name: new RegExp(`^${NUMBER} Revenue share`) });
    expect(await share.getByRole('cell').allTextContents()).toEqual([
      'Revenue share',
      '-$2.83',
      '-$4.72',
      '-$1.89',
      "The invoice's recorded share: -$1.89",
    ]);
    const total = lines.getByRole('row', { name: new RegExp(`^${NUMBER} Total`) });
    expect((await total.getByRole('cell').allTextContents()).slice(3)).toEqual([
      '-$1.89',
      "The invoice's recorded share: -$1.89",
    ]);
    const [, issuedAgain, replayedNow, change] = await totals.getByRole('cell').allTextContents();
    expect([issuedAgain, change]).toEqual([issued, '-$1.89']);
    expect(replayedNow).not.toBe(issued);
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });
});
