import { beforeAll, describe, expect, it } from 'vitest';
import { AdminClaimDetail, AdminClaimPage, TimelineResponse } from '@claims/contracts';
import {
  PASSWORD,
  apiSession,
  expectAccessible,
  heading,
  fileDemoClaim,
  itemIssue,
  openTool,
  signIn,
  solidPng,
  uploadPhoto,
  openUserMenu,
  fileHarness,
} from './harness.js';

const h = fileHarness();
/** The sidebar's groups and links as each role sees them: a store owner, a store's read-only user, Order Protection's admin. */
const OWNER_SIDEBAR = [
  'Claims: Claims, Returns, Reviews',
  'Insights: Analytics',
  'Money: Invoices, Payment methods, Store credit',
  'Automation: Rules, Macros, SOPs',
  'Integrations: Webhooks, API tokens',
  'Settings: Settings, Branding, A/B tests',
  'Team: Team',
];
const VIEWER_SIDEBAR = [
  'Claims: Claims, Returns, Reviews',
  'Insights: Analytics',
  'Money: Store credit',
  'Automation: Rules, Macros, SOPs',
  'Settings: Settings, Branding',
];
const ADMIN_SIDEBAR = [
  'Claims: Claims, Returns, Reviews',
  'Insights: Analytics, Operations',
  'Money: Invoices, Payment methods, Finance, Store credit',
  'Automation: Rules, Macros, SOPs',
  'Integrations: Webhooks, API tokens',
  'Settings: Settings, Branding, A/B tests, Onboarding',
  'Team: Team, Support users',
];
/** Order 1001 (Ava, USD): two of three socks and the mug damaged, two photos of the socks. */
let ava: { claimId: string; claimNumber: string };
/** Order 1010 (Jon, USD): the rope never arrived — used for the version conflict. */
let jon: { claimId: string; claimNumber: string };
/** Order K-2001 (Kumo Tea, JPY). */
let ivy: { claimId: string; claimNumber: string };

beforeAll(async () => {
  const avasOrder = { orderNumber: '1001', email: 'ava@example.com' };
  const red = await uploadPhoto(h.baseUrl, avasOrder, 'socks-1.png', solidPng(320, 200, [200, 30, 30]));
  const blue = await uploadPhoto(h.baseUrl, avasOrder, 'socks-2.png', solidPng(200, 320, [30, 60, 200]));
  ava = await fileDemoClaim(
    h.baseUrl,
    'acme-5001',
    'REFUND',
    {
      sourceItemId: 'li-2',
      claimType: 'DAMAGED',
      quantity: 2,
      details: 'Two socks arrived torn.',
      images: [{ url: red }, { url: blue }],
    },
    { sourceItemId: 'li-3', claimType: 'DAMAGED', quantity: 1, details: 'Chipped enamel.' },
  );
  jon = await fileDemoClaim(h.baseUrl, 'acme-5010', 'RESHIP', itemIssue('li-21', 'STOLEN'));
  ivy = await fileDemoClaim(h.baseUrl, 'kumo-9001', 'RESHIP', itemIssue('k-1', 'DAMAGED', 2, 'Crushed tins.'));
});

describe('back-office claim desk', () => {
  it('signs an agent in, works the queue, opens, resolves and reads the timeline of a claim, then signs out', async () => {
    const { page, context, problems } = await h.newPage([{ status: 401, path: '/api/auth/login' }]);

    // Sign-in: the queue redirects there; a wrong password is announced.
    await page.goto('/admin/');
    await page.waitForURL('**/admin/sign-in?redirect=**');
    await expect.poll(() => heading(page).textContent()).toBe('Sign in to the claim desk');
    await expectAccessible(page);
    await page.getByLabel('Email').fill('agent@acme.test');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'The email or password is not right.' }).waitFor();
    await expectAccessible(page);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/');
    await expect.poll(() => heading(page).textContent()).toBe('All claims');
    await page.getByText('Riley Agent').waitFor();

    // The queue: the new claim with its status once; Kumo's claim is another tenant's.
    const table = page.getByRole('table', { name: /Claims, newest first/ });
    const avaRow = table.getByRole('row').filter({ has: page.getByRole('link', { name: `#${ava.claimNumber}` }) });
    await avaRow.waitFor();
    await avaRow.getByText('New', { exact: true }).waitFor();
    expect(await table.getByRole('link', { name: `#${ivy.claimNumber}` }).count()).toBe(0);
    const statusTabs = page.getByRole('navigation', { name: 'Queues by status' });
    expect(await statusTabs.getByRole('link', { name: /^New\b/ }).count()).toBe(1);
    await expectAccessible(page);

    // Filters live in the URL and go to the server.
    await statusTabs.getByRole('link', { name: /^New\b/ }).click();
    await page.waitForURL('**/admin/?status=NEW');
    await expect.poll(() => heading(page).textContent()).toBe('New claims');
    await page.getByLabel('Search claims').fill('ava@example.com');
    await page.getByLabel('Claim type').selectOption('DAMAGED');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/q=ava%40example\.com/);
    expect(new URL(page.url()).searchParams.get('type')).toBe('DAMAGED');
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await page.getByText('Showing 1 claim matching the filters.').waitFor();
    await page.reload();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    expect(await page.getByLabel('Search claims').inputValue()).toBe('ava@example.com');
    await expectAccessible(page);

    // Column choice survives a reload.
    await page.getByText('Columns', { exact: true }).click();
    await page.getByRole('checkbox', { name: 'Protection' }).uncheck();
    expect(await table.getByRole('columnheader', { name: 'Protection' }).count()).toBe(0);
    await page.reload();
    await table.getByRole('link', { name: `#${ava.claimNumber}` }).waitFor();
    expect(await table.getByRole('columnheader', { name: 'Protection' }).count()).toBe(0);
    expect(await table.getByRole('columnheader', { name: 'Requested' }).count()).toBe(1);

    // A saved view.
    await page.getByLabel('View name').fill('Ava damaged');
    await page.getByRole('button', { name: 'Save current filters' }).click();
    await page.getByText('Saved the view "Ava damaged".').waitFor();
    await statusTabs.getByRole('link', { name: /^All\b/ }).click();
    await page.waitForURL((url) => url.pathname === '/admin/' && !url.search.includes('status'));
    await page.getByRole('link', { name: 'Ava damaged' }).click();
    await page.waitForURL(/status=NEW/);
    await expect.poll(() => table.getByRole('row').count()).toBe(2);

    // CSV export of the filtered list, walking the cursor.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csv = await (await download.createReadStream()).toArray();
    const text = Buffer.concat(csv).toString('utf8');
    expect(text.split('\r\n')[0]).toContain('Claim number,Status,State,Claim type');
    expect(text).toContain(`${ava.claimNumber},New,new,Damaged,Acme Outfitters,1001`);
    expect(text.trim().split('\r\n')).toHaveLength(2);
    await page.getByText('Export finished: 1 claim.').waitFor();

    // Keyboard: ? opens the help, j moves, Enter opens.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    await page.keyboard.press('j');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe(`#${ava.claimNumber}`);
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/admin/claims/view/${ava.claimId}`);

    // The claim view with the spec's sections.
    await expect.poll(() => heading(page).textContent()).toBe(`Claim #${ava.claimNumber}`);
    for (const name of [
      'Resolve claim',
      'Customer Claim',
      'Item Issue(s)',
      'Order and shipping',
      'Flags',
      'Resolution Details',
      'Reshipment (Items)',
      'Timeline',
    ]) {
      await page.getByRole('heading', { level: 2, name, exact: true }).waitFor();
    }
    const customerClaim = page.getByRole('region', { name: 'Customer Claim' });
    for (const term of ['Claim ID', 'Order ID', 'Filed On', 'Requested Resolution', 'Shipping Address Change']) {
      await customerClaim.getByText(term, { exact: true }).waitFor();
    }
    await customerClaim.getByText('Refund', { exact: true }).waitFor();
    await page.getByText('protected', { exact: true }).waitFor();
    await page.getByRole('region', { name: 'Item Issue(s)' }).getByText('$18.000').waitFor();
    await page.getByText('Not resolved yet.').waitFor();
    await expectAccessible(page);

    // Photos in the lightbox: prev/next, zoom, rotate, reset, Escape.
    await page.getByRole('button', { name: 'Photo 1 of Merino Socks' }).click();
    const lightbox = page.getByRole('dialog', { name: 'Photos of Merino Socks' });
    await lightbox.waitFor();
    await lightbox.getByText('Image 1 of 2').waitFor();
    await lightbox.getByRole('img', { name: 'Photo 1 of Merino Socks' }).waitFor();
    expect(await lightbox.getByRole('button', { name: 'Previous image' }).isDisabled()).toBe(true);
    await expectAccessible(page);
    await lightbox.getByRole('button', { name: 'Next image' }).click();
    await lightbox.getByText('Image 2 of 2').waitFor();
    expect(await lightbox.getByRole('button', { name: 'Next image' }).isDisabled()).toBe(true);
    await page.keyboard.press('ArrowLeft');
    await lightbox.getByText('Image 1 of 2').waitFor();
    await lightbox.getByRole('button', { name: 'Zoom in' }).click();
    await lightbox.getByRole('button', { name: 'Rotate right' }).click();
    await lightbox.getByText('Zoom 112% · rotated 90°').waitFor();
    await page.keyboard.press('-');
    await lightbox.getByText('Zoom 100% · rotated 90°').waitFor();
    await lightbox.getByRole('button', { name: 'Reset size' }).click();
    await lightbox.getByText('Zoom 100% · rotated 0°').waitFor();
    await page.keyboard.press('Escape');
    await lightbox.waitFor({ state: 'hidden' });

    // Resolve: a refund of one of the two socks and the mug.
    const resolve = page.getByRole('region', { name: 'Resolve claim' });
    await resolve.getByLabel('Set every undecided item to').selectOption('REFUND');
    const socks = resolve.getByRole('group', { name: 'Merino Socks × 2' });
    const mug = resolve.getByRole('group', { name: 'Enamel Camp Mug × 1' });
    await socks.getByLabel('Quantity').fill('1');
    await socks.getByLabel('Reason (optional)').selectOption('INSUFFICIENT_SHIPPER');
    await mug.getByLabel('Reason (optional)').selectOption('INSUFFICIENT_SHIPPER');
    await resolve.getByRole('button', { name: 'Review decision' }).click();
    await resolve.getByRole('button', { name: 'Confirm and resolve claim' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Claim #${ava.claimNumber} was resolved.` })
      .waitFor();
    expect(await page.getByRole('region', { name: 'Resolve claim' }).count()).toBe(0);
    const details = page.getByRole('region', { name: 'Resolution Details' });
    await details.getByText('Provided Resolution').waitFor();
    await details.getByText('Refund', { exact: true }).waitFor();
    await details.getByText('Riley Agent').waitFor();
    for (const term of ['Shipping', 'Total Value To Customer', 'Total Reimbursed', 'Items', 'Taxes', 'Subtotal']) {
      await details.getByText(term, { exact: true }).waitFor();
    }
    const agent = await apiSession(h.baseUrl, 'agent@acme.test');
    const resolved = AdminClaimDetail.parse(await (await agent.get(`/api/admin/claims/${ava.claimId}`)).json());
    expect(resolved.status).toBe('RESOLVED');
    expect(resolved.resolutions.map((r) => [r.quantity, r.reason])).toEqual([
      [1, 'INSUFFICIENT_SHIPPER'],
      [1, 'INSUFFICIENT_SHIPPER'],
    ]);
    const subtotal = resolved.resolutions.reduce((sum, r) => sum + r.paidValue, 0);
    await details
      .getByText(new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(subtotal), {
        exact: true,
      })
      .first()
      .waitFor();
    await page.getByText('resolved', { exact: false }).first().waitFor();
    await expectAccessible(page);

    // Timeline: every event with actor and time; an entry shows the claim as of then.
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await timeline.getByRole('button', { name: /Claim resolved: Refund.*Riley Agent/ }).waitFor();
    const filed = timeline.getByRole('button', { name: /Claim filed.*Customer/ });
    await filed.click();
    expect(await filed.getAttribute('aria-pressed')).toBe('true');
    await page.waitForURL(/v=1/);
    const asOf = timeline.getByRole('region', { name: /State as of version 1/ });
    await asOf.getByText('New', { exact: true }).waitFor();
    // With the server's as-of view (GET …?asOf=1) the whole claim of then is shown, else the status from the history.
    const past = await agent.get(`/api/admin/claims/${ava.claimId}?asOf=1`);
    const serverHasAsOf = past.ok && AdminClaimDetail.parse(await past.json()).version === 1;
    if (serverHasAsOf) {
      await asOf.getByText('None', { exact: true }).waitFor();
      await asOf.getByText('Merino Socks × 2, Enamel Camp Mug × 1').waitFor();
    } else {
      await asOf.getByText(/needs the server's as-of view/).waitFor();
    }
    const history = TimelineResponse.parse(await (await agent.get(`/api/admin/claims/${ava.claimId}/timeline`)).json());
    expect(history.data.filter((e) => e.source === 'claim').map((e) => e.eventType)).toEqual([
      'ClaimFiled',
      'ClaimResolved',
    ]);
    await expectAccessible(page);

    // Status moves are limited to the allowed ones; a message to the customer.
    const status = await openTool(page, 'Change status');
    const options = await status.getByLabel('New status').locator('option').allTextContents();
    expect(options).toEqual(['Choose a status', 'Closed', 'Archived']);
    await page.getByLabel('Message to the customer').fill('We have refunded one pair of socks and the mug.');
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('We have refunded one pair of socks and the mug.', { exact: true }).last().waitFor();
    await timeline.getByRole('button', { name: /Message from Riley Agent/ }).waitFor();

    // The spec's order-shaped link lands on the order's claim.
    await page.goto('/admin/claims/view/1001');
    await page.waitForURL(`**/admin/claims/view/${ava.claimId}`);
    await expect.poll(() => heading(page).textContent()).toBe(`Claim #${ava.claimNumber}`);

    // Sign out.
    await (await openUserMenu(page)).getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/admin/sign-in?signedOut=1');
    await page.getByText('You have signed out.').waitFor();
    await page.goto('/admin/');
    await page.waitForURL('**/admin/sign-in?redirect=**');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('pages the queue with Load more (keyset), sorts by filed date and exports every page', async () => {
    const { page, context, problems } = await h.newPage();
    const agent = await apiSession(h.baseUrl, 'agent@acme.test');
    const all = AdminClaimPage.parse(await (await agent.get('/api/admin/claims?limit=100')).json()).data;
    expect(all.length).toBeGreaterThanOrEqual(3);
    await signIn(page, 'agent@acme.test');
    await page.goto('/admin/?size=1');
    const table = page.getByRole('table', { name: /^Claims, (newest|oldest) first/ });
    const bodyRows = table.locator('tbody tr');
    await expect.poll(() => bodyRows.count()).toBe(1);
    for (let loaded = 1; loaded < all.length; loaded++) {
      await page.getByRole('button', { name: 'Load more' }).click();
      await expect.poll(() => bodyRows.count()).toBe(loaded + 1);
    }
    await page.getByText(`Showing ${all.length} claims.`).waitFor();
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    expect(await bodyRows.locator('a.row-link').allTextContents()).toEqual(all.map((c) => `#${c.claimNumber}`));

    // Oldest first, sorted by the server over every claim; the header says so.
    await page.getByRole('button', { name: /^Filed/ }).click();
    await page.waitForURL(/order=asc/);
    expect(await page.getByRole('columnheader', { name: /Filed/ }).getAttribute('aria-sort')).toBe('ascending');
    // A new order is a new list from its first page: the oldest claim of all, then each next one.
    await expect.poll(() => bodyRows.locator('a.row-link').allTextContents()).toEqual([`#${all.at(-1)!.claimNumber}`]);
    for (let loaded = 1; loaded < all.length; loaded++) {
      await page.getByRole('button', { name: 'Load more' }).click();
      await expect.poll(() => bodyRows.count()).toBe(loaded + 1);
    }
    expect(await bodyRows.locator('a.row-link').allTextContents()).toEqual(
      [...all].reverse().map((c) => `#${c.claimNumber}`),
    );
    await expectAccessible(page);

    // The export walks the cursor one page at a time here (size=1) and reports its progress.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const text = Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8');
    expect(text.trim().split('\r\n')).toHaveLength(all.length + 1);
    await page.getByText(`Export finished: ${all.length} claims.`).waitFor();

    await page.getByLabel('Rows per page').selectOption('10');
    await page.waitForURL(/size=10/);
    await expect.poll(() => bodyRows.count()).toBe(Math.min(10, all.length));
    expect(problems).toEqual([]);
    await context.close();
  });

  it('tells the agent when someone else changed the claim first (409 version_conflict) and reloads it', async () => {
    const { page, context, problems } = await h.newPage([
      { status: 409, path: `/api/admin/claims/${jon.claimId}/resolve` },
    ]);
    await signIn(page, 'agent@acme.test');
    await page.goto(`/admin/claims/view/${jon.claimId}`);
    await expect.poll(() => heading(page).textContent()).toBe(`Claim #${jon.claimNumber}`);
    const resolve = page.getByRole('region', { name: 'Resolve claim' });
    const rope = resolve.getByRole('group', { name: 'Climbing Rope 30m × 1' });
    await rope.getByLabel('Decision').selectOption('RESHIP');
    // A reshipment takes a quantity, no share of the value.
    await rope.getByLabel('Quantity').waitFor();
    expect(await rope.getByLabel('Percentage').count()).toBe(0);
    await resolve.getByRole('button', { name: 'Review decision' }).click();

    // Meanwhile another agent moves it on.
    const other = await apiSession(h.baseUrl, 'owner@acme.test');
    expect((await other.post(`/api/admin/claims/${jon.claimId}/status`, { status: 'OPEN' })).status).toBe(200);

    await resolve.getByRole('button', { name: 'Confirm and resolve claim' }).click();
    const conflict = page.getByRole('alert').filter({ hasText: 'This claim changed while you were working on it.' });
    await conflict.waitFor();
    await expectAccessible(page);
    await conflict.getByRole('button', { name: 'Reload claim' }).click();
    await conflict.waitFor({ state: 'hidden' });
    await page.getByText('Open', { exact: true }).first().waitFor();
    await resolve.getByRole('group', { name: 'Climbing Rope 30m × 1' }).getByLabel('Decision').selectOption('RESHIP');
    await resolve.getByRole('button', { name: 'Review decision' }).click();
    await resolve.getByRole('button', { name: 'Confirm and resolve claim' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Claim #${jon.claimNumber} was resolved.` })
      .waitFor();
    await page.getByRole('region', { name: 'Reshipment (Items)' }).getByText('Climbing Rope 30m × 1').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('offers a viewer (store_user) no resolve or message controls', async () => {
    const { page, context, problems } = await h.newPage();
    await signIn(page, 'viewer@acme.test');
    await page.getByRole('link', { name: `#${jon.claimNumber}` }).click();
    await expect.poll(() => heading(page).textContent()).toBe(`Claim #${jon.claimNumber}`);
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    await page.getByRole('heading', { name: 'Customer Claim' }).waitFor();
    expect(await page.getByRole('button', { name: /Resolve claim|Deny claim/ }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Resolve claim' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Send message' }).count()).toBe(0);
    // store_user may update claims, but closing, denying or resolving decides a claim's fate (claim:resolve).
    const status = await openTool(page, 'Change status');
    const offered = (await status.getByLabel('New status').locator('option').allTextContents()).filter(
      (o) => o !== 'Choose a status',
    );
    expect(offered.filter((o) => ['Closed', 'Denied', 'Resolved', 'Approved', 'Dismissed'].includes(o))).toEqual([]);
    const move = offered[0]!;
    await status.getByLabel('New status').selectOption({ label: move });
    await status.getByLabel('Note (optional)').fill('Moved after the reshipment went out.');
    await status.getByRole('button', { name: 'Change status' }).click();
    // (An archived claim has no further move, so the form itself may go; the history says what happened.)
    await page
      .getByRole('region', { name: 'Timeline' })
      .getByRole('button', { name: new RegExp(`Status changed from .* to ${move}.*Vic Viewer`) })
      .waitFor();
    await expectAccessible(page);
    await (await openUserMenu(page)).getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/admin/sign-in?signedOut=1');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('groups the sidebar by job, showing each role only the pages it may use', async () => {
    const sidebarOf = async (email: string) => {
      const { page, context, problems } = await h.newPage();
      await signIn(page, email);
      const groups = await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('list')
        .evaluateAll((lists) =>
          lists.map((list) => {
            const title = document.getElementById(list.getAttribute('aria-labelledby') ?? '')?.textContent;
            return `${title}: ${[...list.querySelectorAll('a')].map((a) => a.textContent).join(', ')}`;
          }),
        );
      expect(problems).toEqual([]);
      await context.close();
      return groups;
    };
    expect(await sidebarOf('owner@acme.test')).toEqual(OWNER_SIDEBAR);
    expect(await sidebarOf('viewer@acme.test')).toEqual(VIEWER_SIDEBAR);
    expect(await sidebarOf('admin@orderprotection.test')).toEqual(ADMIN_SIDEBAR);
  });

  it('folds the sidebar behind Menu on a phone, and remembers the dark theme chosen in the user menu', async () => {
    const { page, context, problems } = await h.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, 'agent@acme.test');
    const nav = page.getByRole('navigation', { name: 'Main' });
    const menu = page.getByRole('button', { name: 'Menu' });
    expect([await menu.getAttribute('aria-expanded'), await nav.isVisible()]).toEqual(['false', false]);
    await menu.click();
    expect([await menu.getAttribute('aria-expanded'), await nav.isVisible()]).toEqual(['true', true]);
    await expectAccessible(page);
    await nav.getByRole('link', { name: 'Claims' }).click();
    expect(await nav.isVisible()).toBe(false);

    await page.setViewportSize({ width: 1280, height: 900 });
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    expect(await theme()).toBe('light');
    const toggle = (await openUserMenu(page)).getByRole('switch', { name: 'Dark theme' });
    await toggle.click();
    expect([await toggle.getAttribute('aria-checked'), await theme()]).toEqual(['true', 'dark']);
    const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect(await background()).toBe('rgb(17, 24, 39)');
    await page.reload();
    await heading(page).waitFor();
    expect(await theme()).toBe('dark');
    await expectAccessible(page);
    await (await openUserMenu(page)).getByRole('switch', { name: 'Dark theme' }).click();
    expect([await theme(), await background()]).toEqual(['light', 'rgb(255, 255, 255)']);
    await page.keyboard.press('Escape');
    expect(await page.getByRole('button', { name: /^Account: / }).getAttribute('aria-expanded')).toBe('false');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('sends the user to sign in when the session ends, and back to the claim afterwards', async () => {
    const { page, context, problems } = await h.newPage([{ status: 401, path: '/api/admin/claims/' }]);
    await signIn(page, 'viewer@acme.test');
    await context.clearCookies();
    await page.getByRole('link', { name: `#${ava.claimNumber}` }).click();
    await page.waitForURL('**/admin/sign-in?redirect=**');
    await page.getByLabel('Email').fill('viewer@acme.test');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`**/admin/claims/view/${ava.claimId}`);
    await expect.poll(() => heading(page).textContent()).toBe(`Claim #${ava.claimNumber}`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows yen without decimals to the Kumo owner', async () => {
    const { page, context, problems } = await h.newPage();
    await signIn(page, 'owner@kumo.test');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: `#${ivy.claimNumber}` }) });
    await row.getByText('¥5,184').waitFor();
    await row.getByRole('link').click();
    await expect.poll(() => heading(page).textContent()).toBe(`Claim #${ivy.claimNumber}`);
    await page.getByRole('region', { name: 'Item Issue(s)' }).getByText('¥2,400', { exact: true }).waitFor();
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('announces the lockout after repeated failed sign-ins (429)', async () => {
    const { page, context, problems } = await h.newPage([
      { status: 401, path: '/api/auth/login' },
      { status: 429, path: '/api/auth/login' },
    ]);
    await page.goto('/admin/sign-in');
    await page.getByLabel('Email').fill('nobody@acme.test');
    await page.getByLabel('Password').fill('wrong-password');
    for (let attempt = 1; attempt <= 5; attempt++) {
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await page.getByRole('alert').waitFor();
    }
    await page.getByRole('alert').filter({ hasText: 'Too many failed sign-ins for this email.' }).waitFor();
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('serves the back-office under /admin/ with the security headers, next to the portal and the API', async () => {
    const html = await fetch(`${h.baseUrl}/admin/claims/view/anything`);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toContain('text/html');
    expect(html.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(html.headers.get('x-frame-options')).toBe('DENY');
    expect(await html.text()).toContain('/admin/assets/');
    const bare = await fetch(`${h.baseUrl}/admin?x=1`, { redirect: 'manual' });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/admin/?x=1');
    expect((await fetch(`${h.baseUrl}/admin/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${h.baseUrl}/admin/../../etc/passwd`)).status).not.toBe(500);
    const portal = await fetch(`${h.baseUrl}/start`);
    expect(await portal.text()).not.toContain('/admin/assets/');
    const api = await fetch(`${h.baseUrl}/api/nothing-here`);
    expect(await api.json()).toMatchObject({ error: 'route_not_found' });
  });
});
