import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateWebhookEndpointResponse, CustomerClaimView } from '@claims/contracts';
import { startMailCatcher, type CaughtMail, type MailCatcher } from '../../../services/api/src/ops/mailCatcher.js';
import { StandardWebhookReceiver } from '../../../test/support/standardWebhookReceiver.js';
import { chooseResolution, lookUp, submitReview } from '../../portal/e2e/harness.js';
import { apiSession, expectAccessible, heading, signIn, startHarness, type Harness } from './harness.js';

let h: Harness;
/** A real SMTP server in this process: the shopper's mail is read here. */
let smtp: MailCatcher;
/** The store's integration, verifying every delivery's signature with the endpoint's secret. */
const receiver = new StandardWebhookReceiver();

beforeAll(async () => {
  smtp = await startMailCatcher({ smtpPort: 0, viewerPort: 0 });
  h = await startHarness({ env: { SMTP_URL: smtp.smtpUrl } });
  // What `make dev` and the tests set (contract): the receiver runs on loopback.
  h.runtime.ctx.config.webhookAllowPrivateUrls = true;
  const url = await receiver.start();
  const acme = ((await (await fetch(`${h.baseUrl}/api/whitelabel/settings?store=acme`)).json()) as { storeId: string })
    .storeId;
  const owner = await apiSession(h.baseUrl, 'owner@acme.test');
  const created = await owner.post(`/api/admin/stores/${acme}/webhook-endpoints`, { url, description: 'Order sync' });
  expect(created.status).toBe(201);
  receiver.secrets.push(CreateWebhookEndpointResponse.parse(await created.json()).secret);
});

afterAll(async () => {
  await h?.stop();
  await smtp?.stop();
  await receiver.stop();
});

/** The decisions the receiver got about one claim, in the order they came. */
const decisionsOf = (claimId: string) =>
  receiver.deliveries.filter(
    (d) =>
      d.payload.data['claimId'] === claimId &&
      (d.payload.type === 'claim.items_resolved' || d.payload.type === 'claim.resolved'),
  );
const decisionMails = (claimNumber: string) =>
  smtp
    .messages()
    .filter(
      (m) => m.to.includes('ava@example.com') && m.subject === `Your claim #${claimNumber} has a decision: approved`,
    );

describe('a claim of two items decided one item at a time', () => {
  it("tells the shopper and the integration once, when the claim as a whole is decided, with both items and the page's amounts", async () => {
    // The shopper files the jacket and the mug of order 1001 in the portal.
    // The portal asks for a draft of this order first: none yet, a 404 it expects.
    const shopper = await h.newPage([{ status: 404, path: '/api/sessions' }]);
    await lookUp(shopper.page, '1001', 'ava@example.com');
    await shopper.page.waitForURL('**/issues');
    await shopper.page.getByRole('button', { name: /Issues with my items/ }).click();
    await shopper.page.waitForURL('**/issues/items');
    await shopper.page.getByRole('checkbox', { name: /Trail Jacket/ }).check();
    await shopper.page.getByRole('checkbox', { name: /Enamel Camp Mug/ }).check();
    await shopper.page.getByRole('button', { name: 'Continue' }).click();
    // The issue of each product in turn.
    const dialog = shopper.page.getByRole('dialog', { name: 'Tell us about your issue' });
    for (const [n, product] of ['Trail Jacket', 'Enamel Camp Mug'].entries()) {
      await dialog.getByText(`Product ${n + 1} / 2`).waitFor();
      await dialog.getByText(product, { exact: true }).waitFor();
      await dialog.getByLabel("What's the issue with this item?").selectOption('DAMAGED');
      await dialog.getByRole('button', { name: 'Add issue to claim' }).click();
    }
    await shopper.page.waitForURL('**/resolution');
    await chooseResolution(shopper.page, /I want store credit/);
    await submitReview(shopper.page, 'Ava Stone');
    await shopper.page.getByRole('link', { name: 'View my claim' }).click();
    await shopper.page.waitForURL('**/view/**');
    await expect.poll(() => heading(shopper.page).textContent()).toMatch(/^My Claim #\d+$/);
    const viewUrl = shopper.page.url();
    const token = decodeURIComponent(new URL(viewUrl).pathname.split('/')[2]!);
    const { id: claimId, claimNumber } = CustomerClaimView.parse(
      await (await fetch(`${h.baseUrl}/api/claims/${token}`)).json(),
    );

    // The desk decides the jacket first: store credit.
    const { page, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    await page.goto(`/admin/claims/view/${claimId}`);
    await page.getByRole('heading', { level: 1, name: `Claim #${claimNumber}` }).waitFor();
    const panel = page.getByRole('region', { name: 'Resolve claim' });
    await panel.getByRole('group', { name: 'Trail Jacket × 1' }).getByLabel('Decision').selectOption('STORE_CREDIT');
    await panel.getByRole('button', { name: 'Review decision' }).click();
    await panel
      .getByRole('region', { name: 'Review before committing' })
      .getByRole('button', { name: 'Confirm decisions' })
      .click();
    await page
      .getByRole('status')
      .filter({ hasText: `Decisions saved on claim #${claimNumber}: 1 item still to decide.` })
      .waitFor();

    // A decision on one item of two: the integration hears of those items, the shopper gets no decision mail yet.
    await expect
      .poll(() => decisionsOf(claimId).map((d) => d.payload.type), { timeout: 20_000 })
      .toEqual(['claim.items_resolved']);
    await h.runtime.settle();
    expect(decisionMails(claimNumber)).toHaveLength(0);

    // Then the mug: a refund, and the claim is resolved.
    await panel.getByRole('group', { name: 'Enamel Camp Mug × 1' }).getByLabel('Decision').selectOption('REFUND');
    await panel.getByRole('button', { name: 'Review decision' }).click();
    await panel
      .getByRole('region', { name: 'Review before committing' })
      .getByRole('button', { name: 'Confirm and resolve claim' })
      .click();
    await page
      .getByRole('status')
      .filter({ hasText: `Claim #${claimNumber} was resolved.` })
      .waitFor();
    await expectAccessible(page);

    // The shopper's page shows both items' decisions, the credit with its bonus.
    await shopper.page.goto(viewUrl);
    const items = shopper.page.getByRole('region', { name: 'Items' });
    const credit = 'Store credit $153.25 ($139.32 plus a $13.93 bonus)';
    await items.getByText(`Decision: ${credit}`).waitFor();
    await items.getByText('Decision: Refunded $16.26').waitFor();
    await expectAccessible(shopper.page);

    // One decision mail, with both items and the same amounts as the page, in its HTML and its plain text.
    await expect.poll(() => decisionMails(claimNumber).length, { timeout: 20_000 }).toBe(1);
    const [mail] = decisionMails(claimNumber) as [CaughtMail];
    for (const part of [mail.text, mail.html ?? '']) {
      expect(part).toContain(`Trail Jacket × 1: ${credit}`);
      expect(part).toContain('Enamel Camp Mug × 1: Refunded $16.26');
    }

    // The integration: the partial decision, then claim.resolved once, with both items and the claim's status; every delivery signed.
    await expect
      .poll(() => decisionsOf(claimId).map((d) => d.payload.type), { timeout: 20_000 })
      .toEqual(['claim.items_resolved', 'claim.resolved']);
    await h.runtime.settle();
    const [partial, whole] = decisionsOf(claimId);
    expect(decisionsOf(claimId)).toHaveLength(2);
    expect(receiver.counts().get(whole!.webhookId)).toBe(1);
    expect(partial!.payload.data).toMatchObject({ status: 'NEW', resolutions: [{ resolutionType: 'STORE_CREDIT' }] });
    expect(whole!.payload.data).toMatchObject({
      status: 'RESOLVED',
      outcome: 'APPROVED',
      resolutions: [{ resolutionType: 'STORE_CREDIT' }, { resolutionType: 'REFUND' }],
    });
    expect(receiver.deliveries.every((d) => d.verified)).toBe(true);
    expect([...problems, ...shopper.problems]).toEqual([]);
    await shopper.context.close();
  });
});
