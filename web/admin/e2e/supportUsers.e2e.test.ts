import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TeamMemberList } from '@claims/contracts';
import { mailedInvitationToken } from '../../../services/api/test/support/invitations.js';
import { apiSession, expectAccessible, heading, signIn, startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.stop();
});

describe('support users', () => {
  it('lets the support admin invite a support member, who accepts, signs in and works the desk; then change a role and remove a member', async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'support-admin@orderprotection.test');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Support users' }).click();
    await page.waitForURL('**/admin/support-users');
    await expect.poll(() => heading(page).textContent()).toBe('Support users');
    expect(await nav.getByRole('link', { name: 'Support users' }).getAttribute('aria-current')).toBe('page');
    const members = page.getByRole('table', { name: 'Support users' });
    const row = (name: string | RegExp) =>
      members.getByRole('row').filter({ has: page.getByRole('rowheader', { name }) });
    await row('Sam Support').getByRole('cell', { name: 'Order Protection support', exact: true }).waitFor();
    // The only support admin can neither step down nor leave: the page offers neither.
    const suki = row(/Suki Support Admin/);
    await suki.getByText('The last support admin stays one').waitFor();
    expect(await suki.getByRole('button').count()).toBe(0);
    await expectAccessible(page);

    const invite = page.getByRole('region', { name: 'Invite a support member' });
    await invite.getByLabel('Email').fill('nova@orderprotection.test');
    await invite.getByLabel('Name').fill('Nova New');
    await invite.getByLabel('Role').selectOption({ label: 'Order Protection support' });
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invitation created' });
    await dialog.getByText(/nova@orderprotection\.test is mailed a one-time link to set their password/).waitFor();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row('Nova New').getByText('invited', { exact: true }).waitFor();

    // The invitee opens the link their mail carries, sets a password and lands on the claim desk.
    const token = await mailedInvitationToken(h.runtime, 'nova@orderprotection.test');
    const invitee = await h.newPage();
    await invitee.page.goto(`/admin/accept-invitation#${token}`);
    await expect.poll(() => heading(invitee.page).textContent()).toBe('Accept your invitation');
    await invitee.page.getByLabel('Password', { exact: true }).fill('a-long-new-password');
    await invitee.page.getByLabel('Password again').fill('a-long-new-password');
    await invitee.page.getByRole('button', { name: 'Accept and sign in' }).click();
    await invitee.page.getByRole('heading', { level: 1, name: 'All claims' }).waitFor();
    await invitee.page.getByRole('table', { name: /Claims, newest first/ }).waitFor();
    // Support works claims; managing support staff is the admins' (support-user:read).
    const inviteeNav = invitee.page.getByRole('navigation', { name: 'Main' });
    await inviteeNav.getByRole('link', { name: 'Claims' }).waitFor();
    expect(await inviteeNav.getByRole('link', { name: 'Support users' }).count()).toBe(0);
    expect(invitee.problems).toEqual([]);

    // She signs in again with that password on a fresh page, as any day after.
    const later = await h.newPage();
    await signIn(later.page, 'nova@orderprotection.test', 'a-long-new-password');
    expect(later.problems).toEqual([]);

    await page.reload();
    const nova = row('Nova New');
    await nova.getByText('active', { exact: true }).waitFor();
    await nova.getByLabel('Role for Nova New').selectOption({ label: 'Order Protection support admin' });
    await nova.getByRole('button', { name: 'Change role of Nova New' }).click();
    await page.getByRole('status').filter({ hasText: 'Nova New is now Order Protection support admin.' }).waitFor();
    // With a second admin, Suki may step down or leave.
    await suki.getByRole('button', { name: 'Change role of Suki Support Admin' }).waitFor();

    await row('Sam Support').getByRole('button', { name: 'Remove Sam Support' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove Sam Support?' });
    await confirm.waitFor();
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Remove support member' }).click();
    await page.getByRole('status').filter({ hasText: 'Sam Support is no longer a support member.' }).waitFor();
    await expect.poll(() => members.getByRole('rowheader', { name: 'Sam Support' }).count()).toBe(0);

    const admin = await apiSession(h.baseUrl, 'admin@orderprotection.test');
    const staff = TeamMemberList.parse(await (await admin.get('/api/admin/support-users')).json());
    expect(staff.data.map((m) => [m.email, m.status, m.grants.map((g) => g.role)])).toEqual([
      ['nova@orderprotection.test', 'active', ['orderprotection_support_admin']],
      ['support-admin@orderprotection.test', 'active', ['orderprotection_support_admin']],
    ]);
    expect(problems).toEqual([]);
  });

  it('shows no support users link to a store agent, and the page itself says it is not theirs', async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    expect(
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Support users' }).count(),
    ).toBe(0);
    await page.goto('/admin/support-users');
    await page.getByText('Support users are managed by Order Protection’s support admins.').waitFor();
    expect(problems).toEqual([]);
  });
});
