import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { AdminClaimPage } from '@claims/contracts';
import {
  apiSession,
  expectAccessible,
  fileClaim,
  heading,
  openTool,
  signIn,
  startHarness,
  type Harness,
} from './harness.js';

let h: Harness;
/** The claims filed for these tests, newest last (the queue lists newest first). */
const claims: Array<{ claimId: string; claimNumber: string }> = [];

/** Demo orders' items a shopper may claim, one claim each; some demo shipments are not claimable yet (too soon), so these are tried in turn. */
const CANDIDATES = [
  {
    order: 'acme-5001',
    email: 'ava@example.com',
    fulfillment: 'f-1001-1',
    items: ['li-1', 'li-2', 'li-3'],
    name: 'Ava Stone',
  },
  { order: 'acme-5002', email: 'ben@example.com', fulfillment: 'f-1002-1', items: ['li-4'], name: 'Ben Ortiz' },
  { order: 'acme-5004', email: 'dan@example.com', fulfillment: 'f-1004-1', items: ['li-7'], name: 'Dan' },
  { order: 'acme-5007', email: 'gia@example.com', fulfillment: 'f-1007-1', items: ['li-10', 'li-11'], name: 'Gia' },
  { order: 'acme-5008', email: 'hugo@example.com', fulfillment: 'f-1008-1', items: ['li-12'], name: 'Hugo' },
  { order: 'acme-5010', email: 'jon@example.com', fulfillment: 'f-1010-1', items: ['li-20', 'li-21'], name: 'Jon' },
] as const;

beforeAll(async () => {
  h = await startHarness();
  for (const c of CANDIDATES) {
    for (const item of c.items) {
      try {
        claims.push(
          await fileClaim(h.baseUrl, c.order, {
            email: c.email,
            fulfillmentIssues: [
              {
                sourceFulfillmentId: c.fulfillment,
                issues: [
                  { sourceItemId: item, claimType: 'DAMAGED', quantity: 1, details: 'Arrived broken.', images: [] },
                ],
              },
            ],
            resolution: { desiredMethod: 'REFUND', customerSignature: c.name },
          }),
        );
      } catch {
        // Not claimable (yet): the next candidate.
      }
    }
  }
  expect(claims.length).toBeGreaterThanOrEqual(5);
  // The queue is a read model: wait until it lists them all.
  const agent = await apiSession(h.baseUrl, 'agent@acme.test');
  const listed = async () =>
    AdminClaimPage.parse(await (await agent.get('/api/admin/claims?limit=100')).json()).data.map((c) => c.id);
  for (;;) {
    const ids = await listed();
    if (claims.every((c) => ids.includes(c.claimId))) break;
    await sleep(50);
  }
});

afterAll(async () => {
  await h?.stop();
});

const claimUrl = (claimId: string) => `/admin/claims/view/${claimId}`;
const presence = (page: Page) => page.locator('.presence');
/** Nothing scrolls the document sideways; when something does, the elements reaching past the viewport say what. */
async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => {
    if (document.documentElement.scrollWidth <= window.innerWidth) return [];
    return Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth)
      .slice(0, 8)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} (${Math.round(el.getBoundingClientRect().right)} px)`);
  });
  expect(overflow).toEqual([]);
}

describe('the claim desk: presence, reopening, layout and keys', () => {
  it('tells two agents on the same claim about each other, live, and forgets one who leaves', async () => {
    const agent = await h.newPage();
    const owner = await h.newPage();
    await signIn(agent.page, 'agent@acme.test');
    await signIn(owner.page, 'owner@acme.test');
    const claim = claims[0]!;

    await agent.page.goto(claimUrl(claim.claimId));
    await heading(agent.page)
      .filter({ hasText: `Claim #${claim.claimNumber}` })
      .waitFor();
    expect(await presence(agent.page).textContent()).toBe('');

    await owner.page.goto(claimUrl(claim.claimId));
    await presence(owner.page).getByText('Riley Agent also has this claim open.').waitFor();
    await presence(agent.page).getByText('Alex Owner also has this claim open.').waitFor();
    await expectAccessible(agent.page);

    // The owner moves on to another claim: the agent is alone again.
    await owner.page.goto(claimUrl(claims[1]!.claimId));
    await heading(owner.page)
      .filter({ hasText: `Claim #${claims[1]!.claimNumber}` })
      .waitFor();
    await expect.poll(() => presence(agent.page).textContent()).toBe('');
    expect(await presence(owner.page).textContent()).toBe('');
    expect(agent.problems).toEqual([]);
    expect(owner.problems).toEqual([]);
    await agent.context.close();
    await owner.context.close();
  });

  it("reopens a closed claim from its page, with the resolver's permission only", async () => {
    const claim = claims[2]!;
    const agentApi = await apiSession(h.baseUrl, 'agent@acme.test');
    expect(
      (await agentApi.post(`/api/admin/claims/${claim.claimId}/status`, { status: 'CLOSED', reason: 'OTHER' })).status,
    ).toBe(200);

    // A store user may not: no button.
    const viewer = await h.newPage();
    await signIn(viewer.page, 'viewer@acme.test');
    await viewer.page.goto(claimUrl(claim.claimId));
    await heading(viewer.page)
      .filter({ hasText: `Claim #${claim.claimNumber}` })
      .waitFor();
    await viewer.page.getByRole('button', { name: 'Keyboard shortcuts' }).waitFor();
    expect(await viewer.page.getByRole('button', { name: 'Reopen claim' }).count()).toBe(0);
    await viewer.context.close();

    const { page, context, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    await page.goto(claimUrl(claim.claimId));
    await page.locator('.claim-badges').getByText('Closed', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Reopen claim' }).click();
    const dialog = page.getByRole('dialog', { name: `Reopen claim #${claim.claimNumber}?` });
    await dialog.waitFor();
    await expectAccessible(page);
    await dialog.getByLabel('Why (optional)').fill('The shopper sent new photos.');
    await dialog.getByRole('button', { name: 'Reopen claim' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText(`Claim #${claim.claimNumber} is open again.`).waitFor();
    await page.locator('.claim-badges').getByText('Open', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Reopen claim' }).count()).toBe(0);
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('fits a five-row queue in one 1440x900 screen, and never scrolls sideways at 1024 px, even with a 300-character word in a message', async () => {
    const { page, context, problems } = await h.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, 'agent@acme.test');
    const rows = page.getByRole('table', { name: /^Claims, / }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(5);
    const fifth = await rows.nth(4).boundingBox();
    expect(fifth!.y + fifth!.height).toBeLessThanOrEqual(900);

    const claim = claims[3]!;
    const agentApi = await apiSession(h.baseUrl, 'agent@acme.test');
    const word = 'x'.repeat(300);
    const url = `https://tracking.example/${'a'.repeat(200)}`;
    expect(
      (await agentApi.post(`/api/admin/claims/${claim.claimId}/messages`, { messageContent: `${word} and ${url}` }))
        .status,
    ).toBe(201);

    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto('/admin/');
    await rows.first().waitFor();
    await expectNoHorizontalScroll(page);
    await page.goto(claimUrl(claim.claimId));
    await page.getByText(word, { exact: false }).waitFor();
    await expectNoHorizontalScroll(page);
    // The decision leads the page; the other tools are folded under their headings until opened.
    const decision = await page.getByRole('region', { name: 'Resolve claim' }).boundingBox();
    const facts = await page.getByRole('region', { name: 'Order and shipping' }).boundingBox();
    expect(decision!.y).toBeLessThan(facts!.y);
    expect(await page.getByLabel('New status').isVisible()).toBe(false);
    await openTool(page, 'Change status');
    expect(await page.getByLabel('New status').isVisible()).toBe(true);
    await expectNoHorizontalScroll(page);
    await expectAccessible(page);
    // The address in the message is a link that opens apart from the back-office.
    const link = page.getByRole('link', { name: url });
    expect(await link.getAttribute('href')).toBe(url);
    expect(await link.getAttribute('rel')).toContain('noopener');

    // The 404 of a signed-in user keeps the app's frame (its navigation), and it too fits.
    await page.goto('/admin/no-such-page');
    await heading(page).filter({ hasText: 'Page Not Found' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Claims' }).waitFor();
    await expectNoHorizontalScroll(page);
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("moves through the queue's claims and to the reply and the decision by keyboard, and lists the keys under ?", async () => {
    const { page, context, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    const links = page.getByRole('table', { name: /^Claims, / }).locator('a.row-link');
    await expect.poll(() => links.count()).toBeGreaterThanOrEqual(3);
    const first = (await links.nth(0).textContent())!;
    const second = (await links.nth(1).textContent())!;
    await links.nth(0).click();
    await heading(page)
      .filter({ hasText: `Claim ${first}` })
      .waitFor();

    await page.keyboard.press('j');
    await heading(page)
      .filter({ hasText: `Claim ${second}` })
      .waitFor();
    await page.keyboard.press('k');
    await heading(page)
      .filter({ hasText: `Claim ${first}` })
      .waitFor();
    // The newest claim has nothing before it.
    await page.keyboard.press('k');
    await page.getByText('No previous claim: open claims from the queue to move through it.').waitFor();

    await page.keyboard.press('r');
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    expect(await page.getByLabel('Message to the customer').evaluate((el) => el === document.activeElement)).toBe(true);
    // Typing in the reply is typing, not shortcuts.
    await page.keyboard.type('jk');
    expect(await page.getByLabel('Message to the customer').inputValue()).toBe('jk');
    await page.getByLabel('Message to the customer').fill('');
    await page.locator('h1').click();

    await page.keyboard.press('d');
    await expect
      .poll(() =>
        page.evaluate(() => document.activeElement?.closest('section')?.querySelector('h2')?.textContent ?? ''),
      )
      .toMatch(/^(Resolve|Decision)/);

    await page.locator('h1').click();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    expect(await help.getByRole('tab', { name: 'Claim page' }).getAttribute('aria-selected')).toBe('true');
    // Every key of the claim page is listed: next, previous, reply, resolve.
    const keys = help.getByRole('table', { name: 'Keys of the claim page' }).getByRole('row');
    expect(await keys.allTextContents()).toEqual([
      'KeyAction',
      'jOpen the next claim of the queue',
      'kOpen the previous claim of the queue',
      'rReply to the customer',
      'dDecide: go to the resolution',
      '?Show these shortcuts',
      'EscClose this dialog',
    ]);
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    expect(problems).toEqual([]);
    await context.close();
  });
});
