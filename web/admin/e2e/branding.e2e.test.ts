import { chromium, type FrameLocator, type Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BrandingView, WhitelabelSettings } from '@claims/contracts';
import { CHROMIUM, PASSWORD, eventually, expectAccessible, heading, signIn, fileHarness } from './harness.js';

const h = fileHarness();

const CUSTOM_DOMAIN = 'help.acme-outfitters.test';

const css = (locator: Locator, property: string) =>
  locator.evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);

/** A signed-in cookie for calls behind the page's back. */
async function cookieOf(email: string): Promise<string> {
  const login = await fetch(`${h.baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: h.baseUrl },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(login.status).toBe(200);
  return login.headers.get('set-cookie')!.split(';')[0]!;
}

describe('branding editor', () => {
  it('previews each change in the real portal, refuses a colour pair below AA and saves a version', async () => {
    const { page, context, problems } = await h.newPage();
    await signIn(page, 'owner@acme.test');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Branding' }).click();
    await page.waitForURL('**/admin/branding');
    await eventually(() => heading(page).textContent()).toBe('Branding of Acme Outfitters');
    const preview: FrameLocator = page.frameLocator('iframe[title="Portal preview"]');
    const button = preview.getByRole('button', { name: 'Continue' });
    await button.waitFor();
    await eventually(() => css(button, 'background-color')).toBe('rgb(31, 78, 121)');
    await expectAccessible(page);

    // Each change reaches the preview before anything is saved.
    await page.getByLabel('Primary colour').fill('#0b3d91');
    await eventually(() => css(button, 'background-color')).toBe('rgb(11, 61, 145)');
    await page.getByLabel('Button style').selectOption('SQUARE');
    await eventually(() => css(button, 'border-top-left-radius')).toBe('0px');
    const title = preview.getByRole('heading', { level: 1 });
    await page.getByLabel('Headline text transform').selectOption('uppercase');
    await eventually(() => css(title, 'text-transform')).toBe('uppercase');
    await page.getByLabel('Main headline size').fill('28px');
    await eventually(() => css(title, 'font-size')).toBe('28px');
    await page.getByLabel('Headline letter spacing').fill('2px');
    await eventually(() => css(title, 'letter-spacing')).toBe('2px');
    await page.getByLabel('Main headline line height').fill('40px');
    await eventually(() => css(title, 'line-height')).toBe('40px');
    await page.getByLabel('Page background').fill('#fffbea');
    await eventually(() => css(preview.locator('body'), 'background-color')).toBe('rgb(255, 251, 234)');
    await page.getByLabel('Logo width on phones (px)').fill('120');
    await eventually(() => css(preview.getByRole('img', { name: 'Acme Outfitters' }), 'width')).toBe('120px');

    // The preview shows another portal page with the same draft.
    const pagePicker = page.getByLabel('Portal page');
    await pagePicker.focus();
    await pagePicker.selectOption('/issues?fake');
    const flowTitle = preview.getByRole('heading', { level: 1 });
    await flowTitle.waitFor();
    await eventually(() => css(flowTitle, 'text-transform')).toBe('uppercase');
    // The framed page never takes the focus from the editor (its heading would, a frame after it renders).
    await flowTitle.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(await pagePicker.getAttribute('id'));
    await page.getByLabel('Portal page').selectOption('/start');
    await button.waitFor();

    // A pale primary colour: white button text on it is below 4.5:1, so the editor refuses to save.
    await page.getByLabel('Primary colour').fill('#8ab4f8');
    await eventually(() => css(button, 'background-color')).toBe('rgb(138, 180, 248)');
    await page
      .getByRole('row', { name: /Button text on the primary colour/ })
      .getByText('Below AA')
      .waitFor();
    await page.getByRole('button', { name: 'Save branding' }).click();
    const refusal = page.getByRole('alert');
    await refusal
      .getByText(/Button text on the primary colour: #ffffff on #8ab4f8 is 2\.\d\d:1, below the 4\.5:1 of WCAG AA\./)
      .waitFor();

    // The server refuses it too, with the same reason, and records nothing.
    const cookie = await cookieOf('owner@acme.test');
    const storeId = ((await (await fetch(`${h.baseUrl}/api/stores/acme`)).json()) as { id: string }).id;
    const pale = await fetch(`${h.baseUrl}/api/admin/stores/${storeId}/branding`, {
      method: 'PUT',
      headers: { cookie, origin: h.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ branding: { brand700: '#8ab4f8' } }),
    });
    expect(pale.status).toBe(422);
    const paleBody = (await pale.json()) as { error: string; message: string };
    expect(paleBody.error).toBe('insufficient_contrast');
    expect(paleBody.message).toContain('Button text on the primary colour: #ffffff on #8ab4f8');
    const unchanged = BrandingView.parse(
      await (await fetch(`${h.baseUrl}/api/admin/stores/${storeId}/branding`, { headers: { cookie } })).json(),
    );
    expect(unchanged.version).toBe(0);

    // A dark enough colour saves: a version with its author, and the portal shows it to shoppers. (axe reads the
    // preview too, so the page is checked once the draft it shows passes AA again, the refusal still on screen.)
    await page.getByLabel('Primary colour').fill('#0b3d91');
    await eventually(() => css(button, 'background-color')).toBe('rgb(11, 61, 145)');
    await refusal.getByText(/Button text on the primary colour/).waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByRole('status').getByText('Branding saved.').waitFor();
    const versions = page.getByRole('region', { name: /Versions/ });
    await versions.getByText('Alex Owner').waitFor();
    await versions.getByText(/brand700 #1F4E79 → #0b3d91/).waitFor();
    await expectAccessible(page);

    expect(problems).toEqual([]);
    await context.close();
  }, 240_000);

  it("serves the store's portal with its saved branding on the custom domain the owner sets", async () => {
    const { page, context, problems } = await h.newPage();
    await signIn(page, 'owner@acme.test');
    await page.goto('/admin/branding');
    await eventually(() => heading(page).textContent()).toBe('Branding of Acme Outfitters');
    const versions = page.getByRole('region', { name: /Versions/ });
    const storeId = ((await (await fetch(`${h.baseUrl}/api/stores/acme`)).json()) as { id: string }).id;
    const domainField = page.getByLabel('Custom portal domain');
    await domainField.fill(CUSTOM_DOMAIN);
    expect(await domainField.inputValue()).toBe(CUSTOM_DOMAIN);
    await page.getByRole('button', { name: 'Save domain' }).click();
    // The confirmation, or the alert saying why not (so a failure names its cause).
    const outcome = page
      .getByRole('status')
      .getByText(/^The portal is served on /)
      .or(page.getByRole('alert'));
    await outcome.waitFor();
    expect(await outcome.textContent()).toBe(`The portal is served on ${CUSTOM_DOMAIN}.`);
    await versions.getByText(`Custom domain ${CUSTOM_DOMAIN}`).waitFor();
    expect(problems).toEqual([]);
    await context.close();

    // The server finds the store by the Host a request came to.
    const byHost = await h.runtime.app.inject({
      method: 'GET',
      url: '/api/whitelabel/settings',
      headers: { host: `${CUSTOM_DOMAIN}:8080` },
    });
    expect(byHost.statusCode).toBe(200);
    const found = WhitelabelSettings.parse(byHost.json());
    expect(found).toMatchObject({
      storeId,
      storeName: 'Acme Outfitters',
      branding: { brand700: '#0b3d91', buttonStyle: 'SQUARE', textTransform: 'uppercase' },
    });
    const stranger = await h.runtime.app.inject({
      method: 'GET',
      url: '/api/whitelabel/settings',
      headers: { host: 'nobody.example.test' },
    });
    expect(stranger.statusCode).toBe(404);

    // A shopper opening the custom domain sees the store's saved branding.
    const { port } = new URL(h.baseUrl);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [`--host-resolver-rules=MAP ${CUSTOM_DOMAIN} 127.0.0.1`, '--no-first-run'],
    });
    try {
      const shopper = await (await browser.newContext()).newPage();
      const errors: string[] = [];
      shopper.on('pageerror', (error) => errors.push(error.message));
      await shopper.goto(`http://${CUSTOM_DOMAIN}:${port}/start`);
      await shopper.getByRole('img', { name: 'Acme Outfitters' }).waitFor();
      const continueButton = shopper.getByRole('button', { name: 'Continue' });
      await eventually(() => css(continueButton, 'background-color')).toBe('rgb(11, 61, 145)');
      await eventually(() => css(continueButton, 'border-top-left-radius')).toBe('0px');
      await eventually(() => css(shopper.getByRole('heading', { level: 1 }), 'text-transform')).toBe('uppercase');
      await expectAccessible(shopper);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 240_000);

  it('lets internal staff list white-label domains and restart one; merchants may not', async () => {
    const admin = await cookieOf('admin@orderprotection.test');
    const list = await fetch(`${h.baseUrl}/api/admin/whitelabel`, { headers: { cookie: admin } });
    expect(list.status).toBe(200);
    const { stores } = (await list.json()) as {
      stores: Array<{ storeId: string; storeName: string; domain: string | null; revision: number }>;
    };
    const acme = stores.find((s) => s.storeName === 'Acme Outfitters')!;
    expect(acme.domain).toBe(CUSTOM_DOMAIN);
    const owner = await cookieOf('owner@acme.test');
    expect((await fetch(`${h.baseUrl}/api/admin/whitelabel`, { headers: { cookie: owner } })).status).toBe(403);
    const restartAsOwner = await fetch(`${h.baseUrl}/api/admin/stores/${acme.storeId}/whitelabel/restart`, {
      method: 'POST',
      headers: { cookie: owner, origin: h.baseUrl },
    });
    expect(restartAsOwner.status).toBe(403);

    // Restarting bumps the revision: the portal's logo address carries it, so browsers fetch the file again.
    const restarted = await fetch(`${h.baseUrl}/api/admin/stores/${acme.storeId}/whitelabel/restart`, {
      method: 'POST',
      headers: { cookie: admin, origin: h.baseUrl },
    });
    expect(restarted.status).toBe(200);
    expect(BrandingView.parse(await restarted.json()).revision).toBe(acme.revision + 1);
    const branding = WhitelabelSettings.parse(
      await (await fetch(`${h.baseUrl}/api/whitelabel/settings?store=${acme.storeId}`)).json(),
    );
    expect(branding.branding.logoUrl).toBe(`/demo/acme-logo.svg?v=${acme.revision + 1}`);

    // Another tenant's store is not found, and the domain of one store cannot be taken by another.
    const kumoOwner = await cookieOf('owner@kumo.test');
    expect(
      (await fetch(`${h.baseUrl}/api/admin/stores/${acme.storeId}/branding`, { headers: { cookie: kumoOwner } }))
        .status,
    ).toBe(404);
    const kumo = ((await (await fetch(`${h.baseUrl}/api/stores/kumo`)).json()) as { id: string }).id;
    const taken = await fetch(`${h.baseUrl}/api/admin/stores/${kumo}/whitelabel`, {
      method: 'PUT',
      headers: { cookie: kumoOwner, origin: h.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ domain: CUSTOM_DOMAIN }),
    });
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { error: string }).error).toBe('domain_taken');
  }, 120_000);

  it('shows store support the branding without a way to save it', async () => {
    const { page, context, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    await page.goto('/admin/branding');
    await eventually(() => heading(page).textContent()).toBe('Branding of Acme Outfitters');
    await page.getByText('changing the branding needs branding:update').waitFor();
    expect(await page.getByRole('button', { name: 'Save branding' }).count()).toBe(0);
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
