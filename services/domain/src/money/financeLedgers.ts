import type {
  CandidateMoneyRules,
  FinanceEvent,
  PayoutStatus,
  ResolutionType,
  StoreCreditKind,
} from '@claims/contracts';
import { payoutLinesOf } from './payouts.js';

/** A finance event with what the ledgers keep of its envelope. */
export type FinanceFact = FinanceEvent & { eventId: string; occurredAt: string };

/** One payout owed to a store for one resolution line (minor units of the store's currency). */
export interface LedgerPayout {
  id: string;
  storeId: string;
  claimId: string;
  /** The ClaimResolved that decided it. */
  eventId: string;
  resolutionType: ResolutionType;
  amount: number;
  currency: string;
  status: PayoutStatus;
  decidedAt: string;
  /** Of a clawback (the negative entry a reversal adds for a batched line), the entry it takes back; null otherwise. */
  reversalOf: string | null;
}

/** A premium recorded (positive) or reversed (negative), minor units of the premium's currency. */
export interface LedgerPremium {
  eventId: string;
  orderId: string;
  storeId: string;
  orderNumber: string;
  amount: number;
  currency: string;
  at: string;
}

/** One change to a customer's store credit, signed as it moved the balance (minor units of the store's currency). */
export interface LedgerStoreCredit {
  eventId: string;
  storeId: string;
  customerKey: string;
  kind: StoreCreditKind;
  amount: number;
  currency: string;
  claimId: string | null;
  resolutionId: string | null;
  at: string;
}

export interface LedgerBalance {
  storeId: string;
  customerKey: string;
  currency: string;
  balance: number;
  issued: number;
}

/** A payout an invoice counted, as it stood when the invoice was issued. */
export interface InvoicedPayout {
  id: string;
  claimId: string;
  /** The event that decided it: the ClaimResolved, or for a clawback the ClaimResolutionReversed. */
  eventId: string;
  amount: number;
  currency: string;
  /** What it is worth under the rules its decision recorded (equal to `amount` with no candidate rules). */
  recordedAmount: number;
}

/**
 * An issued invoice and what the replayed ledgers held of its store and month at the moment it was issued (in the
 * events' order): the inputs its figures are computed from again (docs/decisions/finance-replay.md).
 */
export interface ReplayedInvoice {
  /** The InvoiceIssued. */
  eventId: string;
  invoiceId: string;
  storeId: string;
  number: string;
  month: string;
  currency: string;
  /** The revenue share the invoice is replayed under: the candidate's, else the one it recorded. */
  revSharePercent: number;
  recordedRevSharePercent: number;
  premiums: ReadonlyArray<{ orderId: string; amount: number; currency: string }>;
  payouts: readonly InvoicedPayout[];
}

/** The money ledgers as the events make them: payouts by line id, premiums and store credit by event id, balances by store and customer, invoices by id. */
export interface FinanceLedgers {
  payouts: ReadonlyMap<string, LedgerPayout>;
  premiums: ReadonlyMap<string, LedgerPremium>;
  storeCredit: ReadonlyMap<string, LedgerStoreCredit>;
  balances: ReadonlyMap<string, LedgerBalance>;
  invoices: ReadonlyMap<string, ReplayedInvoice>;
}

export interface FinanceReplay {
  /** Folds one event in; events must come in the store's order (a resolution after its filing). */
  add(fact: FinanceFact): void;
  /** The ledgers so far (live views of the replay's own maps: read them once the events are in). */
  readonly ledgers: FinanceLedgers;
}

export const balanceKey = (storeId: string, customerKey: string) => `${storeId}:${customerKey}`;

/** Where an invoice looks for its entries: its store and UTC month (`YYYY-MM` of an ISO time in UTC). */
const storeMonthKey = (storeId: string, at: string) => `${storeId}|${at.slice(0, 7)}`;

/**
 * Whether a payout counts on its month's invoice: not reversed, or reversed after it was batched (its money moved or
 * will, and the clawback counts in the month of the reversal instead).
 */
export const standsOnInvoice = (entry: Pick<LedgerPayout, 'status'>, clawedBack: boolean): boolean =>
  entry.status !== 'reversed' || clawedBack;

/**
 * The payout ledger, premiums, store credit and invoices' inputs rebuilt from the events, exactly as the live
 * projections build them (payout-ledger, store-credit) and with the same function for money (`payoutLinesOf`), so
 * with no candidate rules it equals them by construction. A reversed resolution reverses its entries, with a
 * clawback for each one already batched. Candidate rules revalue every decision, every credit issued for one and
 * every invoice's revenue share, as if they had been recorded with it. The state is the replay's own mutable maps:
 * a million events fold without copying.
 */
export function financeReplay(candidate: CandidateMoneyRules = {}): FinanceReplay {
  const claims = new Map<string, { storeId: string; currency: string }>();
  const payouts = new Map<string, LedgerPayout>();
  const batches = new Map<string, readonly string[]>();
  /** Entries some batch holds: a reversal of one of them needs a clawback, because the batch's total includes it. */
  const batched = new Set<string>();
  /** Entries a clawback takes back. */
  const clawedBack = new Set<string>();
  const invoices = new Map<string, ReplayedInvoice>();
  /** Each store month's premiums and payouts, for the invoice issued for it. */
  const byStoreMonth = new Map<string, { premiums: LedgerPremium[]; payouts: LedgerPayout[] }>();
  const monthOf = (storeId: string, at: string) => {
    const key = storeMonthKey(storeId, at);
    let found = byStoreMonth.get(key);
    if (!found) byStoreMonth.set(key, (found = { premiums: [], payouts: [] }));
    return found;
  };
  /** What each line is worth under the rules its decision recorded, kept only when candidate rules revalue lines. */
  const revalues = candidate.replacementCostPercent !== undefined || candidate.credit !== undefined;
  const recordedAmounts = new Map<string, number>();
  const premiums = new Map<string, LedgerPremium>();
  const storeCredit = new Map<string, LedgerStoreCredit>();
  const balances = new Map<string, LedgerBalance>();
  /** What each STORE_CREDIT line is worth under the replay's rules (0 when it moves nothing), for the credit issued for it. */
  const creditValues = new Map<string, number>();

  const setStatus = (batchId: string, status: PayoutStatus) => {
    for (const id of batches.get(batchId) ?? []) {
      const entry = payouts.get(id);
      // A reversed entry stays reversed: its clawback settles what its batch moves.
      if (entry && entry.status !== 'reversed') entry.status = status;
    }
  };

  /** The credit the replay issued for each resolution, what a reversal's reclamation is measured against. */
  const issuedCredit = new Map<string, number>();

  const credit = (
    fact: FinanceFact & {
      type: 'StoreCreditIssued' | 'StoreCreditRedeemed' | 'StoreCreditAdjusted' | 'StoreCreditReclaimed';
    },
    entry: Omit<LedgerStoreCredit, 'eventId' | 'storeId' | 'customerKey' | 'currency' | 'at'>,
  ) => {
    if (storeCredit.has(fact.eventId)) return;
    const { storeId, customerKey, currency } = fact.data;
    storeCredit.set(fact.eventId, {
      eventId: fact.eventId,
      storeId,
      customerKey,
      currency,
      at: fact.occurredAt,
      ...entry,
    });
    const key = balanceKey(storeId, customerKey);
    const balance = balances.get(key) ?? { storeId, customerKey, currency, balance: 0, issued: 0 };
    balance.balance += entry.amount;
    if (entry.kind === 'issued') balance.issued += entry.amount;
    if (entry.kind === 'issued' && entry.resolutionId) issuedCredit.set(entry.resolutionId, entry.amount);
    balances.set(key, balance);
  };

  function add(fact: FinanceFact): void {
    switch (fact.type) {
      case 'ClaimFiled':
        if (!claims.has(fact.data.claimId))
          claims.set(fact.data.claimId, { storeId: fact.data.storeId, currency: fact.data.currency });
        return;
      case 'ClaimResolved': {
        const claim = claims.get(fact.data.claimId);
        if (!claim) return;
        const lines = payoutLinesOf(fact.data, claim.currency, candidate);
        if (revalues)
          for (const line of payoutLinesOf(fact.data, claim.currency)) recordedAmounts.set(line.id, line.amount);
        for (const line of lines) {
          if (payouts.has(line.id)) continue;
          const entry: LedgerPayout = {
            ...line,
            storeId: claim.storeId,
            eventId: fact.eventId,
            status: 'pending',
            decidedAt: fact.occurredAt,
            reversalOf: null,
          };
          payouts.set(line.id, entry);
          monthOf(entry.storeId, entry.decidedAt).payouts.push(entry);
        }
        for (const resolution of fact.data.resolutions) {
          if (resolution.resolutionType === 'STORE_CREDIT')
            creditValues.set(resolution.id, lines.find((l) => l.id === resolution.id)?.amount ?? 0);
        }
        return;
      }
      case 'PayoutBatchCreated':
        if (batches.has(fact.data.batchId)) return;
        batches.set(fact.data.batchId, fact.data.entryIds);
        for (const id of fact.data.entryIds) batched.add(id);
        return;
      case 'ClaimResolutionReversed':
        for (const { resolutionId, clawbackEntryId } of fact.data.lines) {
          const entry = payouts.get(resolutionId);
          if (!entry || entry.status === 'reversed' || payouts.has(clawbackEntryId)) continue;
          entry.status = 'reversed';
          if (!batched.has(entry.id)) continue;
          const clawback: LedgerPayout = {
            ...entry,
            id: clawbackEntryId,
            eventId: fact.eventId,
            amount: -entry.amount,
            status: 'pending',
            decidedAt: fact.occurredAt,
            reversalOf: entry.id,
          };
          payouts.set(clawbackEntryId, clawback);
          clawedBack.add(entry.id);
          if (revalues) recordedAmounts.set(clawbackEntryId, -(recordedAmounts.get(entry.id) ?? entry.amount));
          monthOf(clawback.storeId, clawback.decidedAt).payouts.push(clawback);
        }
        return;
      case 'InvoiceIssued': {
        const d = fact.data;
        if (invoices.has(d.invoiceId)) return;
        const month = byStoreMonth.get(`${d.storeId}|${d.month}`) ?? { premiums: [], payouts: [] };
        invoices.set(d.invoiceId, {
          eventId: fact.eventId,
          invoiceId: d.invoiceId,
          storeId: d.storeId,
          number: d.number,
          month: d.month,
          currency: d.currency,
          revSharePercent: candidate.revShare?.merchantSharePercent ?? d.revSharePercent,
          recordedRevSharePercent: d.revSharePercent,
          premiums: month.premiums.map((p) => ({ orderId: p.orderId, amount: p.amount, currency: p.currency })),
          // Copied, not referenced: what stood then, whatever is reversed or revalued later.
          payouts: month.payouts
            .filter((p) => standsOnInvoice(p, clawedBack.has(p.id)))
            .map((p) => ({
              id: p.id,
              claimId: p.claimId,
              eventId: p.eventId,
              amount: p.amount,
              currency: p.currency,
              recordedAmount: recordedAmounts.get(p.id) ?? p.amount,
            })),
        });
        return;
      }
      case 'PayoutBatchApproved':
        return setStatus(fact.data.batchId, 'approved');
      case 'PayoutBatchPaid':
        return setStatus(fact.data.batchId, 'paid');
      case 'PremiumRecorded':
      case 'PremiumReversed': {
        if (premiums.has(fact.eventId)) return;
        const d = fact.data;
        const premium: LedgerPremium = {
          eventId: fact.eventId,
          orderId: d.orderId,
          storeId: d.storeId,
          orderNumber: d.orderNumber,
          amount: fact.type === 'PremiumRecorded' ? d.premiumPaid : -d.premiumPaid,
          currency: d.premiumCurrency,
          at: fact.occurredAt,
        };
        premiums.set(fact.eventId, premium);
        monthOf(premium.storeId, premium.at).premiums.push(premium);
        return;
      }
      case 'StoreCreditIssued':
        // Revalued from the line it was issued for; a line the replay never saw decided keeps what was issued.
        return credit(fact, {
          kind: 'issued',
          amount: creditValues.get(fact.data.resolutionId) ?? fact.data.amount,
          claimId: fact.data.claimId,
          resolutionId: fact.data.resolutionId,
        });
      case 'StoreCreditRedeemed':
        return credit(fact, { kind: 'redeemed', amount: -fact.data.amount, claimId: null, resolutionId: null });
      case 'StoreCreditAdjusted':
        return credit(fact, { kind: 'adjusted', amount: fact.data.amount, claimId: null, resolutionId: null });
      case 'StoreCreditReclaimed': {
        // What was redeemed stays redeemed; the rest of the credit as the replay issued it is taken back.
        const { claimId, resolutionId, amount, redeemed } = fact.data;
        const issued = issuedCredit.get(resolutionId);
        // `0 -`, not unary minus: a credit spent to the last cent reclaims 0, not -0 (which the ledgers' equality tells apart).
        return credit(fact, {
          kind: 'reclaimed',
          amount: 0 - (issued === undefined ? amount : Math.max(0, issued - redeemed)),
          claimId,
          resolutionId,
        });
      }
      default: {
        const exhaustive: never = fact;
        return exhaustive;
      }
    }
  }

  return { add, ledgers: { payouts, premiums, storeCredit, balances, invoices } };
}

/** Folds a whole history at once (tests, and anything holding its events in memory). */
export function replayFinance(facts: Iterable<FinanceFact>, candidate: CandidateMoneyRules = {}): FinanceLedgers {
  const replay = financeReplay(candidate);
  for (const fact of facts) replay.add(fact);
  return replay.ledgers;
}
