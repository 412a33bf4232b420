import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible, fileClaim, signIn, solidPng, startHarness, uploadPhoto, type Harness } from './harness.js';

let h: Harness;

/** Waits for the page whose main heading is `name` (a screen may take a while on a busy machine). */
const title = (page: Page, name: string | RegExp) =>
  page.getByRole('heading', { level: 1, name, exact: typeof name === 'string' }).waitFor();
let claim: { claimId: string; token: string; claimNumber: string };
const ORDER = { orderNumber: '1008', email: 'hugo@example.com' };

beforeAll(async () => {
  h = await startHarness();
  claim = await fileClaim(h.baseUrl, 'acme-5008', {
    email: ORDER.email,
    fulfillmentIssues: [
      {
        sourceFulfillmentId: 'f-1008-1',
        issues: [{ sourceItemId: 'li-12', claimType: 'DAMAGED', quantity: 1, details: 'Cracked.', images: [] }],
      },
    ],
    resolution: { desiredMethod: 'REFUND', customerSignature: 'Hugo', updatedShippingAddress: null },
  });
  // The shopper writes with a photo, and reviews the claim.
  const photo = await uploadPhoto(h.baseUrl, ORDER, 'box.png', solidPng(40, 30, [200, 40, 40]));
  const key = new URL(photo, h.baseUrl).pathname.split('/').pop()!;
  const sent = await fetch(`${h.baseUrl}/api/claims/${claim.token}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      messageContent: 'Here is the box.',
      medias: [{ downloadLink: photo, fileKey: key, fileType: 'image/png', filename: 'box.png' }],
    }),
  });
  expect(sent.status).toBe(201);
  const reviewed = await fetch(`${h.baseUrl}/api/claims/${claim.token}/reviews`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rating: 2, text: 'Slow answers.' }),
  });
  expect(reviewed.status).toBe(201);
});

afterAll(async () => {
  await h?.stop();
});

describe('message attachments both ways', () => {
  it("shows the shopper's photo as a thumbnail that opens in the lightbox, sends the agent's file, and the shopper sees it", async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    await page.goto(`/admin/claims/view/${claim.claimId}`);
    await title(page, `Claim #${claim.claimNumber}`);
    const thumbnail = page.getByRole('button', { name: /^Attachment 1 from .*: box\.png$/ });
    await thumbnail.focus();
    await page.keyboard.press('Enter');
    const lightbox = page.getByRole('dialog', { name: /Attachments from/ });
    await lightbox.waitFor();
    await expect
      .poll(
        () =>
          lightbox
            .getByRole('img', { name: 'Attachment 1: box.png' })
            .evaluate((img: HTMLImageElement) => img.naturalWidth),
        { timeout: 15_000 },
      )
      .toBe(40);
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await lightbox.waitFor({ state: 'hidden' });

    await page.getByLabel('Message to the customer').fill('Here is your return label.');
    await page
      .getByLabel('Attach photos or videos')
      .setInputFiles({ name: 'label.png', mimeType: 'image/png', buffer: solidPng(20, 20, [0, 90, 200]) });
    await page.getByRole('list', { name: 'Files to send' }).getByText('label.png').waitFor();
    // A type the server refuses is said at once and not sent.
    await page
      .getByLabel('Attach photos or videos')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await page.getByText(/notes\.txt can't be attached/).waitFor();
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('Message sent.').waitFor();
    await page.getByRole('button', { name: /^Attachment 1 from .*: label\.png$/ }).waitFor();
    await expectAccessible(page);
    expect(problems).toEqual([]);

    const shopper = await h.newPage();
    await shopper.page.goto(`/view/${claim.token}`);
    const img = shopper.page.getByRole('img', { name: 'label.png' });
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth), { timeout: 15_000 }).toBe(20);
    await expectAccessible(shopper.page);
    expect(shopper.problems).toEqual([]);
  });
});

describe('reviews on the desk', () => {
  it("shows the shopper's review on the claim and in the reviews list, filtered by rating", async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    await page.goto(`/admin/claims/view/${claim.claimId}`);
    const section = page.getByRole('region', { name: 'Customer review' });
    await section.getByRole('img', { name: '2 of 5 stars' }).waitFor();
    await section.getByText('Slow answers.').waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reviews' }).click();
    await title(page, 'Reviews');
    const table = page.getByRole('table', { name: 'Reviews' });
    await table.getByRole('row', { name: new RegExp(`#${claim.claimNumber}.*Slow answers\\.`) }).waitFor();
    await expectAccessible(page);
    await page.getByLabel('Rating').selectOption('5');
    await page.getByText('No reviews match.').waitFor();
    await page.getByLabel('Rating').selectOption('2');
    await table.getByRole('link', { name: `#${claim.claimNumber}` }).click();
    await title(page, `Claim #${claim.claimNumber}`);
    expect(problems).toEqual([]);
  });
});
