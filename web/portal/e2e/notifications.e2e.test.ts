import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAIM_LINK_RECOVERY_ANSWER } from '@claims/contracts';
import { expectAccessible, lookUp, fileHarness, heading } from './harness.js';

// A server of its own: the links mailed here come from its own mail folder (no SMTP_URL: .eml files).
const h = fileHarness();

/** The mail the server wrote to its DATA_DIR/mail folder, by subject. */
function mailed(subject: string): string[] {
  const folder = path.join(h.runtime.ctx.config.dataDir, 'mail');
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder)
    .map((f) => fs.readFileSync(path.join(folder, f), 'utf8'))
    .filter((m) => m.includes(`Subject: ${subject}`));
}

describe('claim links by mail, tracking links, the 404 page and the locale cookie', () => {
  it('sends a shopper their claim links by mail, never on screen, with the same answer when nothing matches', async () => {
    const { page, context, problems } = await h.newPage();
    await page.goto('/start');
    await page.getByRole('link', { name: 'Get your claim links by email' }).click();
    await page.waitForURL('**/claim-links');
    await expect.poll(() => heading(page).textContent()).toBe('Get your claim links');
    await expectAccessible(page);

    // Both fields are needed, and said so next to each.
    await page.getByRole('button', { name: 'Email my claim links' }).click();
    await page.getByText('Enter your order number.').waitFor();
    await page.getByText('Enter your email address.').waitFor();
    await expectAccessible(page);

    // Order 1007 has a claim (from the demo data): its link goes to gia@example.com, not to the page.
    await page.getByLabel('Order number').fill('1007');
    await page.getByLabel('Email address').fill('gia@example.com');
    await page.getByRole('button', { name: 'Email my claim links' }).click();
    await page.getByRole('status').getByText(CLAIM_LINK_RECOVERY_ANSWER).waitFor();
    expect(await page.content()).not.toContain('/view/');
    await expectAccessible(page);

    await page.getByLabel('Email address').fill('someone-else@example.com');
    await page.getByRole('button', { name: 'Email my claim links' }).click();
    await page.getByRole('status').getByText(CLAIM_LINK_RECOVERY_ANSWER).waitFor();

    // The mailed link opens the claim in the portal.
    await h.runtime.settle();
    await expect.poll(() => mailed('Your claim links for order 1007').length, { timeout: 20_000 }).toBe(1);
    const mails = mailed('Your claim links for order 1007');
    expect(mails[0]).toContain('To: gia@example.com');
    const link = /\/view\/[A-Za-z0-9_-]{43}/.exec(mails[0]!.replace(/=\r?\n/g, ''))?.[0];
    expect(link).toBeDefined();
    await page.goto(link!);
    await expect.poll(() => heading(page).textContent()).toMatch(/^My Claim #\d+$/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('links each tracking number to its carrier, or to the URL the store gave', async () => {
    const { page, context, problems } = await h.newPage();
    await lookUp(page, '1002', 'ben@example.com');
    await page.waitForURL('**/issues');
    await page.getByRole('button', { name: /Haven't received my order/ }).click();
    await page.waitForURL('**/issues/shipment');
    const usps = page.getByRole('link', { name: /^9400111899223197428490/ });
    expect(await usps.getAttribute('href')).toBe(
      'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223197428490',
    );
    expect(await usps.getAttribute('target')).toBe('_blank');
    const fedex = page.getByRole('link', { name: /^612999AA10NEW/ });
    expect(await fedex.getAttribute('href')).toBe('https://www.fedex.com/fedextrack/?trknbr=612999AA10NEW');
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("says 'Page not found' for a path no route matches, and keeps the locale for 365 days", async () => {
    const { page, context } = await h.newPage();
    await page.goto('/no-such-page');
    await page.getByText('Page Not Found: /no-such-page').waitFor();
    await page.getByText('Page not found', { exact: true }).waitFor();
    await expect.poll(() => heading(page).textContent()).toBe('Page Not Found');
    await expectAccessible(page);
    // A link that fails the token rule is a 404 too, saying why instead.
    await page.goto('/view/bad');
    await page.getByText('Page Not Found: /view/bad').waitFor();
    expect(await page.getByText('Page not found', { exact: true }).count()).toBe(0);

    const [cookie] = (await context.cookies()).filter((c) => c.name === 'locale');
    expect(cookie?.value).toBe('en-US');
    const days = (cookie!.expires - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(364.9);
    expect(days).toBeLessThanOrEqual(365);
    await context.close();
  });
});
