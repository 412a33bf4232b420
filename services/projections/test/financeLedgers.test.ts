import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FINANCE_EVENT_TYPES, type CandidateMoneyRules, type EventOf } from '@claims/contracts';
import {
  financeReplay,
  invoiceDifferences,
  monthPeriod,
  monthlyFinance,
  payoutLinesOf,
  replayFinance,
  replayedInvoiceFigures,
  type FinanceLedgers,
} from '@claims/domain';
import {
  applyEvents,
  invoiceRows,
  invoicesProjection,
  payoutEntries,
  payoutLedgerProjection,
  periodLedger,
  premiumEntries,
  storeCreditEntries,
  storeCreditProjection,
} from '../src/index.js';
import { projectionDatabase } from './support/projectionDatabase.js';
import { MoneyHistory, moneyStep, type MoneyStep } from './support/moneyHistory.js';

const LIVE = [payoutLedgerProjection, storeCreditProjection, invoicesProjection];

/**
 * Plays the steps; an invoice is issued as the service issues it, from the live ledger's figures for its month (the
 * projections caught up with everything before it) and the store's revenue share, varied per invoice.
 */
async function played(db: Kysely<unknown>, steps: readonly MoneyStep[]): Promise<MoneyHistory> {
  await truncate(db);
  const history = new MoneyHistory();
  for (const [i, step] of steps.entries()) {
    if (step.kind !== 'invoice') {
      history.play(step);
      continue;
    }
    for (const projection of LIVE) await applyEvents(db, projection, history.envelopes);
    const due = history.invoiceDue(step);
    const { start, end } = monthPeriod(due.month);
    const ledger = await periodLedger(db, due.storeId, start, end);
    const premiums = ledger.premiums.map((p) => ({
      ...p,
      exchangeRate: p.currency === due.currency ? 1 : history.rateOf(p.orderId)!.exchangeRate,
    }));
    history.issueInvoice(step, due.month, {
      currency: due.currency,
      revSharePercent: (i * 7) % 40,
      premiums,
      payouts: ledger.payouts,
    });
  }
  return history;
}

const truncate = (db: Kysely<unknown>) =>
  sql`
  truncate payout_claims, payout_entries, payout_batches, premium_entries, store_credit_balances, store_credit_entries, invoices, invoice_credit_notes,
    store_payment_methods, projection_offsets`.execute(db);
const byKey = <T>(rows: Iterable<T>, key: (row: T) => string) => [...rows].sort((a, b) => key(a).localeCompare(key(b)));

/** The live read models as the ledgers' shapes. */
async function liveLedgers(db: Kysely<unknown>) {
  const balances = await sql<{
    store_id: string;
    customer_key: string;
    currency: string;
    balance: string;
    issued: string;
  }>`
    select store_id, customer_key, currency, balance, issued from store_credit_balances`.execute(db);
  return {
    payouts: byKey(await payoutEntries(db, {}), (p) => p.id),
    premiums: byKey(await premiumEntries(db, {}), (p) => p.eventId),
    storeCredit: byKey(await storeCreditEntries(db, {}), (c) => c.eventId),
    balances: byKey(
      balances.rows.map((r) => ({
        storeId: r.store_id,
        customerKey: r.customer_key,
        currency: r.currency,
        balance: Number(r.balance),
        issued: Number(r.issued),
      })),
      (b) => `${b.storeId}:${b.customerKey}`,
    ),
  };
}

const replayedLedgers = (ledgers: FinanceLedgers) => ({
  payouts: byKey(ledgers.payouts.values(), (p) => p.id),
  premiums: byKey(ledgers.premiums.values(), (p) => p.eventId),
  storeCredit: byKey(ledgers.storeCredit.values(), (c) => c.eventId),
  balances: byKey(ledgers.balances.values(), (b) => `${b.storeId}:${b.customerKey}`),
});

/** Applies the history to the live projections in batches of the given sizes (one of them delivered twice), checking balances after each. */
async function project(
  db: Kysely<unknown>,
  history: MoneyHistory,
  sizes: readonly number[],
  redelivered: number,
): Promise<void> {
  await truncate(db);
  const batches: Array<typeof history.envelopes> = [];
  for (let start = 0, i = 0; start < history.envelopes.length; i++) {
    const size = sizes[i % sizes.length]!;
    batches.push(history.envelopes.slice(start, start + size));
    start += size;
  }
  for (const [i, batch] of batches.entries()) {
    for (const projection of LIVE) await applyEvents(db, projection, batch);
    // At-least-once delivery: an earlier batch again changes nothing.
    if (i === redelivered % batches.length)
      for (const projection of LIVE) await applyEvents(db, projection, batches[Math.floor(i / 2)]!);
    const { rows } = await sql<{
      lowest: string | null;
    }>`select min(balance) as lowest from store_credit_balances`.execute(db);
    expect(Number(rows[0]?.lowest ?? 0)).toBeGreaterThanOrEqual(0);
  }
}

describe('the finance replay against the live ledgers (payout-ledger and store-credit projections on PGlite)', () => {
  let db: Kysely<unknown>;
  beforeAll(async () => {
    db = await projectionDatabase(LIVE);
  });
  afterAll(async () => {
    await db.destroy();
  });

  it('reads every event type the live ledgers are made of', () => {
    const handled = new Set<string>(LIVE.flatMap((p) => p.handles));
    expect(FINANCE_EVENT_TYPES.filter((type) => !handled.has(type))).toEqual([]);
  });

  it('rebuilds exactly the live ledgers and invoices, to the cent, from any history with reversals; no balance ever goes below zero', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(moneyStep, { minLength: 1, maxLength: 70, size: 'medium' }),
        fc.array(fc.integer({ min: 1, max: 15 }), { minLength: 1, maxLength: 5 }),
        fc.nat(),
        async (steps, sizes, redelivered) => {
          const history = await played(db, steps);
          await project(db, history, sizes, redelivered);

          // The replay's fold, event by event: no balance below zero at any point either.
          const replay = financeReplay();
          for (const fact of history.facts()) {
            replay.add(fact);
            for (const b of replay.ledgers.balances.values()) expect(b.balance).toBeGreaterThanOrEqual(0);
          }
          expect(replayedLedgers(replay.ledgers)).toEqual(await liveLedgers(db));

          // Every issued invoice, replayed as the events stood when it was issued: the same lines and total, which are their sum.
          const invoices = await invoiceRows(db, { storeIds: null });
          expect([...replay.ledgers.invoices.keys()].sort()).toEqual(invoices.map((i) => i.id).sort());
          for (const invoice of invoices) {
            const figures = replayedInvoiceFigures(replay.ledgers.invoices.get(invoice.id)!, history.rateOf);
            expect(figures.ok && { lines: figures.value.lines, total: figures.value.total }).toEqual({
              lines: invoice.lines,
              total: invoice.total,
            });
            expect(invoice.lines.reduce((sum, line) => sum + line.amount, 0)).toBe(invoice.total);
          }
          // A reversed entry is reversed on both sides, and one a batch held has exactly one clawback of minus its amount.
          const live = await payoutEntries(db, {});
          for (const entry of live.filter((e) => e.reversalOf)) {
            expect(entry.amount).toBe(-live.find((e) => e.id === entry.reversalOf)!.amount);
            expect(live.find((e) => e.id === entry.reversalOf)!.status).toBe('reversed');
          }

          // The invoices' seam agrees with the live tables, month by month.
          const { rows } = await sql<{
            store_id: string;
            month: string;
            currency: string;
            premiums: string;
            payouts: string;
            paid: string;
            credit: string;
          }>`
          select store_id, month, currency, sum(premiums) as premiums, sum(payouts) as payouts, sum(paid) as paid, sum(credit) as credit from (
            select store_id, to_char(at at time zone 'UTC', 'YYYY-MM') as month, currency, amount as premiums, 0 as payouts, 0 as paid, 0 as credit from premium_entries
            union all select store_id, to_char(decided_at at time zone 'UTC', 'YYYY-MM'), currency, 0, amount, case when status = 'paid' then amount else 0 end, 0 from payout_entries
            union all select store_id, to_char(at at time zone 'UTC', 'YYYY-MM'), currency, 0, 0, 0, amount from store_credit_entries where kind = 'issued'
          ) m group by store_id, month, currency`.execute(db);
          expect(monthlyFinance(replay.ledgers)).toEqual(
            byKey(
              rows.map((r) => ({
                storeId: r.store_id,
                month: r.month,
                currency: r.currency,
                premiums: Number(r.premiums),
                payouts: Number(r.payouts),
                payoutsPaid: Number(r.paid),
                storeCreditIssued: Number(r.credit),
              })),
              (m) => `${m.storeId}|${m.month}|${m.currency}`,
            ).sort(
              (a, b) =>
                a.storeId.localeCompare(b.storeId) ||
                a.month.localeCompare(b.month) ||
                a.currency.localeCompare(b.currency),
            ),
          );
        },
      ),
      { numRuns: 30 },
    );
  }, 300_000);

  it('under candidate rules, changes exactly the payouts those rules value differently, and the credit issued for them by as much', async () => {
    const candidate: fc.Arbitrary<CandidateMoneyRules> = fc.record(
      {
        replacementCostPercent: fc.integer({ min: 0, max: 300 }).map((n) => n / 2),
        credit: fc.record(
          {
            bonus: fc.integer({ min: 0, max: 600 }),
            bonusType: fc.constantFrom('fixed' as const, 'percentage' as const),
          },
          { requiredKeys: [] },
        ),
        revShare: fc.record({ merchantSharePercent: fc.integer({ min: 0, max: 200 }).map((n) => n / 2) }),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(moneyStep, { minLength: 1, maxLength: 60, size: 'medium' }),
        candidate,
        async (steps, rules) => {
          const history = await played(db, steps);
          await project(db, history, [50], 0);
          const live = await liveLedgers(db);
          const replayed = replayFinance(history.facts(), rules);

          // What each resolution line is worth as recorded and under the candidate rules.
          const claims = new Map<string, string>();
          const expected = new Map<string, { type: string; change: number }>();
          for (const e of history.envelopes) {
            if (e.type === 'ClaimFiled')
              claims.set(
                (e.data as EventOf<'ClaimFiled'>['data']).claimId,
                (e.data as EventOf<'ClaimFiled'>['data']).currency,
              );
            if (e.type !== 'ClaimResolved') continue;
            const data = e.data as EventOf<'ClaimResolved'>['data'];
            const worth = (c: CandidateMoneyRules) =>
              new Map(payoutLinesOf(data, claims.get(data.claimId)!, c).map((l) => [l.id, l.amount]));
            const [before, after] = [worth({}), worth(rules)];
            for (const r of data.resolutions) {
              const change = (after.get(r.id) ?? 0) - (before.get(r.id) ?? 0);
              if (change !== 0) expected.set(r.id, { type: r.resolutionType, change });
            }
          }
          // A clawback is minus its entry, under any rules.
          const clawbacks = (await payoutEntries(db, {})).filter((e) => e.reversalOf);
          for (const c of clawbacks) {
            const original = expected.get(c.reversalOf!);
            if (original) expected.set(c.id, { type: original.type, change: -original.change });
          }
          const liveById = new Map(live.payouts.map((p) => [p.id, p.amount]));
          const changed = new Map(
            [...new Set([...liveById.keys(), ...replayed.payouts.keys()])]
              .map((id) => [id, (replayed.payouts.get(id)?.amount ?? 0) - (liveById.get(id) ?? 0)] as const)
              .filter(([, change]) => change !== 0),
          );
          expect(new Map([...changed].map(([id, change]) => [id, change]))).toEqual(
            new Map([...expected].map(([id, e]) => [id, e.change])),
          );
          if (rules.credit === undefined)
            expect([...changed.keys()].every((id) => expected.get(id)!.type === 'RESHIP')).toBe(true);
          if (rules.replacementCostPercent === undefined)
            expect([...changed.keys()].every((id) => expected.get(id)!.type === 'STORE_CREDIT')).toBe(true);

          // Credit issued for a line moves with it; redemptions, adjustments and premiums are facts no rule revalues.
          // A reclaim takes back what of its credit was unspent: the part spent stays spent, the rest moves with the credit as replayed.
          const issuedFor = (
            entries: Iterable<{ kind: string; resolutionId: string | null; amount: number }>,
            resolutionId: string | null,
          ) => [...entries].find((e) => e.kind === 'issued' && e.resolutionId === resolutionId)?.amount;
          for (const entry of live.storeCredit) {
            const again = replayed.storeCredit.get(entry.eventId)!;
            if (entry.kind !== 'reclaimed') {
              expect(again.amount - entry.amount).toBe(
                entry.kind === 'issued' ? (expected.get(entry.resolutionId!)?.change ?? 0) : 0,
              );
              continue;
            }
            const [issuedLive, issuedAgain] = [
              issuedFor(live.storeCredit, entry.resolutionId),
              issuedFor(replayed.storeCredit.values(), entry.resolutionId),
            ];
            const spent = issuedLive === undefined ? null : issuedLive + entry.amount;
            expect(again.amount + 0).toBe(
              spent === null || issuedAgain === undefined ? entry.amount : -Math.max(0, issuedAgain - spent) + 0,
            );
          }
          expect(byKey(replayed.premiums.values(), (p) => p.eventId)).toEqual(live.premiums);

          // Each invoice: its claims line moves by minus the changes of the payouts it counted, each one a cause; its revenue
          // share only under a candidate share, caused by the invoice itself; its premiums never; and its lines still sum to its total.
          for (const invoice of await invoiceRows(db, { storeIds: null })) {
            const again = replayed.invoices.get(invoice.id)!;
            const figures = replayedInvoiceFigures(again, history.rateOf);
            if (!figures.ok) throw new Error(figures.error.message);
            expect(figures.value.lines.reduce((sum, line) => sum + line.amount, 0)).toBe(figures.value.total);
            const differences = new Map(invoiceDifferences(invoice, again, figures.value).map((d) => [d.line, d]));
            const claimsChange = again.payouts.reduce((sum, p) => sum - (expected.get(p.id)?.change ?? 0), 0);
            const claims = differences.get('claims');
            expect((claims?.replayed ?? 0) - (claims?.live ?? 0)).toBe(claimsChange);
            expect((claims?.causes ?? []).reduce((sum, c) => sum + c.change, 0)).toBe(claimsChange);
            expect(differences.has('premiums')).toBe(false);
            const share = differences.get('rev_share');
            if (share) {
              expect(rules.revShare).toBeDefined();
              expect(share.causes).toEqual([
                { eventId: again.eventId, claimId: null, change: share.replayed! - share.live! },
              ]);
            }
            const total = differences.get('total');
            expect((total?.replayed ?? invoice.total) - invoice.total).toBe(
              claimsChange + ((share?.replayed ?? 0) - (share?.live ?? 0)),
            );
          }
        },
      ),
      { numRuns: 25 },
    );
  }, 300_000);
});
