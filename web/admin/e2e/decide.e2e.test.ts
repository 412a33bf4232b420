import { beforeAll, describe, expect, it } from 'vitest';
import { AdminClaimDetail, ClaimFacts, OrderInput } from '@claims/contracts';
import { formatDate } from '@claims/format';
import { upsertOrder } from '../../../services/api/src/catalog/orderRepository.js';
import { demoClaim, demoOrder } from '../../../test/support/seededDemo.js';
import {
  apiSession,
  expectAccessible,
  fileClaim,
  itemIssue,
  signIn,
  solidPng,
  uploadPhoto,
  fileHarness,
} from './harness.js';

const h = fileHarness();
/** Ava's earlier claim, on another order: one sock, with a photo. */
let first: { claimId: string; claimNumber: string };
/** Her second: the jacket, two socks and the mug, the jacket's photo the same bytes as the first claim's. */
let second: { claimId: string; claimNumber: string; token: string };

const avasOrder = { orderNumber: '1001', email: 'ava@example.com' };
const signedAt = new Date().toISOString();

beforeAll(async () => {
  // An earlier order of Ava's (each item is claimed once, so her earlier claim needs an order of its own).
  const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
  const storeId = (
    (await (await fetch(`${h.baseUrl}/api/whitelabel/settings?store=acme`)).json()) as { storeId: string }
  ).storeId;
  await upsertOrder(
    h.runtime.ctx.database.db,
    storeId,
    'acme-e2e-earlier',
    OrderInput.parse({
      orderNumber: '1099',
      customerEmail: 'ava@example.com',
      currency: 'USD',
      createdAt: ago(12),
      protected: true,
      policy: { insuredAmount: 50, premiumPaid: 1, premiumCurrency: 'USD' },
      shippingAddress: demoOrder('acme-5001').shippingAddress,
      items: [
        {
          sourceItemId: 'li-earlier',
          sourceProductId: 'p',
          sourceVariantId: 'v',
          sku: 'SOCK',
          productName: 'Merino Socks',
          price: 18,
          quantity: 1,
        },
      ],
      fulfillments: [
        {
          sourceFulfillmentId: 'f-earlier',
          status: 'DELIVERED',
          shippedAt: ago(11),
          deliveredAt: ago(10),
          items: [{ sourceItemId: 'li-earlier', quantity: 1 }],
        },
      ],
    }),
  );
  const photo = solidPng(64, 64, [120, 40, 40]);
  const once = await uploadPhoto(h.baseUrl, { orderNumber: '1099', email: 'ava@example.com' }, 'sock.png', photo);
  // The same photo uploaded again under another name: identical bytes, another file.
  const again = await uploadPhoto(h.baseUrl, avasOrder, 'jacket.png', photo);
  first = await fileClaim(h.baseUrl, 'acme-e2e-earlier', {
    email: 'ava@example.com',
    fulfillmentIssues: [
      {
        sourceFulfillmentId: 'f-earlier',
        issues: [
          { sourceItemId: 'li-earlier', claimType: 'DAMAGED', quantity: 1, details: 'Torn.', images: [{ url: once }] },
        ],
      },
    ],
    resolution: { desiredMethod: 'REFUND', customerSignature: 'Ava Stone' },
  });
  second = await fileClaim(h.baseUrl, 'acme-5001', {
    ...demoClaim(
      'acme-5001',
      'REFUND',
      { sourceItemId: 'li-1', claimType: 'DAMAGED', quantity: 1, details: 'Seam split.', images: [{ url: again }] },
      itemIssue('li-2', 'DAMAGED', 2, 'Holes.'),
      itemIssue('li-3', 'DAMAGED', 1, 'Chipped.'),
    ),
    resolution: {
      desiredMethod: 'REFUND',
      customerSignature: {
        kind: 'drawn',
        value: `data:image/png;base64,${solidPng(120, 40, [10, 10, 10]).toString('base64')}`,
        signedAt,
      },
      updatedShippingAddress: {
        name: 'Ava Stone',
        address1: '77 Bay Rd',
        city: 'Seattle',
        country: 'United States',
        countryCode: 'US',
      },
    },
  });
  // The history and flags come from the claim list's read model: arrange until it has both claims.
  await h.runtime.settle();
  const agent = await apiSession(h.baseUrl, 'agent@acme.test');
  expect(
    ClaimFacts.parse(await (await agent.get(`/api/admin/claims/${second.claimId}/facts`)).json()).flags.reusedPhotos,
  ).toHaveLength(1);
});

describe('deciding a claim item by item', () => {
  it('shows the order with tracking links, the signature, the other claim and the flags', async () => {
    const { page, context, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    await page.goto(`/admin/claims/view/${second.claimId}`);
    await page.getByRole('heading', { level: 1, name: `Claim #${second.claimNumber}` }).waitFor();

    const order = page.getByRole('region', { name: 'Order and shipping' });
    const tracking = order.getByRole('link', { name: /^1Z999AA10123456784/ });
    expect(await tracking.getAttribute('href')).toBe('https://www.ups.com/track?tracknum=1Z999AA10123456784');
    await order.getByText('12 Harbor St').waitFor();
    await order.getByText('77 Bay Rd').waitFor();
    await order.getByRole('cell', { name: 'Delivered' }).waitFor();
    // The shipment's carrier with its tracking, and the day it was delivered.
    const agent = await apiSession(h.baseUrl, 'agent@acme.test');
    const facts = ClaimFacts.parse(await (await agent.get(`/api/admin/claims/${second.claimId}/facts`)).json());
    const deliveredAt = facts.order!.fulfillments.find((f) => f.sourceFulfillmentId === 'f-1001-1')!.deliveredAt!;
    const shipment = order.getByRole('row', { name: /^f-1001-1/ }).getByRole('cell');
    expect(await shipment.nth(1).textContent()).toMatch(/^UPS 1Z999AA10123456784/);
    expect(await shipment.nth(3).textContent()).toBe(formatDate(deliveredAt));
    await page
      .getByRole('region', { name: 'Signature' })
      .getByRole('img', { name: 'Signature drawn by Ava Stone' })
      .waitFor();

    const flags = page.getByRole('region', { name: 'Flags' });
    await flags.getByText('2 claims by this email in the last 90 days').waitFor();
    await flags.getByRole('link', { name: `claim #${first.claimNumber}` }).waitFor();
    const others = page.getByRole('region', { name: "The customer's other claims" });
    await others.getByRole('link', { name: `#${first.claimNumber}` }).waitFor();
    // With how it stands (still new: nothing decided yet).
    expect(
      await others
        .getByRole('row', { name: new RegExp(`#${first.claimNumber}`) })
        .getByRole('cell')
        .last()
        .textContent(),
    ).toBe('New');
    await expectAccessible(page);

    // A denial moves no money: its claim never says "Reimbursed".
    expect(
      (
        await agent.post(`/api/admin/claims/${first.claimId}/resolve`, {
          resolutionType: 'DENY',
          reason: 'NOT_COVERED',
        })
      ).status,
    ).toBe(200);
    await page.goto(`/admin/claims/view/${first.claimId}`);
    const details = page.getByRole('region', { name: 'Resolution Details' });
    await details.getByText('Reason for Denial', { exact: true }).waitFor();
    expect(await details.getByText('Reimbursed', { exact: true }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('decides a refund and a reship, then a denial, each pass reviewed in a summary first', async () => {
    const { page, context, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    await page.goto(`/admin/claims/view/${second.claimId}`);
    const panel = page.getByRole('region', { name: 'Resolve claim' });
    const jacket = panel.getByRole('group', { name: 'Trail Jacket × 1' });
    const socks = panel.getByRole('group', { name: 'Merino Socks × 2' });
    const mug = panel.getByRole('group', { name: 'Enamel Camp Mug × 1' });
    // Item prices to three decimals (docs/product.md#money-on-screen).
    await jacket.getByText('$129.000 each').waitFor();

    // Pass one: the jacket refunded, the socks reshipped, the mug left for later.
    await jacket.getByLabel('Decision').selectOption('REFUND');
    await jacket.getByText('Worth $139.32').waitFor();
    await socks.getByLabel('Decision').selectOption('RESHIP');
    // A reship is never denied: no denial label, no denial grounds.
    expect(await socks.getByLabel('Reason for denial').count()).toBe(0);
    const reshipReasons = await socks.getByLabel('Reason (optional)').locator('option').allTextContents();
    expect(reshipReasons).toContain('Reship');
    expect(reshipReasons).not.toContain('Claim Type Not Covered');
    await panel.getByRole('button', { name: 'Review decision' }).click();

    const review = panel.getByRole('region', { name: 'Review before committing' });
    const rows = review.getByRole('table', { name: 'Decisions to commit' }).getByRole('row');
    await expect
      .poll(() => rows.allTextContents())
      .toEqual(['ItemDecisionQuantityAmountReason', 'Trail JacketRefund1$139.32—', 'Merino SocksReship2——']);
    const totals = review.locator('dl.decision-totals');
    await totals.getByText('$139.32', { exact: true }).first().waitFor();
    await totals.getByText('2 units').waitFor();
    await review
      .getByText('1 item will still be undecided: the claim stays open until every item is decided.')
      .waitFor();
    await expectAccessible(page);
    await review.getByRole('button', { name: 'Confirm decisions' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Decisions saved on claim #${second.claimNumber}: 1 item still to decide.` })
      .waitFor();

    // Decided items show their decision and are not offered again.
    const decided = panel.getByRole('table', { name: 'Decided' });
    await decided.getByRole('row', { name: /Trail Jacket.*Refund \$139\.32/ }).waitFor();
    await decided.getByRole('row', { name: /Merino Socks.*Reship × 2/ }).waitFor();
    await mug.waitFor();
    expect(await jacket.count()).toBe(0);
    expect(await socks.count()).toBe(0);

    // Pass two: the mug denied; a denial needs its reason.
    await mug.getByLabel('Decision').selectOption('DENY');
    await panel.getByRole('button', { name: 'Review decision' }).click();
    await panel.getByRole('alert').filter({ hasText: 'Enamel Camp Mug: choose a reason for the denial.' }).waitFor();
    await mug.getByLabel('Reason for denial').selectOption({ label: 'Claim Type Not Covered' });
    await panel.getByRole('button', { name: 'Review decision' }).click();
    await review.getByText('Every item will be decided: the claim will be resolved.').waitFor();
    await review.getByRole('button', { name: 'Confirm and resolve claim' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Claim #${second.claimNumber} was resolved.` })
      .waitFor();

    const decisions = page.getByRole('region', { name: 'Decisions' });
    await decisions.getByRole('row', { name: /Enamel Camp Mug.*Denied: Claim Type Not Covered/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Review decision' }).count()).toBe(0);
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await timeline
      .getByRole('button', {
        name: /Items decided: Refund, Reship.*Trail Jacket: Refund \$139\.32; Merino Socks: Reship × 2/,
      })
      .waitFor();
    await timeline
      .getByRole('button', { name: /Claim resolved: Deny.*Enamel Camp Mug: Denied: Claim Type Not Covered/ })
      .waitFor();
    // Protection pays the store back for the refund and the reship: "Reimbursed" (a denied claim never says it, above).
    const details = page.getByRole('region', { name: 'Resolution Details' });
    await details.getByText('Reimbursed', { exact: true }).waitFor();
    await expectAccessible(page);

    const agent = await apiSession(h.baseUrl, 'agent@acme.test');
    const claim = AdminClaimDetail.parse(await (await agent.get(`/api/admin/claims/${second.claimId}`)).json());
    expect(claim.status).toBe('RESOLVED');
    expect(claim.resolutions.map((r) => [r.resolutionType, r.quantity, r.reason])).toEqual([
      ['REFUND', 1, null],
      ['RESHIP', 2, null],
      ['DENY', 0, 'NOT_COVERED'],
    ]);

    // The shopper's claim view says what each item got, with the amounts issued.
    await page.goto(`/view/${second.token}`);
    const items = page.getByRole('region', { name: 'Items' });
    await items.getByText('Decision: Refunded $139.32').waitFor();
    await items.getByText('Decision: Reshipping 2').waitFor();
    await items.getByText('Decision: Not covered: Claim Type Not Covered').waitFor();
    await items.getByText('$129.000').first().waitFor();
    // And which statuses the claim went through, oldest first.
    const history = page.getByRole('region', { name: 'Status history' }).getByRole('listitem');
    await expect
      .poll(() => history.allTextContents())
      .toEqual([expect.stringMatching(/^New · /), expect.stringMatching(/^Resolved · /)]);
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  });
});
