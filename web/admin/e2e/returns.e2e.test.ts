import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, fileDemoClaim, itemIssue, openTool, signIn, fileHarness } from './harness.js';

const h = fileHarness();
let kumo: { token: string; claimNumber: string; claimId: string };
let acme: { token: string; claimNumber: string; claimId: string };

beforeAll(async () => {
  kumo = await fileDemoClaim(h.baseUrl, 'kumo-9001', 'RESHIP', itemIssue('k-1', 'DAMAGED', 2, 'Tins dented.'));
  acme = await fileDemoClaim(h.baseUrl, 'acme-5002', 'REFUND', itemIssue('li-4', 'DEFECTIVE_ITEM', 1, 'Pole snapped.'));
});

describe('returns in Chromium', () => {
  it('a shopper of a store without a returns portal starts a return from the claim and prints its label with the barcode', async () => {
    const { page, context, problems } = await h.newPage();
    await page.goto(`/view/${kumo.token}`);
    const returns = page.getByRole('region', { name: 'Returns' });
    await returns.getByText('No returns yet.').waitFor();
    await returns.getByRole('link', { name: 'Start a return' }).click();
    await page.waitForURL('**/return/start?token=*');
    await page.getByRole('heading', { level: 1, name: 'Start a return', exact: true }).waitFor();
    await page.getByText('Next you print a return label').waitFor();
    await expectAccessible(page);

    // Nothing chosen: a clear error and nothing started.
    await page.getByRole('button', { name: 'Start return' }).click();
    await page.getByRole('alert').getByText('Choose at least one item to return.').waitFor();
    await page.getByLabel('Uji Sencha 100g').selectOption('2');
    await page.getByLabel('Why are you returning it?').selectOption('DAMAGED');
    await page.getByRole('radio', { name: 'Have the carrier pick it up' }).check();
    await page.getByLabel('Anything else we should know? (optional)').fill('Kept the box.');
    await page.getByRole('button', { name: 'Start return' }).click();

    await page.waitForURL(`**/print/${kumo.token}?return=*`);
    const code = `R${kumo.claimNumber}-1`;
    await page.getByRole('heading', { level: 1, name: `Return label ${code}`, exact: true }).waitFor();
    const barcode = page.getByRole('img', { name: `Barcode of return code ${code}` });
    await barcode.waitFor();
    // JsBarcode drew it: CODE128 bars as SVG rectangles and the code as text beneath.
    expect(await barcode.locator('rect').count()).toBeGreaterThan(10);
    expect(await barcode.locator('text').textContent()).toBe(code);
    await page.getByRole('cell', { name: 'SENCHA-100' }).waitFor();
    await expectAccessible(page);
    // Print CSS: the buttons and the site's chrome stay off the paper, the label stays.
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('button', { name: 'Print label' }).isVisible()).toBe(false);
    expect(await barcode.isVisible()).toBe(true);
    await page.emulateMedia({ media: 'screen' });

    await page.goto(`/view/${kumo.token}`);
    await returns.getByText(`Return ${code}`).waitFor();
    await returns.getByText('Requested').waitFor();
    await returns.getByRole('link', { name: `Print return label ${code}` }).waitFor();
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);

  it('a shopper of a store with its own returns portal is sent there, and the return is on record', async () => {
    const { page, context, problems } = await h.newPage();
    await page.goto(`/return/start?token=${acme.token}`);
    await page.getByText('This store handles returns on its own returns portal').waitFor();
    await page.getByLabel('Ridge Tent 2P').selectOption('1');
    await page.getByLabel('Why are you returning it?').selectOption('DEFECTIVE');
    await page.getByRole('radio', { name: 'Drop it off at a carrier location' }).check();
    await page.getByRole('button', { name: 'Start return' }).click();
    await page
      .getByRole('heading', { level: 1, name: "Continue on the store's returns portal", exact: true })
      .waitFor();
    expect(await page.getByRole('link', { name: 'Go to the returns portal' }).getAttribute('href')).toBe(
      'https://returns.acme.test',
    );
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);

  it("the store's owner lists the returns on the desk and works one on its claim; it shows in the timeline", async () => {
    const { page, context, problems } = await h.newPage();
    await signIn(page, 'owner@kumo.test');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Returns' }).click();
    await page.getByRole('heading', { level: 1, name: 'Returns of Kumo Tea', exact: true }).waitFor();
    const code = `R${kumo.claimNumber}-1`;
    const row = page.getByRole('row', { name: new RegExp(code) });
    await row.waitFor();
    await row.getByText('Requested').waitFor();
    await expectAccessible(page);

    await row.getByRole('link', { name: `Claim #${kumo.claimNumber}` }).click();
    const card = await openTool(page, 'Returns');
    await card.getByText(`Return ${code}`, { exact: true }).waitFor();
    await card.getByLabel(`Note for return ${code} (optional)`).fill('Pickup booked.');
    await card.getByRole('button', { name: `Approve return ${code}` }).click();
    await card.getByText('Approved', { exact: true }).waitFor();
    await card.getByRole('button', { name: `Mark received return ${code}` }).waitFor();
    await page.getByText(/Return approved \(was requested\)/).waitFor();
    await page.getByText('Pickup booked.').waitFor();
    await expectAccessible(page);

    await page.goto('/admin/returns?status=APPROVED');
    await page.getByRole('row', { name: new RegExp(code) }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);

  it("a store support agent reads the store's returns but has no buttons to move them", async () => {
    const { page, context, problems } = await h.newPage();
    await signIn(page, 'agent@acme.test');
    await page.goto(`/admin/claims/view/${acme.claimId}`);
    const card = await openTool(page, 'Returns');
    await card.getByText(`Return R${acme.claimNumber}-1`, { exact: true }).waitFor();
    await card.getByText("Sent to the store's returns portal").waitFor();
    expect(await card.getByRole('button').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);
});
