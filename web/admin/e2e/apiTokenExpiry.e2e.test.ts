import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSession, expectAccessible, heading, signIn, startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.stop();
});

const DAY = 86_400_000;

describe('API token expiry on the token page', () => {
  it('shows when each token expires, 90 days on by default, and warns of one that expires within 14 days', async () => {
    const owner = await apiSession(h.baseUrl, 'owner@acme.test');
    const acme = owner.me.stores.find((s) => s.slug === 'acme')!;
    const soon = await owner.post(`/api/stores/${acme.id}/api-tokens`, {
      name: 'Nightly export',
      permissions: ['claim:read'],
      expiresAt: new Date(Date.now() + 5 * DAY + 3_600_000).toISOString(),
    });
    expect(soon.status).toBe(201);
    const lasting = await owner.post(`/api/stores/${acme.id}/api-tokens`, {
      name: 'Warehouse sync',
      permissions: ['claim:read'],
    });
    expect(lasting.status).toBe(201);

    const { page, problems } = await h.newPage();
    await signIn(page, 'owner@acme.test');
    await page.goto(`/admin/api-tokens?store=${acme.id}`);
    await expect.poll(() => heading(page).textContent()).toMatch(/^API tokens of /);
    const tokens = page.getByRole('table', { name: /^API tokens of / });
    const row = (name: string) => tokens.getByRole('row').filter({ has: page.getByRole('rowheader', { name }) });
    await row('Nightly export').getByText('expires in 5 days', { exact: true }).waitFor();
    await row('Warehouse sync').getByText('active', { exact: true }).waitFor();
    const expiry = await row('Warehouse sync').locator('time').last().getAttribute('datetime');
    expect(Math.round((Date.parse(expiry!) - Date.now()) / DAY)).toBe(90);
    await page.getByRole('status').filter({ hasText: 'The token "Nightly export" expires within 14 days' }).waitFor();
    await expectAccessible(page);

    // Creating one offers a lifetime, the default first.
    const form = page.getByRole('region', { name: 'Create a token' });
    expect(await form.getByLabel('Expires after').inputValue()).toBe('90');
    expect(problems).toEqual([]);
  });
});
