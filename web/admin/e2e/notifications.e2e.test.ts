import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustomerClaimView, NotificationSettingsList, TimelineResponse } from '@claims/contracts';
import { startMailCatcher, type CaughtMail, type MailCatcher } from '../../../services/api/src/ops/mailCatcher.js';
import {
  apiSession,
  expectAccessible,
  fileDemoClaim,
  itemIssue,
  heading,
  shopperAtResolution,
  signIn,
  startHarness,
  type Harness,
  openUserMenu,
} from './harness.js';
import { chooseResolution, submitReview } from '../../portal/e2e/harness.js';

let h: Harness;
/** A real SMTP server in this process: the server's mail arrives here and is read as the shopper would. */
let smtp: MailCatcher;
/** Order 1001 (Ava), shipped by UPS with no tracking URL of the store's. */
let ava: { claimId: string; claimNumber: string };

beforeAll(async () => {
  smtp = await startMailCatcher({ smtpPort: 0, viewerPort: 0 });
  h = await startHarness({ env: { SMTP_URL: smtp.smtpUrl } });
  ava = await fileDemoClaim(h.baseUrl, 'acme-5001', 'REFUND', itemIssue('li-1', 'DAMAGED', 1, 'Torn.'));
});

afterAll(async () => {
  await h?.stop();
  await smtp?.stop();
});

/** The one mail to `to` whose subject matches, once it has arrived. */
async function mailTo(to: string, subject: RegExp): Promise<CaughtMail> {
  const find = () => smtp.messages().filter((m) => m.to.includes(to) && subject.test(m.subject));
  await expect.poll(() => find().length, { timeout: 20_000 }).toBe(1);
  return find()[0]!;
}
const viewPath = (mail: CaughtMail) => /\/view\/[A-Za-z0-9_-]{43}/.exec(mail.text)?.[0];

describe('mail and tracking on the claim desk', () => {
  it("shows the claim's mail in its timeline and its shipment's tracking number as a link to the carrier", async () => {
    const owner = await apiSession(h.baseUrl, 'owner@acme.test');
    // The mail is sent after the filing (a try the SMTP server timed out is retried): wait until the timeline has it sent.
    await expect
      .poll(
        async () =>
          TimelineResponse.parse(
            await (await owner.get(`/api/admin/claims/${ava.claimId}/timeline`)).json(),
          ).data.filter((e) => e.source === 'notifications' && e.summary['sent'] === true).length,
        { timeout: 20_000 },
      )
      .toBe(2);

    const { page, problems } = await h.newPage();
    await signIn(page, 'owner@acme.test');
    await page.goto(`/admin/claims/view/${ava.claimId}`);
    await expect.poll(() => heading(page).textContent()).toContain(ava.claimNumber);
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await timeline.getByText(`Email sent to ava@example.com: We received your claim #${ava.claimNumber}`).waitFor();
    await timeline
      .getByText(`Email sent to owner@acme.test: New claim #${ava.claimNumber} at Acme Outfitters (order 1001)`)
      .waitFor();
    // Mail lines are not versions of the claim: only the claim's own lines select an as-of view.
    expect(await timeline.getByRole('button', { name: /Email sent/ }).count()).toBe(0);

    const shipments = page.getByRole('region', { name: 'Order and shipping' });
    const tracking = shipments.getByRole('link', { name: /^1Z999AA10123456784/ });
    expect(await tracking.getAttribute('href')).toBe('https://www.ups.com/track?tracknum=1Z999AA10123456784');
    expect(await tracking.getAttribute('rel')).toBe('noopener noreferrer');
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });

  it("mails the shopper who filed in the browser a link that opens the claim, and the desk's reply", async () => {
    const shopper = await h.newPage();
    await shopperAtResolution(shopper.page, '1008', 'hugo@example.com');
    await chooseResolution(shopper.page, /Reship them to me/);
    await submitReview(shopper.page, 'Hugo Weber');
    await shopper.context.close();

    // The link in the mail opens the claim in a browser that never saw the filing.
    const filed = await mailTo('hugo@example.com', /^We received your claim #\d+$/);
    const claimNumber = /#(\d+)$/.exec(filed.subject)![1]!;
    expect(filed.html).toContain('View your claim');
    const link = viewPath(filed);
    expect(link).toBeDefined();
    const reader = await h.newPage();
    await reader.page.goto(link!);
    await expect.poll(() => heading(reader.page).textContent()).toBe(`My Claim #${claimNumber}`);
    const claim = CustomerClaimView.parse(
      await (await fetch(`${h.baseUrl}/api${link!.replace('/view/', '/claims/')}`)).json(),
    );

    // The store answers from the desk; the answer reaches the shopper by mail, and its link shows it on the claim.
    const { page, problems } = await h.newPage();
    await signIn(page, 'owner@acme.test');
    await page.goto(`/admin/claims/view/${claim.id}`);
    await page.getByLabel('Message to the customer').fill('A new flask ships tomorrow.');
    await page.getByRole('button', { name: 'Send message' }).click();
    const reply = await mailTo(
      'hugo@example.com',
      new RegExp(`^Acme Outfitters wrote about your claim #${claimNumber}$`),
    );
    expect(reply.text).toContain('A new flask ships tomorrow.');
    await reader.page.goto(viewPath(reply)!);
    await reader.page.getByText('A new flask ships tomorrow.').waitFor();
    expect([...problems, ...reader.problems]).toEqual([]);
    await reader.context.close();
  });

  it('lets a member choose the mail they get on their profile', async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    await (await openUserMenu(page)).getByRole('link', { name: 'Profile' }).click();
    await page.waitForURL('**/admin/profile');
    await expect.poll(() => heading(page).textContent()).toBe('Your profile');
    const acme = page.getByRole('form', { name: 'Acme Outfitters' });
    // A support agent gets neither by default.
    const newClaims = acme.getByRole('checkbox', { name: 'New claims' });
    await newClaims.waitFor();
    expect(await newClaims.isChecked()).toBe(false);
    expect(await acme.getByRole('checkbox', { name: 'Customer replies' }).isChecked()).toBe(false);
    await expectAccessible(page);

    await newClaims.check();
    await acme.getByRole('button', { name: /^Save/ }).click();
    await acme.getByRole('status').getByText('Saved your email settings for Acme Outfitters.').waitFor();
    await expectAccessible(page);
    const agent = await apiSession(h.baseUrl, 'agent@acme.test');
    const saved = NotificationSettingsList.parse(await (await agent.get('/api/admin/notification-preferences')).json());
    expect(saved.data[0]?.settings).toEqual([
      { kind: 'new_claim', enabled: true, chosen: true },
      { kind: 'customer_reply', enabled: false, chosen: true },
    ]);
    await page.reload();
    await page.getByRole('form', { name: 'Acme Outfitters' }).getByRole('checkbox', { name: 'New claims' }).waitFor();
    expect(
      await page
        .getByRole('form', { name: 'Acme Outfitters' })
        .getByRole('checkbox', { name: 'New claims' })
        .isChecked(),
    ).toBe(true);
    expect(problems).toEqual([]);
  });

  it("says 'Page not found' for a path no route matches", async () => {
    const { page, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    await page.goto('/admin/no-such-page');
    await page.getByText('Page Not Found: /admin/no-such-page').waitFor();
    await page.getByText('Page not found', { exact: true }).waitFor();
    await expect.poll(() => heading(page).textContent()).toBe('Page Not Found');
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });
});
