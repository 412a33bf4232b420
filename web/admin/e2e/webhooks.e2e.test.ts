import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { StandardWebhookReceiver } from '../../../test/support/standardWebhookReceiver.js';
import { expectAccessible, heading, signIn, startHarness, type Harness } from './harness.js';

let h: Harness;
const receiver = new StandardWebhookReceiver((delivery) => ({ status: 200, body: `ok ${delivery.payload.type}` }));
let url: string;

beforeAll(async () => {
  h = await startHarness();
  // What `make dev` and the tests set (contract): the receiver runs on loopback.
  h.runtime.ctx.config.webhookAllowPrivateUrls = true;
  url = await receiver.start();
});

afterAll(async () => {
  await h?.stop();
  await receiver.stop();
});

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const log = (page: Page) => page.getByRole('table', { name: /^Delivery attempts to / });
const logRows = (page: Page) =>
  log(page)
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
const testDeliveries = () => receiver.deliveries.filter((d) => d.payload.type === 'webhook.test');

describe('back-office webhooks page', () => {
  it('adds an endpoint, shows its secret once, tests, pauses, resumes, rotates, replays and deletes it', async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'owner@acme.test');
    await mainNav(page).getByRole('link', { name: 'Webhooks' }).click();
    await expect.poll(() => heading(page).textContent()).toMatch(/^Webhooks of /);
    await page.getByText('No endpoints yet.').waitFor();
    await expectAccessible(page);

    // Add: the secret is shown once, in the dialog, and nowhere after it closes.
    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByLabel('Description').fill('Warehouse sync');
    await page.getByRole('checkbox', { name: 'claim.filed' }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const added = page.getByRole('dialog', { name: 'Endpoint added' });
    const secret = await added.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    receiver.secrets.push(secret);
    await expectAccessible(page);
    await added.getByRole('button', { name: 'Done' }).click();
    await added.waitFor({ state: 'hidden' });
    const endpoints = page.getByRole('table', { name: /^Webhook endpoints of / });
    await endpoints.getByRole('row', { name: new RegExp(`${url}.*Warehouse sync.*claim\\.filed.*active`) }).waitFor();
    await page.getByRole('heading', { level: 2, name: `Endpoint ${url}` }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await page.getByRole('heading', { level: 2, name: `Endpoint ${url}` }).waitFor();
    expect(await page.content()).not.toContain(secret);

    // A test event reaches the receiver, signed, and its attempt shows in the log with the receiver's answer.
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText('A test event is on its way').waitFor();
    await logRows(page)
      .filter({ hasText: 'webhook.test' })
      .filter({ hasText: 'HTTP 200' })
      .filter({ hasText: 'ok webhook.test' })
      .first()
      .waitFor();
    expect(await logRows(page).first().textContent()).toContain('Delivered');
    expect(testDeliveries()).toHaveLength(1);
    await expectAccessible(page);

    // Paused: the notice says why it is off; a test event waits and goes once it is resumed.
    await page.getByRole('button', { name: 'Pause' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'This endpoint is turned off. Paused in the back-office by' })
      .waitFor();
    await endpoints.getByRole('row', { name: /turned off/ }).waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText('A test event is queued').waitFor();
    await h.runtime.settle();
    expect(testDeliveries()).toHaveLength(1);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByText('The endpoint is resumed').waitFor();
    await expect.poll(() => testDeliveries().length, { timeout: 10_000 }).toBe(2);
    await expect.poll(() => logRows(page).filter({ hasText: 'HTTP 200' }).count(), { timeout: 10_000 }).toBe(2);

    // A new secret, shown once; the receiver switches to it (the old one signs beside it for a day).
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = page.getByRole('dialog', { name: 'New signing secret' });
    const newSecret = await rotated.getByLabel('Signing secret').inputValue();
    expect(newSecret).not.toBe(secret);
    receiver.secrets.splice(0, receiver.secrets.length, newSecret);
    await rotated.getByRole('button', { name: 'Done' }).click();
    await rotated.waitFor({ state: 'hidden' });

    // Replay the first test delivery: the same webhook-id again, marked as a replay in the log.
    const first = testDeliveries()[0]!;
    await page.getByRole('button', { name: `Replay delivery ${first.webhookId}` }).click();
    await page.getByText(`The delivery ${first.webhookId} will be sent again.`).waitFor();
    await expect.poll(() => receiver.counts().get(first.webhookId), { timeout: 10_000 }).toBe(2);
    await logRows(page).filter({ hasText: first.webhookId }).filter({ hasText: 'replay' }).waitFor();
    expect(receiver.deliveries.every((d) => d.verified)).toBe(true);
    await expectAccessible(page);

    // Delete, after confirming.
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this endpoint?' });
    await confirm.getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByText(`The endpoint ${url} was deleted; nothing more is sent to it.`).waitFor();
    await page.getByText('No endpoints yet.').waitFor();
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });

  it('shows why an endpoint whose every attempt failed for the window was turned off, and resumes it', async () => {
    const failing = new StandardWebhookReceiver(() => ({ status: 500, body: 'queue full' }));
    const failingUrl = await failing.start();
    const config = h.runtime.ctx.config;
    const window = config.webhookDisableAfterFailingMs;
    config.webhookDisableAfterFailingMs = 1_000;
    try {
      const { page, problems } = await h.newPage();
      await signIn(page, 'owner@acme.test');
      await page.goto('/admin/webhooks');
      await page.getByLabel('Endpoint URL').fill(failingUrl);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const added = page.getByRole('dialog', { name: 'Endpoint added' });
      failing.secrets.push(await added.getByLabel('Signing secret').inputValue());
      await added.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('button', { name: 'Send test event' }).click();
      // The first attempt fails; its retry 5 s later fails past the 1 s window and the endpoint is turned off.
      await page
        .getByRole('status')
        .filter({ hasText: 'This endpoint is turned off. Every delivery attempt failed for 1 second' })
        .waitFor({ timeout: 20_000 });
      await expect.poll(() => logRows(page).filter({ hasText: 'queue full' }).count(), { timeout: 10_000 }).toBe(2);
      expect(await logRows(page).first().textContent()).toContain('When the endpoint is resumed');
      await expectAccessible(page);
      expect(failing.deliveries.every((d) => d.verified)).toBe(true);

      failing.answerWith(() => ({ status: 204 }));
      await page.getByRole('button', { name: 'Resume' }).click();
      await expect.poll(() => logRows(page).first().textContent(), { timeout: 10_000 }).toContain('Delivered');
      expect(problems).toEqual([]);
    } finally {
      config.webhookDisableAfterFailingMs = window;
      await failing.stop();
    }
  });

  it('offers a store agent without webhook rights no webhooks link', async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    await mainNav(page).getByRole('link', { name: 'Claims' }).waitFor();
    expect(await mainNav(page).getByRole('link', { name: 'Webhooks' }).count()).toBe(0);
    await page.goto('/admin/webhooks');
    await page.getByText('You have no store whose webhooks you may see.').waitFor();
    expect(problems).toEqual([]);
  });
});
