import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { AdminClaimPage } from '@claims/contracts';
import { apiSession, expectAccessible, fileDemoClaim, itemIssue, heading, signIn, fileHarness } from './harness.js';

const h = fileHarness();
/** Order 1002 (Ben Ortiz, ben@example.com): the tent arrived damaged. */
let ben: { claimId: string; claimNumber: string };
/** Order 1001 (Ava Stone): the Trail Jacket never came. */
let ava: { claimId: string; claimNumber: string; token: string };

beforeAll(async () => {
  ben = await fileDemoClaim(h.baseUrl, 'acme-5002', 'REFUND', itemIssue('li-4', 'DAMAGED', 1, 'Pole snapped.'));
  ava = await fileDemoClaim(h.baseUrl, 'acme-5001', 'RESHIP', itemIssue('li-1', 'MISSING_ITEM'));
  // The queue is a read model: wait until it lists both claims.
  const agent = await apiSession(h.baseUrl, 'agent@acme.test');
  const listed = async () =>
    AdminClaimPage.parse(await (await agent.get('/api/admin/claims?limit=100')).json()).data.map((c) => c.id);
  while (!(await listed()).includes(ava.claimId)) await sleep(50);
});

const claimsTable = (page: Page) => page.getByRole('table', { name: /^Claims, / });
const rowOf = (page: Page, claimNumber: string) =>
  claimsTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: `#${claimNumber}` }) });
/** The claim's rows in the list, reloaded until they match: the read model catches up in its own time. */
const rowsOnReload = (page: Page, claimNumber: string) =>
  expect.poll(
    async () => {
      await page.reload();
      await claimsTable(page).waitFor();
      return rowOf(page, claimNumber).count();
    },
    { timeout: 10_000 },
  );

async function searchFor(page: Page, term: string): Promise<void> {
  await page.getByLabel('Search claims').fill(term);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.waitForURL((url) => url.searchParams.get('q') === term);
}

describe('working the claim queue as a team', () => {
  it('finds claims by surname, part of an email (also with a typo), item name, SKU and through a typo', async () => {
    const { page, context, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    await rowOf(page, ben.claimNumber).waitFor();

    await searchFor(page, 'Ortiz');
    await rowOf(page, ben.claimNumber).waitFor();
    expect(await rowOf(page, ava.claimNumber).count()).toBe(0);
    await page.getByText('Search: claims containing every word.').waitFor();
    await expectAccessible(page);

    await searchFor(page, 'ben@');
    await rowOf(page, ben.claimNumber).waitFor();
    expect(await claimsTable(page).locator('tbody tr').count()).toBe(1);

    await searchFor(page, 'Trail');
    await rowOf(page, ava.claimNumber).waitFor();
    expect(await rowOf(page, ben.claimNumber).count()).toBe(0);

    // A SKU, whole; part of an email with a typo in it.
    await searchFor(page, 'TENT-2P');
    await rowOf(page, ben.claimNumber).waitFor();
    expect(await claimsTable(page).locator('tbody tr').count()).toBe(1);
    await searchFor(page, 'ben@exampel');
    await page.getByText('Search: no exact match: close matches (typos forgiven).').waitFor();
    await rowOf(page, ben.claimNumber).waitFor();
    expect(await claimsTable(page).locator('tbody tr').count()).toBe(1);

    await searchFor(page, 'Ortzi');
    await page.getByText('Search: no exact match: close matches (typos forgiven).').waitFor();
    await rowOf(page, ben.claimNumber).waitFor();
    // Each row shows its status once.
    expect(await rowOf(page, ben.claimNumber).getByText('New', { exact: true }).count()).toBe(1);
    expect(await rowOf(page, ben.claimNumber).getByText('new', { exact: true }).count()).toBe(0);
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('assigns a claim to me, shows it under Assigned to me with the tab counts, then hands it to a teammate', async () => {
    const { page, context, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    // Status tabs in workflow order, with counts; Order Protection's own queue is not a merchant's tab.
    const tabs = page.getByRole('navigation', { name: 'Queues by status' }).getByRole('link');
    await expect.poll(() => tabs.first().textContent()).toMatch(/^All \d+/);
    // Each tab reads "New 1, 1 claim": its name, then its count.
    const names = (await tabs.allTextContents()).map((t) => t.split(/\s*\d/)[0]!.trim());
    expect(names.slice(0, 4)).toEqual(['All', 'New', 'Open', 'Communicating']);
    expect(names).not.toContain('Waiting for OP');

    await page.goto(`/admin/claims/view/${ben.claimId}`);
    await expect.poll(() => heading(page).textContent()).toBe(`Claim #${ben.claimNumber}`);
    const assignment = page.getByRole('region', { name: 'Assignment' });
    await assignment.getByText('Assigned to nobody').waitFor();
    await expectAccessible(page);
    await assignment.getByRole('button', { name: 'Assign to me' }).click();
    await assignment
      .getByRole('status')
      .filter({ hasText: `Claim #${ben.claimNumber} is assigned to you.` })
      .waitFor();
    await assignment.getByText('Assigned to you (Riley Agent)').waitFor();

    await page.goto('/admin/');
    await page.getByRole('navigation', { name: 'Whose claims' }).getByRole('link', { name: 'Assigned to me' }).click();
    await page.waitForURL(/assignee=me/);
    await expect.poll(() => heading(page).textContent()).toBe('All claims assigned to me');
    // The read model catches up with the assignment.
    await rowsOnReload(page, ben.claimNumber).toBe(1);
    await rowOf(page, ben.claimNumber).getByText('Riley Agent').waitFor();
    expect(await claimsTable(page).locator('tbody tr').count()).toBe(1);
    await expect
      .poll(() =>
        page.getByRole('navigation', { name: 'Queues by status' }).getByRole('link', { name: /^New/ }).textContent(),
      )
      .toMatch(/^New 1/);
    await expectAccessible(page);

    // Handed to the account's owner: no longer the agent's.
    await page.goto(`/admin/claims/view/${ben.claimId}`);
    const again = page.getByRole('region', { name: 'Assignment' });
    await again.getByLabel('Assign to').selectOption({ label: 'Alex Owner' });
    await again.getByRole('button', { name: 'Save assignment' }).click();
    await again
      .getByRole('status')
      .filter({ hasText: `Claim #${ben.claimNumber} is assigned to Alex Owner.` })
      .waitFor();
    await page.goto('/admin/?assignee=me');
    await rowsOnReload(page, ben.claimNumber).toBe(0);
    await page.getByText('No claims match these filters.').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('sorts on the server by claimed value, both ways, and by the latest customer reply, marking the rows a customer answered', async () => {
    const { page, context, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    await claimsTable(page).waitFor();
    await page.getByRole('button', { name: /^Claimed value/ }).click();
    await page.waitForURL(/sort=value/);
    expect(await page.getByRole('columnheader', { name: /Claimed value/ }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    const agent = await apiSession(h.baseUrl, 'agent@acme.test');
    const expected = async (order: 'asc' | 'desc') =>
      AdminClaimPage.parse(
        await (await agent.get(`/api/admin/claims?sort=value&order=${order}&limit=25`)).json(),
      ).data.map((c) => `#${c.claimNumber}`);
    await expect.poll(() => claimsTable(page).locator('a.row-link').allTextContents()).toEqual(await expected('desc'));
    await page.getByRole('button', { name: /^Claimed value/ }).click();
    await page.waitForURL(/order=asc/);
    await expect.poll(() => claimsTable(page).locator('a.row-link').allTextContents()).toEqual(await expected('asc'));
    await page.getByRole('table', { name: 'Claims, lowest value first' }).waitFor();

    // A word from the shopper marks the row, and puts the claim first when sorted by the latest customer reply.
    const wrote = await fetch(`${h.baseUrl}/api/claims/${ava.token}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: h.baseUrl },
      body: JSON.stringify({ messageContent: 'Any news on my jacket?' }),
    });
    expect(wrote.status).toBe(201);
    await page.goto('/admin/?sort=reply&order=desc');
    await expect
      .poll(
        async () => {
          await page.reload();
          return claimsTable(page).locator('a.row-link').first().textContent();
        },
        { timeout: 10_000 },
      )
      .toBe(`#${ava.claimNumber}`);
    await rowOf(page, ava.claimNumber).getByText('Customer replied').waitFor();
    expect(await rowOf(page, ben.claimNumber).getByText('Customer replied').count()).toBe(0);
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shares a saved view with the team: a teammate in another browser sees and opens it, and cannot delete it', async () => {
    const agentTab = await h.newPage();
    await signIn(agentTab.page, 'agent@acme.test');
    await searchFor(agentTab.page, 'Ortiz');
    await agentTab.page.getByLabel('View name').fill('Ortiz follow-up');
    await agentTab.page.getByRole('checkbox', { name: 'Share with my team' }).check();
    await agentTab.page.getByRole('button', { name: 'Save current filters' }).click();
    await agentTab.page.getByText('Saved the view "Ortiz follow-up", shared with your team.').waitFor();
    const saved = agentTab.page.getByRole('region', { name: 'Saved views' });
    await saved.getByRole('link', { name: 'Ortiz follow-up' }).waitFor();
    await expectAccessible(agentTab.page);

    // The owner, in a browser context of their own (no shared storage): the view comes from the server.
    const ownerTab = await h.newPage();
    await signIn(ownerTab.page, 'owner@acme.test');
    const theirs = ownerTab.page.getByRole('region', { name: 'Saved views' });
    await theirs.getByRole('heading', { name: 'Shared by your team' }).waitFor();
    await theirs.getByText('by Riley Agent').waitFor();
    expect(await theirs.getByRole('button', { name: /Actions for view/ }).count()).toBe(0);
    await expectAccessible(ownerTab.page);
    await theirs.getByRole('link', { name: 'Ortiz follow-up' }).click();
    await ownerTab.page.waitForURL((url) => url.searchParams.get('q') === 'Ortiz');
    await rowOf(ownerTab.page, ben.claimNumber).waitFor();
    expect(await claimsTable(ownerTab.page).locator('tbody tr').count()).toBe(1);

    // Unshared by its owner, it leaves the teammate's list.
    await saved.getByRole('button', { name: 'Actions for view Ortiz follow-up' }).click();
    await agentTab.page.getByRole('menuitem', { name: 'Stop sharing' }).click();
    await agentTab.page.getByText('The view "Ortiz follow-up" is yours alone again.').waitFor();
    await ownerTab.page.reload();
    await theirs.getByText('No saved views yet.').waitFor();
    expect(agentTab.problems).toEqual([]);
    expect(ownerTab.problems).toEqual([]);
    await agentTab.context.close();
    await ownerTab.context.close();
  });
});
