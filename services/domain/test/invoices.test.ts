import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { DomainEvent, InvoiceLineKind, PaymentMethod } from '@claims/contracts';
import {
  creditableOf,
  invoiceFigures,
  monthHasEnded,
  monthPeriod,
  storeBillingDecider,
  type InvoiceInputs,
  type InvoicePayout,
  type InvoicePremium,
  type StoreBillingCommand,
  type StoreBillingState,
} from '../src/index.js';
import { given, refused } from './support/givenWhenThen.js';

const storeId = '81111111-1111-4111-8111-111111111111';
const invoiceId = '91111111-1111-4111-8111-111111111111';
const noteId = 'a1111111-1111-4111-8111-111111111111';
const JULY_2ND = '2026-07-02T09:00:00.000Z';
const scope = { storeId, actorId: 'fay', now: JULY_2ND };

const premium = (orderId: string, amount: number, currency = 'USD', exchangeRate = 1): InvoicePremium => ({
  orderId,
  amount,
  currency,
  exchangeRate,
});
const payout = (id: string, claimId: string, amount: number, currency = 'USD'): InvoicePayout => ({
  id,
  claimId,
  amount,
  currency,
});
const inputs = (overrides: Partial<InvoiceInputs> = {}): InvoiceInputs => ({
  currency: 'USD',
  revSharePercent: 15,
  premiums: [],
  payouts: [],
  ...overrides,
});
const issue = (month: string, overrides: Partial<InvoiceInputs> = {}): StoreBillingCommand => ({
  ...scope,
  type: 'IssueInvoice',
  invoiceId,
  storeSlug: 'acme',
  month,
  inputs: inputs(overrides),
});
const credit = (
  lines: Array<{ kind: InvoiceLineKind; amount: number }>,
  creditNoteId = noteId,
): StoreBillingCommand => ({
  ...scope,
  type: 'IssueCreditNote',
  invoiceId,
  creditNoteId,
  reason: 'Premium of order 1002 charged twice',
  lines,
});

/** June 2026 for Acme: 30.00 of premiums on three orders, 15% kept by the store, 50.00 of claims reimbursed. */
const JUNE = {
  premiums: [premium('o1', 1_000), premium('o2', 1_000), premium('o3', 1_000)],
  payouts: [payout('p1', 'c1', 2_000), payout('p2', 'c2', 3_000)],
};
const juneInvoiced = given(storeBillingDecider)
  .when(issue('2026-06', JUNE))
  .then([
    {
      type: 'InvoiceIssued',
      data: {
        storeId,
        invoiceId,
        number: 'ACME-2026-06',
        month: '2026-06',
        currency: 'USD',
        revSharePercent: 15,
        issuedBy: 'fay',
        issuedAt: JULY_2ND,
        lines: [
          { kind: 'premiums', description: 'Premiums collected (3 orders)', quantity: 3, amount: 3_000 },
          { kind: 'rev_share', description: 'Revenue share (15% of premiums)', quantity: null, amount: -450 },
          { kind: 'claims', description: 'Claims reimbursed (2 claims)', quantity: 2, amount: -5_000 },
        ],
        total: -2_450,
      },
    },
  ]);

describe("a month's invoice figures", () => {
  it('rounds the revenue share half to even, once, from the printed premiums line', () => {
    // 15% of 0.30 is 0.045: half a cent, to the even 0.04; of 0.50 it is 0.075, to 0.08.
    const share = (cents: number) => invoiceFigures(inputs({ premiums: [premium('o', cents)] }));
    expect(share(30)).toMatchObject({
      ok: true,
      value: { lines: [{ amount: 30 }, { amount: -4 }, { amount: 0 }], total: 26, direction: 'store_owes' },
    });
    expect(share(50)).toMatchObject({
      ok: true,
      value: { lines: [{ amount: 50 }, { amount: -8 }, { amount: 0 }], total: 42 },
    });
  });

  it("converts a premium in the order's currency exactly and rounds the sum once", () => {
    // Two EUR premiums of 1.38 at 0.92 EUR per USD: 1.50 USD each, exactly; three of 0.01 EUR: 0.0326… USD, rounded once.
    const eur = invoiceFigures(
      inputs({ revSharePercent: 0, premiums: [premium('e1', 138, 'EUR', 0.92), premium('e2', 138, 'EUR', 0.92)] }),
    );
    expect(eur).toMatchObject({
      ok: true,
      value: { lines: [{ amount: 300, quantity: 2 }, { amount: 0 }, { amount: 0 }], total: 300 },
    });
    const tiny = invoiceFigures(
      inputs({ revSharePercent: 0, premiums: ['a', 'b', 'c'].map((id) => premium(id, 1, 'EUR', 0.92)) }),
    );
    expect(tiny).toMatchObject({ ok: true, value: { total: 3 } });
  });

  it('nets a reversed premium, and says who owes whom', () => {
    const reversed = invoiceFigures(
      inputs({ premiums: [premium('o1', 500), premium('o1', -500)], payouts: [payout('p', 'c', 700)] }),
    );
    expect(reversed).toMatchObject({
      ok: true,
      value: {
        lines: [{ amount: 0, quantity: 1 }, { amount: 0 }, { amount: -700 }],
        total: -700,
        direction: 'order_protection_owes',
      },
    });
    expect(invoiceFigures(inputs())).toMatchObject({ ok: true, value: { total: 0, direction: 'settled' } });
  });

  it("refuses a payout in another currency than the store's", () => {
    expect(invoiceFigures(inputs({ payouts: [payout('p', 'c', 100, 'EUR')] }))).toMatchObject({
      ok: false,
      error: { code: 'validation_failed' },
    });
  });

  it('always has lines that add up to its total, whatever the entries and the share', () => {
    const currency = fc.constantFrom(['USD', 1], ['EUR', 0.92], ['JPY', 151.37], ['KWD', 0.307]) as fc.Arbitrary<
      [string, number]
    >;
    const premiums = fc.array(
      fc
        .tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: -50_000, max: 50_000 }), currency)
        .map(([order, amount, [code, rate]]) => premium(`o${order}`, amount, code, rate)),
      { maxLength: 30 },
    );
    const payouts = fc
      .array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 1, max: 500_000 })), { maxLength: 30 })
      .map((drawn) => drawn.map(([claim, amount], i) => payout(`p${i}`, `c${claim}`, amount)));
    const share = fc.integer({ min: 0, max: 10_000 }).map((basisPoints) => basisPoints / 100);
    fc.assert(
      fc.property(premiums, payouts, share, (p, q, revSharePercent) => {
        const figures = invoiceFigures(inputs({ premiums: p, payouts: q, revSharePercent }));
        if (!figures.ok) return false;
        const { lines, total, direction } = figures.value;
        return (
          lines.every((l) => Number.isSafeInteger(l.amount)) &&
          lines.reduce((sum, l) => sum + l.amount, 0) === total &&
          Math.abs(lines[1]!.amount) <= Math.abs(lines[0]!.amount) &&
          direction === (total > 0 ? 'store_owes' : total < 0 ? 'order_protection_owes' : 'settled')
        );
      }),
    );
  });

  it('covers a UTC calendar month, issued once it is over', () => {
    expect(monthPeriod('2026-12')).toEqual({ start: '2026-12-01T00:00:00.000Z', end: '2027-01-01T00:00:00.000Z' });
    expect(monthHasEnded('2026-06', '2026-06-30T23:59:59.999Z')).toBe(false);
    expect(monthHasEnded('2026-06', '2026-07-01T00:00:00.000Z')).toBe(true);
  });
});

describe("a store's invoices", () => {
  const issued = given(storeBillingDecider, juneInvoiced);

  it('issues a month once, and only after it ends', () => {
    expect(juneInvoiced).toHaveLength(1);
    issued.when(issue('2026-06', { premiums: [] })).then(refused('already_invoiced', 'ACME-2026-06'));
    given(storeBillingDecider).when(issue('2026-07')).then(refused('month_not_ended', '2026-07 has not ended yet'));
    given(storeBillingDecider).when(issue('2026-13')).then(refused('validation_failed'));
  });

  it('corrects an issued invoice with a credit note that takes back part of its lines, never more', () => {
    // 5.00 of premiums charged in error: the store owes 5.00 less; 0.75 of the share with it.
    const first = issued
      .when(
        credit([
          { kind: 'premiums', amount: 500 },
          { kind: 'rev_share', amount: 75 },
        ]),
      )
      .then([
        {
          type: 'CreditNoteIssued',
          data: {
            storeId,
            creditNoteId: noteId,
            invoiceId,
            number: 'ACME-2026-06-CN1',
            lines: [
              { kind: 'premiums', amount: -500 },
              { kind: 'rev_share', amount: 75 },
            ],
            total: -425,
            reason: 'Premium of order 1002 charged twice',
            issuedBy: 'fay',
            issuedAt: JULY_2ND,
          },
        },
      ]);
    const credited = given(storeBillingDecider, [...juneInvoiced, ...first]);
    expect(creditableOf(credited.state.invoices.get(invoiceId)!, 'premiums')).toBe(2_500);
    credited
      .when(credit([{ kind: 'premiums', amount: 2_501 }]))
      .then(refused('credit_exceeds_invoice', '25.00 USD left to credit on ACME-2026-06'));
    credited
      .when(credit([{ kind: 'claims', amount: 5_000 }]))
      .thenMatches([
        { data: { number: 'ACME-2026-06-CN2', lines: [{ kind: 'claims', amount: 5_000 }], total: 5_000 } },
      ]);
  });

  it('refuses a credit note for an unknown invoice, without amounts, or naming a line twice', () => {
    given(storeBillingDecider)
      .when(credit([{ kind: 'premiums', amount: 1 }]))
      .then(refused('not_found'));
    issued.when(credit([])).then(refused('validation_failed'));
    issued.when(credit([{ kind: 'premiums', amount: 0 }])).then(refused('validation_failed'));
    issued
      .when(
        credit([
          { kind: 'premiums', amount: 1 },
          { kind: 'premiums', amount: 1 },
        ]),
      )
      .then(refused('validation_failed', 'once'));
  });

  it('never credits more than the invoice, whatever credit notes are asked for', () => {
    const kind = fc.constantFrom<InvoiceLineKind>('premiums', 'rev_share', 'claims');
    const request = fc.array(fc.tuple(kind, fc.integer({ min: -100, max: 6_000 })), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(fc.array(request, { maxLength: 12 }), (requests) => {
        let state: StoreBillingState = issued.state;
        const notes: DomainEvent[] = [];
        for (const [i, lines] of requests.entries()) {
          const result = storeBillingDecider.decide(
            credit(
              lines.map(([k, amount]) => ({ kind: k, amount })),
              `b1111111-1111-4111-8111-${String(i).padStart(12, '0')}`,
            ),
            state,
          );
          if (!result.ok) continue;
          notes.push(...result.value);
          state = result.value.reduce(storeBillingDecider.evolve, state);
        }
        const invoice = state.invoices.get(invoiceId)!;
        const taken = (k: InvoiceLineKind) =>
          notes
            .flatMap((n) => (n.type === 'CreditNoteIssued' ? n.data.lines : []))
            .filter((l) => l.kind === k)
            .reduce((sum, l) => sum + Math.abs(l.amount), 0);
        const credits = notes.reduce((sum, n) => sum + (n.type === 'CreditNoteIssued' ? Math.abs(n.data.total) : 0), 0);
        return (
          invoice.lines.every(
            (line) => taken(line.kind) <= Math.abs(line.amount) && creditableOf(invoice, line.kind) >= 0,
          ) && credits <= invoice.lines.reduce((sum, line) => sum + Math.abs(line.amount), 0)
        );
      }),
    );
  });
});

describe("a store's billing and payout methods", () => {
  const card: PaymentMethod = { kind: 'card', brand: 'Visa', last4: '4242' };

  it("keeps a card's brand and last four digits, and a repeat changes nothing", () => {
    const set = given(storeBillingDecider)
      .when({ ...scope, type: 'SetBillingMethod', method: card })
      .then([{ type: 'BillingMethodSet', data: { storeId, method: card, setBy: 'fay', setAt: JULY_2ND } }]);
    const stored = given(storeBillingDecider, set);
    expect(stored.state.billingMethod).toEqual(card);
    stored.when({ ...scope, type: 'SetBillingMethod', method: { ...card } }).then([]);
    stored
      .when({
        ...scope,
        type: 'SetPayoutMethod',
        method: { kind: 'bank_account', bankName: 'First Bank', last4: '0042' },
      })
      .thenMatches([{ type: 'PayoutMethodSet', data: { method: { kind: 'bank_account', last4: '0042' } } }]);
  });

  it('refuses a full card or account number wherever it is typed', () => {
    const refusal = refused('validation_failed', /full card or account number|last four digits/);
    given(storeBillingDecider)
      .when({ ...scope, type: 'SetBillingMethod', method: { ...card, last4: '4242424242424242' } })
      .then(refusal);
    given(storeBillingDecider)
      .when({
        ...scope,
        type: 'SetPayoutMethod',
        method: { kind: 'bank_account', bankName: 'DE89 3704 0044 0532 0130 00', last4: '3000' },
      })
      .then(refusal);
    given(storeBillingDecider)
      .when({
        ...scope,
        type: 'SetPayoutMethod',
        method: { kind: 'provider', provider: 'Stripe', reference: '4111-1111-1111-1111' },
      })
      .then(refusal);
    given(storeBillingDecider)
      .when({
        ...scope,
        type: 'SetPayoutMethod',
        method: { kind: 'provider', provider: 'Stripe', reference: 'ba_1NqXyZ2eZvKYlo2C' },
      })
      .thenMatches([{ type: 'PayoutMethodSet' }]);
  });
});
