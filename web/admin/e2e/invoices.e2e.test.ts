import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible, heading, signIn, startHarness, type Harness } from './harness.js';

/** The month this run's events fall in, and the server's clock an hour into the next one, when it is over and can be invoiced. */
const started = new Date();
const MONTH = started.toISOString().slice(0, 7);
const NEXT_MONTH_START = Date.UTC(started.getUTCFullYear(), started.getUTCMonth() + 1, 1);
const clockOffset = NEXT_MONTH_START + 3_600_000 - started.getTime();
const MONTH_NAME = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
  started,
);
const NUMBER = `ACME-${MONTH}`;

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ now: () => new Date(Date.now() + clockOffset).toISOString() });
  await h.runtime.settle();
});

afterAll(async () => {
  await h?.stop();
});

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

describe('back-office invoices and payment methods', () => {
  it("lets finance draft a store's month, issue it, correct it with a credit note, download it and print it", async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'finance@orderprotection.test');
    await mainNav(page).getByRole('link', { name: 'Invoices' }).click();
    await page.getByLabel('Store').selectOption({ label: 'Acme Outfitters' });
    await expect.poll(() => heading(page).textContent()).toBe('Invoices of Acme Outfitters');
    await page.getByLabel('Month').fill(MONTH);

    // The draft from the ledger: the demo's premiums, Acme's 15% share, the demo's refunded claim.
    const draft = page.getByRole('table', { name: `Draft lines for ${MONTH_NAME}` });
    await draft.getByRole('row', { name: /^Premiums collected \(8 orders\) \$18\.86$/ }).waitFor();
    await draft.getByRole('row', { name: /^Revenue share \(15% of premiums\) -\$2\.83$/ }).waitFor();
    await draft.getByRole('row', { name: /^Claims reimbursed \(1 claim\) -\$[\d.,]+$/ }).waitFor();
    await page.getByText('No invoice issued yet.').waitFor();
    await expectAccessible(page);

    await page.getByRole('button', { name: `Issue invoice for ${MONTH_NAME}` }).click();
    const confirm = page.getByRole('dialog', { name: `Issue the invoice for ${MONTH_NAME}?` });
    await confirm.getByText('An issued invoice never changes').waitFor();
    await confirm.getByRole('button', { name: 'Issue invoice' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Invoice ${NUMBER} issued.` })
      .waitFor();
    await page.getByText(`${MONTH_NAME} is invoiced already`).waitFor();
    const row = page.getByRole('row', { name: new RegExp(`^${NUMBER} `) });
    await expect.poll(() => row.getByRole('cell').nth(4).textContent()).toBe('0');

    // The CSV of the invoice.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('link', { name: `Download CSV of ${NUMBER}` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`invoice-${NUMBER}.csv`);
    const csv = readFileSync((await download.path())!, 'utf8').split('\r\n');
    expect(csv[0]).toBe('document,number,store,month,issued_at,line,description,quantity,amount,currency');
    expect(csv[1]).toMatch(
      new RegExp(
        `^invoice,${NUMBER},Acme Outfitters,${MONTH},[^,]+,premiums,Premiums collected \\(8 orders\\),8,18\\.86,USD$`,
      ),
    );

    // A credit note: more than the line is refused in words before anything is sent, then a dollar taken back.
    await row.getByRole('button', { name: `Credit note for ${NUMBER}` }).click();
    const dialog = page.getByRole('dialog', { name: `Credit note for ${NUMBER}` });
    await dialog.getByLabel('Premiums collected to take back (USD)').fill('100');
    await dialog.getByLabel('Reason').fill('Order 1002 was cancelled before it shipped');
    await dialog.getByRole('button', { name: 'Issue credit note' }).click();
    await dialog.getByText('At most $18.86: a credit note never exceeds its invoice.').waitFor();
    await expectAccessible(page);
    await dialog.getByLabel('Premiums collected to take back (USD)').fill('1');
    await dialog.getByRole('button', { name: 'Issue credit note' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Credit note ${NUMBER}-CN1 issued on ${NUMBER}: -$1.00.` })
      .waitFor();
    await expect.poll(() => row.getByRole('cell').nth(4).textContent()).toBe('1');

    // The printable invoice: the sheet alone when printed.
    await row.getByRole('link', { name: NUMBER, exact: true }).click();
    await expect.poll(() => heading(page).textContent()).toBe(`Invoice ${NUMBER}`);
    await page
      .getByRole('table', { name: 'Invoice lines (positive: owed by the store)' })
      .getByRole('row', { name: /^Total / })
      .waitFor();
    await page.getByRole('heading', { level: 3, name: new RegExp(`^${NUMBER}-CN1, issued `) }).waitFor();
    await page.getByText('Reason: Order 1002 was cancelled before it shipped').waitFor();
    await page.getByRole('heading', { level: 2, name: 'Balance after credit notes' }).waitFor();
    await expectAccessible(page);
    const print = page.getByRole('button', { name: 'Print' });
    await page.emulateMedia({ media: 'print' });
    expect([
      await page.locator('.site-header').isVisible(),
      await print.isVisible(),
      await heading(page).isVisible(),
    ]).toEqual([false, false, true]);
    await page.emulateMedia({ media: 'screen' });
    expect(await print.isVisible()).toBe(true);

    expect(problems).toEqual([]);
  });

  it("lets finance set a store's payout method by its last four digits only, and read its billing method", async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'finance@orderprotection.test');
    await mainNav(page).getByRole('link', { name: 'Payment methods' }).click();
    await page.getByLabel('Store').selectOption({ label: 'Acme Outfitters' });
    await expect.poll(() => heading(page).textContent()).toBe('Payment methods of Acme Outfitters');
    // Finance reads the billing method (the store sets it) and sets the payout method.
    const billing = page.getByRole('region', { name: 'Billing method' });
    await billing.getByText('None set yet.').waitFor();
    expect(await billing.getByRole('form').count()).toBe(0);
    const form = page.getByRole('form', { name: 'Set the payout method' });
    await form.getByLabel('Kind of method').selectOption({ label: 'Bank account' });
    await form.getByLabel('Bank').fill('First Bank');
    await form.getByLabel('Last four digits').fill('000123456789');
    await form.getByRole('button', { name: 'Save payout method' }).click();
    await form.getByText('Enter only the last four digits, never the full card or account number.').waitFor();
    await expectAccessible(page);
    await form.getByLabel('Last four digits').fill('6789');
    await form.getByRole('button', { name: 'Save payout method' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Payout method saved: First Bank account ending in 6789.' })
      .waitFor();
    await page.getByRole('region', { name: 'Payout method' }).getByText('First Bank account ending in 6789').waitFor();
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });
});
