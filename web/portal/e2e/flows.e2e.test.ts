import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CustomerClaimView } from '@claims/contracts';
import {
  addItemIssue,
  chooseResolution,
  confirmAddress,
  describeFirstItem,
  expectAccessible,
  fileHarness,
  heading,
  lookUp,
  submitReview,
} from './harness.js';

// A server of its own (fresh demo data): these flows file claims on orders portal.e2e.test.ts also uses.
const h = fileHarness();

const expectHeading = (page: Page, text: string) => expect.poll(() => heading(page).textContent()).toBe(text);

async function claimOf(token: string) {
  return CustomerClaimView.parse(await (await fetch(`${h.baseUrl}/api/claims/${token}`)).json());
}

/** Submits the review with a typed signature (and the store's acknowledgment, if given, shown); answers the new claim's token. */
async function confirmAndSubmit(page: Page, name: string, acknowledgment?: string): Promise<string> {
  await submitReview(page, name);
  if (acknowledgment) await page.getByText(acknowledgment).waitFor();
  await expectAccessible(page);
  await page.getByRole('link', { name: 'View my claim' }).click();
  await page.waitForURL('**/view/**');
  return decodeURIComponent(new URL(page.url()).pathname.split('/')[2]!);
}

let flaskToken = '';

describe('portal flows', () => {
  it("files a not-received claim on one of the two shipments of order 1002, and reads the store's acknowledgment, contact and policies", async () => {
    // The owner turns the claim acknowledgment on and sets the store's contact and policies: the shopper reads them in the portal.
    const origin = h.baseUrl;
    const login = await fetch(`${origin}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ email: 'owner@acme.test', password: 'demo-pass-1234' }),
    });
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const acme = ((await (await fetch(`${origin}/api/stores/acme`)).json()) as { id: string }).id;
    const acknowledgment = 'Thanks! Our team answers every claim within one working day.';
    const saved = await fetch(`${origin}/api/admin/stores/${acme}/settings/claim-acknowledgment`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', origin, cookie },
      body: JSON.stringify({ value: { enabled: true, message: acknowledgment } }),
    });
    expect(saved.status).toBe(200);
    const setGroup = (group: string, value: unknown) =>
      fetch(`${origin}/api/admin/stores/${acme}/settings/${group}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', origin, cookie },
        body: JSON.stringify({ value }),
      });
    expect((await setGroup('contact', { supportEmail: 'help@acme.test', supportPhone: null })).status).toBe(200);
    expect(
      (await setGroup('policies', { termsUrl: 'https://acme.test/terms', privacyUrl: null, protectionTermsUrl: null }))
        .status,
    ).toBe(200);

    const { page, context, problems } = await h.newPage();
    await lookUp(page, '1002', 'ben@example.com');
    await page.waitForURL('**/issues');
    await expectHeading(page, "What's happening with your order?");
    await page.getByRole('button', { name: /Haven't received my order/ }).click();
    await page.waitForURL('**/issues/shipment');
    await expectHeading(page, "Select the shipment(s) you're having issues with.");
    await page.getByText('There are 2 different deliveries for this order.').waitFor();
    await expectAccessible(page);
    await page.getByRole('checkbox', { name: /In Transit/ }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL('**/issues/shipment/details');
    await page.getByRole('radio', { name: 'Stuck in transit' }).check();
    await page.getByLabel('Provide an additional information').fill('Tracking has not moved for ten days.');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL('**/resolution');
    await chooseResolution(page, /Reship them to me/);
    await page.getByText('Headlamp 400 × 1').waitFor();
    expect(await page.getByText('Ridge Tent 2P').count()).toBe(0);
    const token = await confirmAndSubmit(page, 'Ben Ortiz', acknowledgment);
    // A parcel stuck in transit never reached the shopper: its claim page offers no return.
    await page.getByRole('heading', { level: 2, name: 'Messages' }).waitFor();
    expect(await page.getByRole('heading', { level: 2, name: 'Returns' }).count()).toBe(0);
    const footer = page.getByRole('contentinfo');
    await footer.getByRole('link', { name: 'help@acme.test' }).waitFor();
    expect(await footer.getByRole('link', { name: 'Terms of service' }).getAttribute('href')).toBe(
      'https://acme.test/terms',
    );
    // A change shows on the shopper's next page load.
    expect((await setGroup('contact', { supportEmail: 'help@acme.test', supportPhone: '+1 555 0100' })).status).toBe(
      200,
    );
    await page.reload();
    await footer.getByRole('link', { name: '+1 555 0100' }).waitFor();
    expect((await setGroup('contact', { supportEmail: null, supportPhone: null })).status).toBe(200);
    expect((await setGroup('policies', { termsUrl: null, privacyUrl: null, protectionTermsUrl: null })).status).toBe(
      200,
    );

    const claim = await claimOf(token);
    expect(claim.desiredMethod).toBe('RESHIP');
    expect(claim.items.map((i) => [i.sourceItemId, i.claimType, i.quantity])).toEqual([
      ['li-5', 'TRACKING_NOT_MOVING', 1],
    ]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('explains the one-time courtesy claim of the unprotected order 1006, then files it', async () => {
    const { page, context, problems } = await h.newPage();
    await lookUp(page, '1006', 'finn@example.com');
    await page.waitForURL('**/issues');
    const modal = page.getByRole('dialog', { name: 'A one-time courtesy claim' });
    await modal.waitFor();
    await modal.getByText("This order wasn't covered by order protection when you placed it.").waitFor();
    await expectAccessible(page);
    // The dialog keeps the focus: it starts on Continue, Tab and Shift+Tab wrap inside, Escape closes it (acknowledging).
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Continue');
    for (const key of ['Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      expect(
        await page.evaluate(
          () =>
            document.querySelector('dialog[open]')?.contains(document.activeElement) === true &&
            document.activeElement?.tagName === 'BUTTON',
        ),
      ).toBe(true);
    }
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'hidden' });
    await page.getByText('as a one-time courtesy the store will review one claim for it.').waitFor();
    await expectAccessible(page);

    await addItemIssue(page, 'DAMAGED');
    await chooseResolution(page, /I want a refund/);
    // Filing carries an Idempotency-Key; retrying the same submission after a lost answer sends the same key.
    const keys: string[] = [];
    await page.route(
      (url) => url.pathname === '/api/claims/acme-5006',
      async (route) => {
        keys.push(route.request().headers()['idempotency-key'] ?? '');
        if (keys.length === 1) await route.abort('failed');
        else await route.continue();
      },
    );
    await confirmAddress(page);
    await page.getByLabel('Type your full name to sign').fill('Finn Hale');
    await page.getByRole('button', { name: 'Submit your claim' }).click();
    await page.getByRole('alert').filter({ hasText: 'Your claim could not be submitted. Please try again.' }).waitFor();
    const token = await confirmAndSubmit(page, 'Finn Hale');
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[\w-]{24}$/);
    expect(keys[1]).toBe(keys[0]);
    // Filed: the next submission will get a key of its own.
    expect(
      await page.evaluate(() => JSON.parse(sessionStorage.getItem('claims-portal:v1') ?? '{}').submission),
    ).toBeNull();
    const claim = await claimOf(token);
    expect(claim.items.map((i) => [i.sourceItemId, i.claimType, i.quantity])).toEqual([['li-9', 'DAMAGED', 2]]);
    // The aborted first attempt is the only failed load.
    expect(problems.filter((p) => !p.includes('net::ERR_FAILED'))).toEqual([]);
    await context.close();
  });

  it('reships order 1008 (EUR) to an edited address, signed by drawing', async () => {
    const { page, context, problems } = await h.newPage();
    await lookUp(page, '1008', 'hugo@example.com');
    await page.waitForURL('**/issues');
    await page.getByRole('button', { name: /Issues with my items/ }).click();
    await page.waitForURL('**/issues/items');
    await page.getByText('€44.000 · Qty 2').waitFor();
    await page.getByRole('link', { name: 'Go Back' }).click();
    await page.waitForURL('**/issues');
    await addItemIssue(page, 'DEFECTIVE_ITEM', 2);
    await chooseResolution(page, /Reship them to me/);
    await page.getByText('Torstrasse 12').waitFor();

    await page.getByRole('button', { name: 'Edit shipping address' }).click();
    const modal = page.getByRole('dialog', { name: 'Edit shipping address' });
    await modal.waitFor();
    expect(await modal.getByLabel('Country').inputValue()).toBe('DE');
    expect(await modal.getByLabel('State').inputValue()).toBe('BE');
    await expectAccessible(page);
    // Labels: a non-ASCII name shows its first alias; the value is the short code (docs/product.md#addresses-and-provinces).
    await modal.getByLabel('Country').selectOption('JP');
    expect(await modal.getByLabel('Prefecture').locator('option', { hasText: 'Tokyo' }).getAttribute('value')).toBe(
      'JP-13',
    );
    await modal.getByLabel('Country').selectOption('DE');
    await modal.getByLabel('Street address').fill('Königstraße 5');
    await modal.getByLabel('City').fill('Stuttgart');
    await modal.getByLabel('State').selectOption({ label: 'Baden-Wuerttemberg' });
    await modal.getByLabel('Postal code').fill('70173');
    await modal.getByLabel('Full name').fill('');
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.getByText('Enter the name of the person receiving the package.').waitFor();
    await modal.getByLabel('Full name').fill('Hugo Weber');
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.waitFor({ state: 'hidden' });
    await page.getByText('Königstraße 5').waitFor();
    await page.getByText('Stuttgart, Baden-Wuerttemberg 70173').waitFor();

    // A drawn signature (pointer events on the canvas).
    await page.getByRole('radio', { name: 'Draw my signature' }).check();
    await page.getByRole('button', { name: 'Submit your claim' }).click();
    await page.getByText('Please draw your signature, or type your name instead.').waitFor();
    const pad = page.getByRole('img', { name: /Signature area/ });
    const box = (await pad.boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + box.height / 2);
    await page.mouse.down();
    for (let x = 30; x < 220; x += 10)
      await page.mouse.move(box.x + x, box.y + box.height / 2 + (x % 20 === 0 ? 15 : -15));
    await page.mouse.up();
    await page.getByRole('img', { name: 'Your drawn signature' }).waitFor();
    await expectAccessible(page);
    await confirmAddress(page);
    await page.getByRole('button', { name: 'Submit your claim' }).click();
    await page.waitForURL('**/claim-received');
    await page.getByRole('link', { name: 'View my claim' }).click();
    await page.waitForURL('**/view/**');
    flaskToken = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]!);

    const claim = await claimOf(flaskToken);
    expect(claim.currency).toBe('EUR');
    expect(claim.desiredMethod).toBe('RESHIP');
    expect(claim.updatedShippingAddress).toEqual({
      name: 'Hugo Weber',
      address1: 'Königstraße 5',
      city: 'Stuttgart',
      province: 'Baden-Wuerttemberg',
      provinceCode: 'BW',
      zip: '70173',
      country: 'Germany',
      countryCode: 'DE',
    });
    expect(claim.items[0]!.images).toHaveLength(2);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('opens the claim photos in the lightbox and works it from the keyboard', async () => {
    expect(flaskToken).not.toBe('');
    const { page, context } = await h.newPage();
    // The view's HTML starts the claim's request before any script runs; the app takes that answer instead of asking again.
    const claimRequests: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === `/api/claims/${flaskToken}`) claimRequests.push(r.resourceType());
    });
    await page.goto(`/view/${flaskToken}`);
    await expect.poll(() => heading(page).textContent()).toMatch(/^My Claim #\d+$/);
    expect(claimRequests).toHaveLength(1);
    await page.getByRole('button', { name: /Photo 1 of Vacuum Flask 1L/ }).focus();
    await page.keyboard.press('Enter');
    const box = page.getByRole('dialog', { name: 'Photos of Vacuum Flask 1L' });
    await box.waitFor();
    await box.getByText('Image 1 of 2').waitFor();
    expect(await box.getByRole('button', { name: 'Previous image' }).isDisabled()).toBe(true);
    expect(await box.getByRole('button', { name: 'Next image' }).isDisabled()).toBe(false);
    expect(await page.evaluate(() => document.body.style.overflow)).toBe('hidden');
    const image = box.getByRole('img', { name: 'Photo 1 of Vacuum Flask 1L' });
    await image.waitFor();
    await expectAccessible(page);

    await page.keyboard.press('+');
    expect(await image.getAttribute('data-zoom')).toBe('1.12');
    await page.keyboard.press('-');
    await page.keyboard.press('-');
    expect(await image.getAttribute('data-zoom')).toBe('0.88');
    await page.keyboard.press('r');
    expect(await image.getAttribute('data-rotation')).toBe('90');
    await page.keyboard.press('0');
    expect(await image.getAttribute('data-zoom')).toBe('1');
    expect(await image.getAttribute('data-rotation')).toBe('0');

    await page.keyboard.press('ArrowRight');
    await box.getByText('Image 2 of 2').waitFor();
    expect(await box.getByRole('button', { name: 'Next image' }).isDisabled()).toBe(true);
    await page.keyboard.press('ArrowRight');
    await box.getByText('Image 2 of 2').waitFor();
    await page.keyboard.press('ArrowLeft');
    await box.getByText('Image 1 of 2').waitFor();
    await page.keyboard.press('Escape');
    await box.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.body.style.overflow)).toBe('');

    await context.close();

    // A photo that cannot be loaded shows the broken-image state.
    const broken = await h.newPage();
    const second = (await claimOf(flaskToken)).items[0]!.images[1]!.url;
    await broken.page.route(
      (url) => url.href === second,
      (route) => route.abort(),
    );
    await broken.page.goto(`/view/${flaskToken}`);
    await broken.page.getByRole('button', { name: /Photo 2 of Vacuum Flask 1L/ }).click();
    const viewer = broken.page.getByRole('dialog', { name: 'Photos of Vacuum Flask 1L' });
    await viewer.getByText('This image could not be loaded.').waitFor();
    await expectAccessible(broken.page);
    await viewer.getByRole('button', { name: 'Close' }).click();
    await viewer.waitFor({ state: 'hidden' });
    await broken.context.close();
  });

  it('shows a store reply on the view page and lets the shopper answer', async () => {
    expect(flaskToken).not.toBe('');
    const claim = await claimOf(flaskToken);
    const origin = h.baseUrl;
    const login = await fetch(`${origin}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ email: 'agent@acme.test', password: 'demo-pass-1234' }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const reply = await fetch(`${origin}/api/admin/claims/${claim.id}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, cookie },
      body: JSON.stringify({ messageContent: 'Sorry about the flask! A new one ships tomorrow.', medias: [] }),
    });
    expect(reply.status).toBe(201);

    const { page, context, problems } = await h.newPage();
    await page.goto(`/view/${flaskToken}`);
    await page.getByText('Sorry about the flask! A new one ships tomorrow.').waitFor();
    await expectAccessible(page);
    await page.getByLabel('Your message').fill('Thank you, the new address is right.');
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('Thank you, the new address is right.').waitFor();
    const thread = page.locator('.thread > li.message');
    await expect.poll(() => thread.count()).toBe(2);
    expect(await thread.nth(0).getAttribute('class')).toContain('message-merchant');
    expect(await thread.nth(1).getAttribute('class')).toContain('message-customer');
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('brands the portal for the JPY order K-2001 of Kumo Tea: colours, yen without decimals, no refund', async () => {
    const { page, context, problems } = await h.newPage();
    await lookUp(page, 'K-2001', 'ivy@example.com');
    await page.waitForURL('**/issues');
    await page.getByRole('img', { name: 'Kumo Tea' }).waitFor();
    await expect
      .poll(() =>
        page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--brand-700').trim()),
      )
      .toBe('#2E5E3A');
    await page.getByRole('button', { name: /Issues with my items/ }).click();
    await page.waitForURL('**/issues/items');
    await page.getByText('¥2,400 · Qty 2').waitFor();
    await page.getByText('¥3,600 · Qty 1').waitFor();
    expect(await page.locator('main').textContent()).not.toMatch(/¥[\d,]+\.\d/);
    const primary = page.getByRole('button', { name: 'Continue' });
    expect(await primary.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(46, 94, 58)');
    expect(await primary.evaluate((el) => getComputedStyle(el).borderTopLeftRadius)).toBe('9999px');
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Go Back' }).click();
    await page.waitForURL('**/issues');
    await addItemIssue(page, 'WRONG_ITEM');
    await page.getByRole('radio', { name: /Reship them to me/ }).waitFor();
    await page.getByText('Get a ¥500 bonus on your store credit').waitFor();
    expect(await page.getByRole('radio', { name: /I want a refund/ }).count()).toBe(0);
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('restores the draft after a page reload', async () => {
    const { page, context, problems } = await h.newPage();
    await lookUp(page, '1010', 'jon@example.com');
    await page.waitForURL('**/issues');
    await page.getByRole('button', { name: /Issues with my items/ }).click();
    await page.waitForURL('**/multiple-shipments');
    await page.getByRole('radio').first().check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL('**/issues/items');
    const dialog = await describeFirstItem(page, 'MISSING_ITEM', { details: 'Box was half empty.' });
    await dialog.getByRole('button', { name: 'Add issue to claim' }).click();
    await page.waitForURL('**/resolution');
    await chooseResolution(page, /I want a refund/);

    await page.reload();
    await expectHeading(page, 'Review and complete your claim.');
    await page.getByText(/× 6/).waitFor();
    await page.getByText('Box was half empty.', { exact: false }).waitFor();
    await page.getByText('Refund', { exact: true }).waitFor();
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('loads the sample order with ?fake and the branding of the store query parameter', async () => {
    const { page, context, problems } = await h.newPage();
    await page.goto('/start?fake');
    await page.waitForURL('**/issues');
    await page.getByText('Sample order #DEMO-1001').waitFor();
    await expectHeading(page, "What's happening with your order?");
    await expectAccessible(page);

    await page.goto('/start?store=kumo');
    await page.getByRole('img', { name: 'Kumo Tea' }).waitFor();
    await expectHeading(page, 'Get a resolution for your order in minutes');
    // A `.spec` duplicate is the same screen (docs/product.md#portal-routes).
    await page.goto('/return.spec');
    await page.waitForURL('**/return');
    await expectHeading(page, 'Start a return');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('tells the shopper to wait after too many lookups of one order number (429)', async () => {
    for (let i = 0; i < 10; i++) {
      const response = await fetch(`${h.baseUrl}/api/order-lookup?order=1004&email=guess${i}%40example.com`);
      expect(response.status).toBe(404);
    }
    const limited = await fetch(`${h.baseUrl}/api/order-lookup?order=%231004&email=dan%40example.com`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ error: 'rate_limited' });

    const { page, context } = await h.newPage();
    await lookUp(page, '1004', 'dan@example.com');
    const alert = page.getByRole('alert').filter({ hasText: "You've tried that a few too many times." });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(
      /^You've tried that a few too many times\. To keep orders safe, please wait (a minute|\d+ seconds) and try again\.$/,
    );
    await expectAccessible(page);
    await context.close();
  });
});
