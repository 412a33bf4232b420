import { beforeAll, describe, expect, it } from 'vitest';
import {
  AdminClaimDetail,
  CLAIM_STATUS_LABELS,
  ClaimNoteList,
  ClaimStatus,
  MacroView,
  TeamMemberList,
} from '@claims/contracts';
import { statusChangeTargets } from '@claims/domain';
import { mailedInvitationToken } from '../../../services/api/test/support/invitations.js';
import {
  apiSession,
  expectAccessible,
  heading,
  fileDemoClaim,
  itemIssue,
  openTool,
  signIn,
  fileHarness,
} from './harness.js';

const h = fileHarness();
/** Order 1001 (Ava): the socks arrived damaged. */
let ava: { claimId: string; claimNumber: string };
/** Order 1010 (Jon): the rope never arrived. */
let jon: { claimId: string; claimNumber: string };

beforeAll(async () => {
  ava = await fileDemoClaim(h.baseUrl, 'acme-5001', 'REFUND', itemIssue('li-2', 'DAMAGED', 2, 'Torn.'));
  jon = await fileDemoClaim(h.baseUrl, 'acme-5010', 'RESHIP', itemIssue('li-21', 'STOLEN'));
});

const claimOf = async (session: Awaited<ReturnType<typeof apiSession>>, claimId: string) =>
  AdminClaimDetail.parse(await (await session.get(`/api/admin/claims/${claimId}`)).json());

describe('claim desk tools', () => {
  it('moves two claims to Open at once as an agent, with a result per claim', async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    const table = page.getByRole('table', { name: /Claims, newest first/ });
    await table.getByRole('link', { name: `#${ava.claimNumber}` }).waitFor();

    const bar = page.getByRole('region', { name: /selected|Bulk status change/ });
    await bar.getByText('Select claims in the table to change their status together.').waitFor();
    await table.getByRole('checkbox', { name: `Select claim #${ava.claimNumber}` }).check();
    await table.getByRole('checkbox', { name: `Select claim #${jon.claimNumber}` }).check();
    await page.getByRole('heading', { name: '2 claims selected' }).waitFor();
    const target = bar.getByLabel('Move the selected claims to');
    await expect.poll(() => target.isEnabled()).toBe(true);
    // Only statuses both claims (NEW) may move to: never their own status or ARCHIVED.
    const offered = await target.locator('option').allTextContents();
    expect(offered).toContain('Open');
    expect(offered).not.toContain('New');
    expect(offered).not.toContain('Archived');
    await expectAccessible(page);

    // Select-all on the page checks every row; clearing unchecks them.
    await table.getByRole('checkbox', { name: 'Select all claims on this page' }).check();
    const rowBoxes = table.getByRole('checkbox', { name: /^Select claim #/ });
    const count = await rowBoxes.count();
    expect(count).toBeGreaterThanOrEqual(2);
    await page.getByRole('heading', { name: `${count} claims selected` }).waitFor();
    await bar.getByRole('button', { name: 'Clear selection' }).click();
    await bar.getByText('Select claims in the table to change their status together.').waitFor();

    await table.getByRole('checkbox', { name: `Select claim #${ava.claimNumber}` }).check();
    await table.getByRole('checkbox', { name: `Select claim #${jon.claimNumber}` }).check();
    await expect.poll(() => target.isEnabled()).toBe(true);
    await target.selectOption({ label: 'Open' });
    await bar.getByLabel('Note (optional)').fill('Triaged together');
    await bar.getByRole('button', { name: 'Change status' }).click();
    await page.getByRole('status').filter({ hasText: 'Moving to Open: Changed: 2.' }).waitFor();
    const results = page.getByRole('table', { name: 'Result per claim' });
    for (const claim of [ava, jon]) {
      const row = results
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: `#${claim.claimNumber}` }) });
      await row.getByText('Changed', { exact: true }).waitFor();
    }
    await expectAccessible(page);

    const agent = await apiSession(h.baseUrl, 'agent@acme.test');
    for (const claim of [ava, jon]) expect((await claimOf(agent, claim.claimId)).status).toBe('OPEN');
    // The queue follows (the list is a read model: it catches up).
    await expect
      .poll(
        async () => {
          await page.reload();
          await table.getByRole('link', { name: `#${ava.claimNumber}` }).waitFor();
          return table
            .getByRole('row')
            .filter({ has: page.getByRole('link', { name: `#${ava.claimNumber}` }) })
            .getByText('Open', { exact: true })
            .count();
        },
        { timeout: 10_000 },
      )
      .toBe(1);
    expect(problems).toEqual([]);
  });

  it('offers for a mixed selection only the moves the transition table allows all of them, without reading each claim', async () => {
    // Ben's claim is set aside (Temporarily Dismissed); Ava's is still working (Open): they share only the moves out of the first.
    const ben = await fileDemoClaim(h.baseUrl, 'acme-5002', 'REFUND', itemIssue('li-4', 'DAMAGED'));
    const agent = await apiSession(h.baseUrl, 'agent@acme.test');
    expect(
      (await agent.post(`/api/admin/claims/${ben.claimId}/status`, { status: 'TEMPORARILY_DISMISSED' })).status,
    ).toBe(200);
    const statuses = [(await claimOf(agent, ava.claimId)).status, (await claimOf(agent, ben.claimId)).status];
    expect(statuses[1]).toBe('TEMPORARILY_DISMISSED');
    const allowed = ClaimStatus.options.filter((to) =>
      statuses.every((from) => statusChangeTargets(from).includes(to)),
    );
    expect(allowed.length).toBeGreaterThan(0);

    const { page, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    const table = page.getByRole('table', { name: /Claims, newest first/ });
    const benRow = table.getByRole('row').filter({ has: page.getByRole('link', { name: `#${ben.claimNumber}` }) });
    // The list is a read model: wait until it shows Ben's claim set aside.
    await expect
      .poll(
        async () => {
          await page.reload();
          await table.getByRole('link', { name: `#${ava.claimNumber}` }).waitFor();
          return benRow.getByText('Temporarily Dismissed', { exact: true }).count();
        },
        { timeout: 10_000 },
      )
      .toBe(1);

    const detailReads: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/admin\/claims\/[0-9a-f-]{36}(\?|$)/.test(request.url())) detailReads.push(request.url());
    });
    await table.getByRole('checkbox', { name: `Select claim #${ava.claimNumber}` }).check();
    await table.getByRole('checkbox', { name: `Select claim #${ben.claimNumber}` }).check();
    await page.getByRole('heading', { name: '2 claims selected' }).waitFor();
    const target = page.getByLabel('Move the selected claims to');
    await expect.poll(() => target.isEnabled()).toBe(true);
    const offered = (await target.locator('option').allTextContents()).slice(1);
    expect(offered).toEqual(allowed.map((s) => CLAIM_STATUS_LABELS[s]));
    expect(detailReads).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('adds a note, a label and metadata, sees them in the timeline, and fills the reply and resolve form from macros', async () => {
    // Two macros of Acme, written by the owner.
    const owner = await apiSession(h.baseUrl, 'owner@acme.test');
    const acme = owner.me.stores.find((s) => s.slug === 'acme')!;
    const reply = await owner.post(`/api/admin/stores/${acme.id}/macros`, {
      name: 'Apology',
      kind: 'reply',
      body: 'Hi {{customer.firstName}}, sorry about claim {{claim.number}}. {{agent.name}}',
    });
    expect(reply.status).toBe(201);
    MacroView.parse(await reply.json());
    const credit = await owner.post(`/api/admin/stores/${acme.id}/macros`, {
      name: 'Goodwill credit',
      kind: 'resolution',
      body: 'Credit issued.',
      resolution: {
        resolutionType: 'FLAT_RATE',
        amount: 15,
        reason: 'INSUFFICIENT_SHIPPER',
        description: 'Goodwill for {{customer.name}}',
      },
    });
    expect(credit.status).toBe(201);

    const { page, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    await page.goto(`/admin/claims/view/${ava.claimId}`);
    await expect.poll(() => heading(page).textContent()).toBe(`Claim #${ava.claimNumber}`);
    const timeline = page.getByRole('region', { name: 'Timeline' });

    // Internal note.
    const notes = page.getByRole('region', { name: 'Internal notes' });
    await notes.getByText('No notes yet.').waitFor();
    await expectAccessible(page);
    await notes.getByLabel('New internal note').fill('Called UPS: the parcel was crushed in transit.');
    await notes.getByRole('button', { name: 'Add note' }).click();
    await notes.getByText('Called UPS: the parcel was crushed in transit.').waitFor();
    await notes.getByText('Riley Agent').waitFor();
    expect(await notes.getByLabel('New internal note').inputValue()).toBe('');
    await timeline.getByRole('button', { name: /Internal note added by Riley Agent/ }).waitFor();

    // Label: add, see the chip and the history line; remove it again.
    const labels = await openTool(page, 'Labels');
    await labels.getByLabel('New label').fill('carrier-issue');
    await labels.getByRole('button', { name: 'Add label' }).click();
    await labels.getByRole('list', { name: 'Labels of this claim' }).getByText('carrier-issue').waitFor();
    await timeline.getByRole('button', { name: /Label added: carrier-issue/ }).waitFor();
    await labels.getByLabel('New label').fill('vip');
    await labels.getByRole('button', { name: 'Add label' }).click();
    await labels.getByRole('button', { name: 'Remove label vip' }).click();
    await timeline.getByRole('button', { name: /Label removed: vip/ }).waitFor();
    expect(await labels.getByRole('button', { name: 'Remove label vip' }).count()).toBe(0);

    // Metadata.
    const metadata = await openTool(page, 'Metadata');
    await metadata.getByLabel('Key', { exact: true }).fill('carrier');
    await metadata.getByLabel('Value', { exact: true }).fill('UPS');
    await metadata.getByRole('button', { name: 'Set value' }).click();
    await metadata.getByText('carrier', { exact: true }).waitFor();
    await metadata.getByText('UPS', { exact: true }).waitFor();
    await timeline.getByRole('button', { name: /Metadata carrier set/ }).waitFor();
    await expectAccessible(page);

    // Macros: a reply fills the message box, a resolution presets the resolve form.
    const macros = await openTool(page, 'Use macro');
    await macros.getByLabel('Macro').selectOption({ label: 'Apology (reply)' });
    await macros.getByRole('button', { name: 'Use macro' }).click();
    await macros.getByText('"Apology" was put in the message box; review it before sending.').waitFor();
    await expect
      .poll(() => page.getByLabel('Message to the customer').inputValue())
      .toBe(`Hi Ava, sorry about claim ${ava.claimNumber}. Riley Agent`);
    await macros.getByLabel('Macro').selectOption({ label: 'Goodwill credit (resolution)' });
    await macros.getByRole('button', { name: 'Use macro' }).click();
    const resolve = page.getByRole('region', { name: 'Resolve claim' });
    // A macro's amount is one for the whole claim.
    await expect.poll(() => resolve.getByLabel('Resolution type').inputValue()).toBe('FLAT_RATE');
    expect(await resolve.getByLabel('One amount for the whole claim').isChecked()).toBe(true);
    expect(await resolve.getByLabel(/^Amount/).inputValue()).toBe('15');
    expect(await resolve.getByLabel('Reason (optional)').inputValue()).toBe('INSUFFICIENT_SHIPPER');
    expect(await resolve.getByLabel('Note (optional)').inputValue()).toMatch(/^Goodwill for Ava/);
    // The reply typed from the first macro stays in the message box.
    expect(await page.getByLabel('Message to the customer').inputValue()).toContain('Hi Ava');
    await expectAccessible(page);

    const agent = await apiSession(h.baseUrl, 'agent@acme.test');
    const stored = ClaimNoteList.parse(await (await agent.get(`/api/admin/claims/${ava.claimId}/notes`)).json());
    expect(stored.data.map((n) => n.body)).toEqual(['Called UPS: the parcel was crushed in transit.']);
    const claim = await claimOf(agent, ava.claimId);
    expect(claim.labels).toEqual(['carrier-issue']);
    expect(claim.metadata).toEqual({ carrier: 'UPS' });
    expect(problems).toEqual([]);
  });

  it('lets the owner invite a member (the token goes to the invitee only), change their role and remove them', async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'owner@acme.test');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Team' }).click();
    await page.waitForURL('**/admin/team');
    await expect.poll(() => heading(page).textContent()).toMatch(/^Team of /);
    expect(await nav.getByRole('link', { name: 'Team' }).getAttribute('aria-current')).toBe('page');
    const members = page.getByRole('table', { name: /^Members of / });
    await members.getByRole('rowheader', { name: /Riley Agent/ }).waitFor();
    // Nobody changes their own membership.
    const self = members.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /Alex Owner/ }) });
    expect(await self.getByRole('button').count()).toBe(0);
    await expectAccessible(page);

    const invite = page.getByRole('region', { name: 'Invite a member' });
    await invite.getByLabel('Email').fill('nia@acme.test');
    await invite.getByLabel('Name').fill('Nia New');
    await invite.getByLabel('Role').selectOption({ label: 'Store support' });
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invitation created' });
    await dialog.waitFor();
    // The inviter never sees the token: only the invitee receives it.
    await dialog.getByText(/nia@acme\.test is mailed a one-time link to set their password/).waitFor();
    expect(await dialog.getByLabel('Invitation token').count()).toBe(0);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const nia = members.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Nia New' }) });
    await nia.getByText('invited', { exact: true }).waitFor();
    await nia.getByRole('cell', { name: 'Store support', exact: true }).waitFor();

    // The invitation is real: its link (the token the invitee's mail would carry) sets their password and signs them in.
    const token = await mailedInvitationToken(h.runtime, 'nia@acme.test');
    const invitee = await h.newPage([{ status: 404, path: '/api/auth/invitations/accept' }]);
    await invitee.page.goto(`/admin/accept-invitation#${token}`);
    await expect.poll(() => heading(invitee.page).textContent()).toBe('Accept your invitation');
    await expectAccessible(invitee.page);
    await invitee.page.getByLabel('Password', { exact: true }).fill('too-short');
    await invitee.page.getByRole('button', { name: 'Accept and sign in' }).click();
    await invitee.page.getByText('Use at least 12 characters.').waitFor();
    await invitee.page.getByLabel('Password', { exact: true }).fill('a-long-new-password');
    await invitee.page.getByLabel('Password again').fill('a-long-new-password');
    await invitee.page.getByRole('button', { name: 'Accept and sign in' }).click();
    await invitee.page.waitForURL((url) => url.pathname === '/admin/' || url.pathname === '/admin');
    await invitee.page.getByRole('table', { name: /Claims, newest first/ }).waitFor();
    expect(new URL(invitee.page.url()).hash).toBe('');
    // The link works once.
    await invitee.page.goto(`/admin/accept-invitation#${token}`);
    await invitee.page.getByLabel('Password', { exact: true }).fill('another-long-password');
    await invitee.page.getByLabel('Password again').fill('another-long-password');
    await invitee.page.getByRole('button', { name: 'Accept and sign in' }).click();
    await invitee.page
      .getByText('This invitation is unknown, used or expired. Ask the person who invited you for a new one.')
      .waitFor();
    expect(invitee.problems).toEqual([]);

    await nia.getByLabel('Role for Nia New').selectOption({ label: 'Store user' });
    await nia.getByRole('button', { name: 'Change role of Nia New' }).click();
    await page.getByRole('status').filter({ hasText: 'Nia New is now Store user.' }).waitFor();
    const remove = nia.getByRole('button', { name: 'Remove Nia New' });
    await remove.click();
    const confirm = page.getByRole('dialog', { name: 'Remove Nia New?' });
    await confirm.waitFor();
    await expectAccessible(page);
    // The dialog keeps the focus: Cancel has it first, Tab wraps inside, Escape closes and hands it back to the opener.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    for (const key of ['Tab', 'Tab', 'Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      expect(
        await page.evaluate(
          () =>
            document.querySelector('[role="dialog"]')?.contains(document.activeElement) === true &&
            document.activeElement?.tagName === 'BUTTON',
        ),
      ).toBe(true);
    }
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'hidden' });
    await expect.poll(() => remove.evaluate((button) => button === document.activeElement)).toBe(true);
    await remove.click();
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Remove member' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Nia New was removed from/ })
      .waitFor();
    await expect.poll(() => members.getByRole('rowheader', { name: 'Nia New' }).count()).toBe(0);

    const owner = await apiSession(h.baseUrl, 'owner@acme.test');
    const acme = owner.me.stores.find((s) => s.slug === 'acme')!;
    const team = TeamMemberList.parse(await (await owner.get(`/api/admin/stores/${acme.id}/team-members`)).json());
    expect(team.data.some((m) => m.email === 'nia@acme.test')).toBe(false);
    expect(problems).toEqual([]);
  });

  it('lets the owner create an API token (shown once) and revoke it, after which it gets 401', async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'owner@acme.test');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API tokens' }).click();
    await page.waitForURL('**/admin/api-tokens');
    await expect.poll(() => heading(page).textContent()).toMatch(/^API tokens of /);
    await page.getByText('No tokens yet.').waitFor();
    await expectAccessible(page);

    const form = page.getByRole('region', { name: 'Create a token' });
    await form.getByRole('button', { name: 'Create token' }).click();
    await form.getByText('Name the token (up to 100 characters).').waitFor();
    await form.getByLabel('Token name').fill('Warehouse sync');
    await form.getByLabel('Filter permissions').fill('claim:read');
    await form.getByRole('checkbox', { name: 'claim:read' }).check();
    // Only the owner's own permissions are offered: nothing internal.
    await form.getByLabel('Filter permissions').fill('finance');
    expect(await form.getByRole('checkbox').count()).toBe(0);
    await form.getByLabel('Filter permissions').fill('');
    await form.getByRole('button', { name: 'Create token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Token created' });
    await dialog.waitFor();
    const token = await dialog.getByLabel('API token', { exact: true }).inputValue();
    expect(token).toMatch(/^opk_/);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Done' }).click();

    const use = () => fetch(`${h.baseUrl}/api/v1/claims`, { headers: { authorization: `Bearer ${token}` } });
    expect((await use()).status).toBe(200);

    const tokens = page.getByRole('table', { name: /^API tokens of / });
    const row = tokens.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Warehouse sync' }) });
    await row.getByText('active', { exact: true }).waitFor();
    await row.getByText('1 permission').waitFor();
    expect(await page.getByLabel('API token', { exact: true }).count()).toBe(0);
    await row.getByRole('button', { name: 'Revoke Warehouse sync' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke "Warehouse sync"?' });
    await confirm.waitFor();
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Revoke token' }).click();
    await page.getByRole('status').filter({ hasText: 'The token "Warehouse sync" was revoked' }).waitFor();
    await row.getByText('revoked', { exact: true }).waitFor();
    expect((await use()).status).toBe(401);
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });

  it('offers a viewer (store_user) only what the role holds: notes and status, no labels, macros, team or tokens', async () => {
    const viewer = await apiSession(h.baseUrl, 'viewer@acme.test');
    const acme = viewer.me.stores.find((s) => s.slug === 'acme')!;
    const { page, problems } = await h.newPage();
    await signIn(page, 'viewer@acme.test');
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Team' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'API tokens' }).count()).toBe(0);
    // The bulk bar follows claim:update, the notes form claim-note:create (store_user holds both in contracts/src/permissions.ts).
    const table = page.getByRole('table', { name: /Claims, newest first/ });
    await table.getByRole('link', { name: `#${jon.claimNumber}` }).waitFor();
    expect((await page.getByRole('checkbox', { name: /^Select claim #/ }).count()) > 0).toBe(
      acme.permissions.includes('claim:update'),
    );
    if (acme.permissions.includes('claim:update')) {
      // Closing settles a claim's fate and needs claim:resolve, which the viewer lacks: the bar never offers it.
      expect(acme.permissions).not.toContain('claim:resolve');
      await table.getByRole('checkbox', { name: `Select claim #${jon.claimNumber}` }).check();
      const target = page.getByLabel('Move the selected claims to');
      await expect.poll(() => target.isEnabled()).toBe(true);
      const offered = await target.locator('option').allTextContents();
      expect(offered).toContain('Open');
      expect(offered).not.toContain('Closed');
      expect(offered).not.toContain('Dismissed');
    }
    await page.goto(`/admin/claims/view/${jon.claimId}`);
    await expect.poll(() => heading(page).textContent()).toBe(`Claim #${jon.claimNumber}`);
    await openTool(page, 'Labels');
    expect(await page.getByLabel('New label').count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Use macro' }).count()).toBe(0);
    expect((await page.getByLabel('New internal note').count()) > 0).toBe(
      acme.permissions.includes('claim-note:create'),
    );
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });

  it('offers a user without claim:update or claim-note permissions no bulk bar and no notes form', async () => {
    const finance = await apiSession(h.baseUrl, 'finance@orderprotection.test');
    expect(finance.me.permissions).not.toContain('claim:update');
    expect(finance.me.permissions).not.toContain('claim-note:create');
    const { page, problems } = await h.newPage();
    await signIn(page, 'finance@orderprotection.test');
    const table = page.getByRole('table', { name: /Claims, newest first/ });
    await table.getByRole('link', { name: `#${jon.claimNumber}` }).waitFor();
    expect(await page.getByRole('checkbox', { name: /^Select / }).count()).toBe(0);
    expect(await page.getByLabel('Move the selected claims to').count()).toBe(0);
    expect(await page.getByText('Select claims in the table to change their status together.').count()).toBe(0);
    await page.goto(`/admin/claims/view/${jon.claimId}`);
    await expect.poll(() => heading(page).textContent()).toBe(`Claim #${jon.claimNumber}`);
    await page.getByRole('region', { name: 'Timeline' }).waitFor();
    expect(await page.getByRole('region', { name: 'Internal notes' }).count()).toBe(0);
    expect(await page.getByLabel('New internal note').count()).toBe(0);
    expect(await page.getByLabel('New label').count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Use macro' }).count()).toBe(0);
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });
});
