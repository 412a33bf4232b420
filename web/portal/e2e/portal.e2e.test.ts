import { describe, expect, it } from 'vitest';
import { CustomerClaimView, Message } from '@claims/contracts';
import { PNG_1PX, chooseResolution, expectAccessible, lookUp, fileHarness, heading, submitReview } from './harness.js';

const h = fileHarness();

describe('customer claims portal', () => {
  it('files a refund claim for two of the three socks of order 1001 with a photo, then messages the store', async () => {
    const { page, context, problems } = await h.newPage();
    await page.goto('/start');
    await expect.poll(() => heading(page).textContent()).toBe('Get a resolution for your order in minutes');
    await expectAccessible(page);

    await lookUp(page, ' 1001 ', ' ava@example.com ');
    await page.waitForURL('**/issues');
    await expect.poll(() => heading(page).textContent()).toBe("What's happening with your order?");
    await expectAccessible(page);

    await page.getByRole('button', { name: /Issues with my items/ }).click();
    await page.waitForURL('**/issues/items');
    await expect.poll(() => heading(page).textContent()).toBe('Tell us about your issues.');
    await page.getByRole('heading', { name: 'Select items with issues' }).waitFor();
    await expectAccessible(page);

    await page.getByRole('checkbox', { name: /Merino Socks/ }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    const dialog = page.getByRole('dialog', { name: 'Tell us about your issue' });
    await dialog.waitFor();
    await dialog.getByText('Product 1 / 1').waitFor();
    await dialog.getByText('You ordered 3 of this item. Do they all have the same issue?').waitFor();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: "No, they don't" }).click();
    await dialog.getByLabel('From the 3 you ordered, how many have issues?').selectOption('2');
    await dialog.getByRole('button', { name: 'Continue' }).click();

    const issueSelect = dialog.getByLabel("What's the issue with this item?");
    expect(await issueSelect.locator('option').first().textContent()).toBe('Select issue');
    await dialog.getByRole('button', { name: 'Add issue to claim' }).click();
    await dialog.getByRole('alert').waitFor();
    await issueSelect.selectOption('DAMAGED');
    await dialog.getByLabel('Provide an additional information').fill('Two socks arrived torn.');
    await dialog
      .getByLabel('Upload photos')
      .setInputFiles({ name: 'torn-socks.png', mimeType: 'image/png', buffer: PNG_1PX });
    await dialog.getByRole('img', { name: 'Uploaded photo 1' }).waitFor();
    // The picker says what was added, not the browser's "No file chosen" of its emptied input.
    await dialog.getByText('1 photo added.').waitFor();
    await dialog.getByText('Add more photos').waitFor();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Add issue to claim' }).click();

    await page.waitForURL('**/resolution');
    await expect.poll(() => heading(page).textContent()).toBe('How can we fix this for you?');
    await page.getByText('Reship them to me').waitFor();
    await page.getByText('Fastest').waitFor();
    await page.getByText('Items will be shipped immediately').waitFor();
    await page.getByText('Up to 5 business days').waitFor();
    await page.getByText('Get a 10% bonus on your store credit').waitFor();
    await expectAccessible(page);
    await chooseResolution(page, /I want a refund/);

    await expect.poll(() => heading(page).textContent()).toBe('Review and complete your claim.');
    await page.getByRole('heading', { name: 'My Claim' }).waitFor();
    await page.getByRole('heading', { name: 'Preferred Resolution for Issues' }).waitFor();
    await page.getByText('Merino Socks × 2').waitFor();
    await page.getByRole('button', { name: 'Submit your claim' }).click();
    expect(await page.getByRole('alert').filter({ hasText: 'Please confirm your shipping address.' }).count()).toBe(1);
    await expectAccessible(page);
    await submitReview(page, 'Ava Stone');
    await expectAccessible(page);
    await page.getByRole('link', { name: 'View my claim' }).click();
    await page.waitForURL('**/view/**');
    const token = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]!);
    await expect.poll(() => heading(page).textContent()).toMatch(/^My Claim #\S+$/);
    await page.getByText('Merino Socks × 2').waitFor();
    await page.getByRole('img', { name: 'Photo 1 of Merino Socks' }).waitFor();
    await expectAccessible(page);

    // The link's HTML shows the page's loading screen (heading and nav) before any script runs.
    const html = await (await fetch(`${h.baseUrl}/view/${token}`)).text();
    expect(html).toContain('<h1 id="page-title" tabindex="-1">Loading your claim…</h1>');
    expect(html).toContain(`<a href="/print/${token}">Print</a>`);
    // That screen is written by hand beside the server (claimPagePreload.ts): it must be the app's own loading screen,
    // node for node, or the first render moves the page. The claim is held back so the app stays on it.
    const booting = await context.newPage();
    let releaseClaim!: () => void;
    const claimHeld = new Promise<void>((resolve) => {
      releaseClaim = resolve;
    });
    await booting.route(`**/api/claims/${token}**`, async (route) => {
      await claimHeld;
      await route.continue();
    });
    await booting.goto(`/view/${token}`);
    const sameAsBoot = () =>
      booting.evaluate((bootHtml) => {
        const live = document.getElementById('root')!;
        // Committed, not merely created: the root is marked at createRoot, its children only once React put its own there.
        const rendered =
          live.firstElementChild !== null &&
          Object.keys(live.firstElementChild).some((key) => key.startsWith('__reactFiber'));
        const boot = new DOMParser().parseFromString(bootHtml, 'text/html').getElementById('root')!;
        return rendered && boot.isEqualNode(live)
          ? 'same'
          : `${rendered ? 'rendered' : 'not rendered yet'}:\n${live.outerHTML}\nvs the HTML's\n${boot.outerHTML}`;
      }, html);
    await expect.poll(sameAsBoot).toBe('same');
    await booting.unrouteAll({ behavior: 'ignoreErrors' });
    releaseClaim();
    await booting.close();

    // The claim as the API keeps it.
    const claim = CustomerClaimView.parse(await (await fetch(`${h.baseUrl}/api/claims/${token}`)).json());
    expect(claim.desiredMethod).toBe('REFUND');
    expect(claim.items).toHaveLength(1);
    expect(claim.items[0]).toMatchObject({
      sourceItemId: 'li-2',
      quantity: 2,
      claimType: 'DAMAGED',
      details: 'Two socks arrived torn.',
    });
    const photo = await fetch(claim.items[0]!.images[0]!.url);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/png');

    // A message to the store.
    await page.getByLabel('Your message').fill('When will my refund arrive?');
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('When will my refund arrive?').waitFor();
    const messages = Message.array().parse(await (await fetch(`${h.baseUrl}/api/claims/${token}/messages`)).json());
    expect(messages.map((m) => m.messageContent)).toEqual(['When will my refund arrive?']);
    await expectAccessible(page);

    // Review step of the view.
    await page.getByRole('link', { name: 'Leave a review' }).click();
    await page.waitForURL('**/review');
    await page.getByRole('radio', { name: '5 stars' }).check();
    await page.getByRole('button', { name: 'Submit review' }).click();
    await page.getByText('Thank you for your review.').waitFor();
    await expectAccessible(page);

    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows the no-match alert for an unknown order', async () => {
    const { page, context } = await h.newPage();
    await lookUp(page, '1001', 'someone@example.com');
    await page
      .getByRole('alert')
      .filter({ hasText: "We couldn't find a match for that order number and email address." })
      .waitFor();
    expect(await page.getByRole('alert').textContent()).toBe(
      "We couldn't find a match for that order number and email address. Please double-check your order confirmation email to ensure you're using the correct order number and email address for the order.",
    );
    await expectAccessible(page);
    await context.close();
  });

  it('tells the shopper it is too soon (1003), too late (1004) or not shipped (1005)', async () => {
    const { page, context, problems } = await h.newPage();
    await lookUp(page, '1003', 'cara@example.com');
    await page.waitForURL('**/too-soon');
    await expect.poll(() => heading(page).textContent()).toBe('Hold that thought!');
    await page.getByText('Your order has been marked as delivered.').waitFor();
    await page.getByText('You can file a claim on:').waitFor();
    expect(await page.locator('.big').textContent()).toMatch(/^[A-Z][a-z]{2} \d{1,2} at \d{1,2}:\d{2} (AM|PM)$/);
    await page.getByText("If you still haven't received your package.").waitFor();
    await expectAccessible(page);

    await lookUp(page, '1004', 'dan@example.com');
    await page.waitForURL('**/too-late');
    await expect.poll(() => heading(page).textContent()).toBe("It's too late to file a claim");
    await expectAccessible(page);

    await lookUp(page, '1005', 'eve@example.com');
    await page.waitForURL('**/not-shipped');
    await expect.poll(() => heading(page).textContent()).toBe("Your order hasn't shipped yet");
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('guards the flow without an order and shows the 404 page', async () => {
    const { page, context } = await h.newPage();
    await page.goto('/resolution/review');
    await page.waitForURL('**/start');
    await expect.poll(() => heading(page).textContent()).toBe('Get a resolution for your order in minutes');

    await page.goto('/no-such-page');
    await page.getByText('Page Not Found: /no-such-page').waitFor();
    await expect.poll(() => heading(page).textContent()).toBe('Page Not Found');
    await expectAccessible(page);

    await page.goto('/view/bad');
    await page.getByText('Page Not Found: /view/bad').waitFor();

    await page.goto('/return');
    expect(new URL(page.url()).pathname).toBe('/return');
    await expect.poll(() => heading(page).textContent()).toBe('Start a return');
    await expectAccessible(page);
    await context.close();
  });

  it('serves the portal with security headers and keeps JSON 404s under /api', async () => {
    const html = await fetch(`${h.baseUrl}/issues/items`);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toContain('text/html');
    expect(html.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(html.headers.get('x-content-type-options')).toBe('nosniff');
    const api = await fetch(`${h.baseUrl}/api/nothing-here`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ error: 'route_not_found' });
  });

  it('restores a saved draft after a new lookup', async () => {
    const first = await h.newPage();
    await lookUp(first.page, '1008', 'hugo@example.com');
    await first.page.waitForURL('**/issues');
    await first.page.getByRole('button', { name: /Issues with my items/ }).click();
    await first.page.waitForURL('**/issues/items');
    await first.page.getByRole('checkbox').first().check();
    await first.page.getByRole('button', { name: 'Continue' }).click();
    const dialog = first.page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Yes, they do' }).click();
    await dialog.getByLabel("What's the issue with this item?").selectOption('DEFECTIVE_ITEM');
    await dialog.getByRole('button', { name: 'Add issue to claim' }).click();
    await first.page.waitForURL('**/resolution');
    await first.page.getByRole('radio').first().check();
    await first.page.waitForTimeout(800);
    await first.context.close();

    const second = await h.newPage();
    await lookUp(second.page, '1008', 'hugo@example.com');
    await second.page.waitForURL('**/resolution');
    await second.page.getByRole('button', { name: 'Continue' }).click();
    await second.page.waitForURL('**/resolution/review');
    await second.page.getByText(/× 2/).waitFor();
    await second.context.close();
  });
});
