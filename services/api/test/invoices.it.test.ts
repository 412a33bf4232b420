import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  CreditNoteView,
  InvoiceDraft,
  InvoiceList,
  InvoiceView,
  PaymentMethodsView,
  PayoutEntriesResponse,
  PremiumTotals,
} from '@claims/contracts';
import { eventually } from '../../../test/support/testDatabase.js';
import { json, oneItemClaim, startHarness, type Harness } from './support/backofficeHarness.js';

/** The month this run's events fall in (the database's clock), and the app's clock an hour into the next one, when it is over. */
const started = new Date();
const MONTH = started.toISOString().slice(0, 7);
const NEXT_MONTH_START = Date.UTC(started.getUTCFullYear(), started.getUTCMonth() + 1, 1);
const NEXT_MONTH = new Date(NEXT_MONTH_START).toISOString().slice(0, 7);
const clockOffset = NEXT_MONTH_START + 3_600_000 - started.getTime();
const cents = (amount: number) => Math.round(amount * 100);

describe('invoices and billing on PostgreSQL: issued once, immutable, corrected by credit notes', () => {
  let h: Harness;
  let finance: string;
  let owner: string;
  let agent: string;
  let kumoOwner: string;
  let acme: string;
  let issued: InvoiceView;

  beforeAll(async () => {
    h = await startHarness({}, { now: () => new Date(Date.now() + clockOffset).toISOString() });
    [finance, owner, agent, kumoOwner] = await Promise.all([
      h.login('finance'),
      h.login('acmeOwner'),
      h.login('acmeAgent'),
      h.login('kumoOwner'),
    ]);
    acme = await h.storeId('acme');
    await h.runtime.settle();
  }, 120_000);
  afterAll(() => h.stop());

  const get = (url: string, cookie = finance) => h.call({ method: 'GET', url, cookie });
  const post = (url: string, body: unknown, cookie = finance) => h.call({ method: 'POST', url, cookie, body });
  const draftOf = async (month: string) =>
    InvoiceDraft.parse(json(await get(`/api/finance/invoices/draft?storeId=${acme}&month=${month}`)));

  it("drafts the month from the ledger: premiums (an EUR one at its order's rate), Acme's 15% share, claims reimbursed", async () => {
    const period = `storeId=${acme}&from=${encodeURIComponent(`${MONTH}-01T00:00:00.000Z`)}`;
    const premiums = PremiumTotals.parse(json(await get(`/api/finance/premiums?${period}`))).totals;
    const payouts = PayoutEntriesResponse.parse(json(await get(`/api/finance/payout-entries?${period}`))).entries;
    const usd = premiums.find((t) => t.currency === 'USD')!;
    const eur = premiums.find((t) => t.currency === 'EUR')!;
    // The demo's EUR order pays 1.38 EUR at 0.92 EUR per USD: exactly 1.50 USD.
    expect(eur.collected).toBe(1.38);
    const premiumCents = cents(usd.collected) + 150;
    const claimCents = payouts.reduce((sum, p) => sum + cents(p.amount), 0);
    expect(claimCents).toBeGreaterThan(0);

    const draft = await draftOf(MONTH);
    expect(draft).toMatchObject({
      month: MONTH,
      currency: 'USD',
      revSharePercent: 15,
      monthEnded: true,
      issuedInvoiceId: null,
      storeName: 'Acme Outfitters',
    });
    expect(draft.lines.map((l) => [l.kind, l.quantity, cents(l.amount)])).toEqual([
      ['premiums', usd.orders + eur.orders, premiumCents],
      ['rev_share', null, -Math.round(premiumCents * 0.15)],
      ['claims', new Set(payouts.map((p) => p.claimId)).size, -claimCents],
    ]);
    expect(cents(draft.total)).toBe(draft.lines.reduce((sum, l) => sum + cents(l.amount), 0));
    expect(draft.direction).toBe(draft.total > 0 ? 'store_owes' : 'order_protection_owes');
  });

  it('issues a month only once it has ended, and only once', async () => {
    expect((await draftOf(NEXT_MONTH)).monthEnded).toBe(false);
    const early = await post('/api/finance/invoices', { storeId: acme, month: NEXT_MONTH });
    expect([early.statusCode, json<{ error: string }>(early).error]).toEqual([422, 'month_not_ended']);

    const draft = await draftOf(MONTH);
    const response = await post('/api/finance/invoices', { storeId: acme, month: MONTH });
    expect(response.statusCode, response.body).toBe(201);
    issued = InvoiceView.parse(json(response));
    expect(issued).toMatchObject({
      number: `ACME-${MONTH}`,
      month: MONTH,
      lines: draft.lines,
      total: draft.total,
      direction: draft.direction,
      creditNotes: [],
      balance: draft.total,
    });

    const again = await post('/api/finance/invoices', { storeId: acme, month: MONTH });
    expect([again.statusCode, json<{ error: string }>(again).error]).toEqual([409, 'already_invoiced']);
    expect((await draftOf(MONTH)).issuedInvoiceId).toBe(issued.id);
  });

  it('never changes an issued invoice, even when the ledger of its month does', async () => {
    const filed = await h.fileClaim('acme-5001', oneItemClaim('ava@example.com', 'f-1001-1', 'li-1', 'REFUND'));
    expect(
      (await post(`/api/admin/claims/${filed.claimId}/resolve`, { resolutionType: 'REFUND', reason: 'OTHER' }, owner))
        .statusCode,
    ).toBe(200);
    await h.runtime.settle();
    await eventually(async () => expect((await draftOf(MONTH)).total).toBeLessThan(issued.total));
    expect(InvoiceView.parse(json(await get(`/api/finance/invoices/${issued.id}`)))).toEqual(issued);
    const listed = InvoiceList.parse(json(await get(`/api/finance/invoices?month=${MONTH}`))).data;
    expect(listed.map((i) => [i.number, i.total])).toEqual([[issued.number, issued.total]]);
  });

  it('corrects it with credit notes that take back part of its lines, never more than the invoice', async () => {
    const url = `/api/finance/invoices/${issued.id}/credit-notes`;
    const response = await post(url, {
      lines: [
        { kind: 'premiums', amount: 1 },
        { kind: 'rev_share', amount: 0.15 },
      ],
      reason: 'Order 1002 cancelled before shipping',
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(CreditNoteView.parse(json(response))).toMatchObject({
      number: `ACME-${MONTH}-CN1`,
      invoiceId: issued.id,
      total: -0.85,
      lines: [
        { kind: 'premiums', amount: -1 },
        { kind: 'rev_share', amount: 0.15 },
      ],
    });
    const premiums = issued.lines.find((l) => l.kind === 'premiums')!.amount;
    const tooMuch = await post(url, { lines: [{ kind: 'premiums', amount: premiums }], reason: 'All of it again' });
    expect([tooMuch.statusCode, json<{ error: string }>(tooMuch).error]).toEqual([422, 'credit_exceeds_invoice']);
    expect(json<{ message: string }>(tooMuch).message).toContain(`${(premiums - 1).toFixed(2)} USD left to credit`);

    const corrected = await eventually(async () => {
      const view = InvoiceView.parse(json(await get(`/api/finance/invoices/${issued.id}`)));
      expect(view.creditNotes).toHaveLength(1);
      return view;
    });
    expect(corrected).toMatchObject({
      total: issued.total,
      lines: issued.lines,
      balance: (cents(issued.total) - 85) / 100,
    });

    // Two finance users each taking back most of what is left of the claims line, at once: one of them only.
    const left = -cents(issued.lines.find((l) => l.kind === 'claims')!.amount);
    const most = {
      lines: [{ kind: 'claims', amount: Math.ceil(left * 0.6) / 100 }],
      reason: 'Claim paid by the carrier',
    };
    const controller = await h.loginWith('controller@orderprotection.test');
    const both = await Promise.all([post(url, most), post(url, most, controller)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 422]);
  });

  it('downloads an invoice, its credit notes and its balance as CSV', async () => {
    const response = await get(`/api/finance/invoices/${issued.id}/export.csv`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="invoice-ACME-${MONTH}.csv"`);
    const rows = response.body.trimEnd().split('\r\n');
    expect(rows[0]).toBe('document,number,store,month,issued_at,line,description,quantity,amount,currency');
    const premiums = issued.lines[0]!;
    expect(rows[1]).toBe(
      `invoice,ACME-${MONTH},Acme Outfitters,${MONTH},${issued.issuedAt},premiums,${premiums.description},${premiums.quantity},${premiums.amount},USD`,
    );
    const note = rows.filter((row) => row.startsWith(`credit_note,ACME-${MONTH}-CN1,Acme Outfitters,${MONTH},`));
    expect(note.map((row) => row.split(',').slice(5).join(','))).toEqual([
      'premiums,Premiums collected taken back,,-1,USD',
      'rev_share,Revenue share taken back,,0.15,USD',
      'total,Credit note: Order 1002 cancelled before shipping,,-0.85,USD',
    ]);
    expect(rows.at(-1)).toMatch(
      new RegExp(
        `^balance,ACME-${MONTH},.*,balance,Balance after credit notes: (Acme Outfitters owes Order Protection|Order Protection owes Acme Outfitters),,-?[\\d.]+,USD$`,
      ),
    );
  });

  it("shows a store's owner their invoices, and nobody else's; only finance issues and corrects them", async () => {
    expect(
      InvoiceList.parse(json(await get(`/api/finance/invoices?storeId=${acme}`, owner))).data.map((i) => i.id),
    ).toEqual([issued.id]);
    expect((await get(`/api/finance/invoices/${issued.id}/export.csv`, owner)).statusCode).toBe(200);
    expect((await post('/api/finance/invoices', { storeId: acme, month: '2020-01' }, owner)).statusCode).toBe(403);
    expect(
      (
        await post(
          `/api/finance/invoices/${issued.id}/credit-notes`,
          { lines: [{ kind: 'premiums', amount: 1 }], reason: 'x' },
          owner,
        )
      ).statusCode,
    ).toBe(403);
    expect((await get(`/api/finance/invoices/draft?storeId=${acme}&month=${MONTH}`, owner)).statusCode).toBe(403);
    // Support staff of the store do not read billing.
    expect((await get(`/api/finance/invoices?storeId=${acme}`, agent)).statusCode).toBe(403);
    expect((await get('/api/finance/invoices', agent)).statusCode).toBe(403);
    // Another tenant: the same 404 as nothing at all.
    for (const url of [
      `/api/finance/invoices/${issued.id}`,
      `/api/finance/invoices/${issued.id}/export.csv`,
      `/api/finance/invoices?storeId=${acme}`,
    ]) {
      expect((await get(url, kumoOwner)).statusCode, url).toBe(404);
    }
    expect(InvoiceList.parse(json(await get('/api/finance/invoices', kumoOwner))).data).toEqual([]);
    expect((await get('/api/finance/invoices/00000000-0000-4000-8000-000000000009')).statusCode).toBe(404);
    expect(
      (await get(`/api/finance/invoices/draft?storeId=00000000-0000-4000-8000-000000000009&month=${MONTH}`)).statusCode,
    ).toBe(404);
    expect((await get(`/api/finance/invoices/draft?storeId=${acme}&month=2026-13`)).statusCode).toBe(400);
  });

  it('keeps a billing method as its kind and last four digits only, and refuses a full number', async () => {
    const methods = `/api/finance/stores/${acme}/payment-methods`;
    const card = { kind: 'card', brand: 'Visa', last4: '4242' };
    const set = await h.call({
      method: 'PUT',
      url: `/api/finance/stores/${acme}/billing-method`,
      cookie: owner,
      body: { method: card },
    });
    expect(set.statusCode, set.body).toBe(200);
    const full = await h.call({
      method: 'PUT',
      url: `/api/finance/stores/${acme}/billing-method`,
      cookie: owner,
      body: { method: { ...card, last4: '4242424242424242' } },
    });
    expect([full.statusCode, json<{ message: string }>(full).message]).toEqual([
      400,
      expect.stringContaining('only the last four digits, never the full card or account number'),
    ]);
    const pasted = await h.call({
      method: 'PUT',
      url: `/api/finance/stores/${acme}/payout-method`,
      cookie: finance,
      body: { method: { kind: 'provider', provider: 'Bank', reference: 'DE89 3704 0044 0532 0130 00' } },
    });
    expect([pasted.statusCode, json<{ message: string }>(pasted).message]).toEqual([
      400,
      expect.stringContaining('full card or account number'),
    ]);
    const payout = { kind: 'bank_account', bankName: 'First Bank', last4: '0042' };
    expect(
      (
        await h.call({
          method: 'PUT',
          url: `/api/finance/stores/${acme}/payout-method`,
          cookie: finance,
          body: { method: payout },
        })
      ).statusCode,
    ).toBe(200);
    // Finance reads the billing method but does not change it; the store's support staff see neither; another tenant nothing.
    expect(
      (
        await h.call({
          method: 'PUT',
          url: `/api/finance/stores/${acme}/billing-method`,
          cookie: finance,
          body: { method: card },
        })
      ).statusCode,
    ).toBe(403);
    expect((await get(methods, agent)).statusCode).toBe(403);
    expect((await get(methods, kumoOwner)).statusCode).toBe(404);
    await eventually(async () => {
      expect(PaymentMethodsView.parse(json(await get(methods)))).toMatchObject({
        billing: { method: card },
        payout: { method: payout },
      });
    });
    // Nothing anywhere holds more than the last four digits.
    const db = h.runtime.ctx.database.db;
    const { rows } = await sql<{
      data: string;
    }>`select data::text as data from events where type in ('BillingMethodSet', 'PayoutMethodSet') order by global_position`.execute(
      db,
    );
    expect(rows.map((r) => JSON.parse(r.data).method)).toEqual([card, payout]);
    const stored = await sql<{ method: string }>`select method::text as method from store_payment_methods`.execute(db);
    expect(stored.rows.map((r) => r.method).join(' ')).not.toMatch(/\d{5}/);
  });
});
