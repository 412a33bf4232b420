import type { CandidateMoneyRules, FinanceEvent, PayoutStatus, ResolutionType } from '@claims/contracts';
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

export type StoreCreditKind = 'issued' | 'redeemed' | 'adjusted';

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

/** The money ledgers as the events make them: payouts by line id, premiums and store credit by event id, balances by store and customer. */
export interface FinanceLedgers {
  payouts: ReadonlyMap<string, LedgerPayout>;
  premiums: ReadonlyMap<string, LedgerPremium>;
  storeCredit: ReadonlyMap<string, LedgerStoreCredit>;
  balances: ReadonlyMap<string, LedgerBalance>;
}

export interface FinanceReplay {
  /** Folds one event in; events must come in the store's order (a resolution after its filing). */
  add(fact: FinanceFact): void;
  /** The ledgers so far (live views of the replay's own maps: read them once the events are in). */
  readonly ledgers: FinanceLedgers;
}

export const balanceKey = (storeId: string, customerKey: string) => `${storeId}:${customerKey}`;

/**
 * The payout ledger, premiums and store credit rebuilt from the events, exactly as the live projections build them
 * (payout-ledger, store-credit) and with the same function for money (`payoutLinesOf`), so with no candidate rules
 * it equals them by construction. Candidate rules revalue every decision, and every credit issued for one, as if
 * they had been recorded with it. The state is the replay's own mutable maps: a million events fold without copying.
 */
export function financeReplay(candidate: CandidateMoneyRules = {}): FinanceReplay {
  const claims = new Map<string, { storeId: string; currency: string }>();
  const payouts = new Map<string, LedgerPayout>();
  const batches = new Map<string, readonly string[]>();
  const premiums = new Map<string, LedgerPremium>();
  const storeCredit = new Map<string, LedgerStoreCredit>();
  const balances = new Map<string, LedgerBalance>();
  /** What each STORE_CREDIT line is worth under the replay's rules (0 when it moves nothing), for the credit issued for it. */
  const creditValues = new Map<string, number>();

  const setStatus = (batchId: string, status: PayoutStatus) => {
    for (const id of batches.get(batchId) ?? []) {
      const entry = payouts.get(id);
      if (entry) entry.status = status;
    }
  };

  const credit = (fact: FinanceFact & { type: 'StoreCreditIssued' | 'StoreCreditRedeemed' | 'StoreCreditAdjusted' }, entry: Omit<LedgerStoreCredit, 'eventId' | 'storeId' | 'customerKey' | 'currency' | 'at'>) => {
    if (storeCredit.has(fact.eventId)) return;
    const { storeId, customerKey, currency } = fact.data;
    storeCredit.set(fact.eventId, { eventId: fact.eventId, storeId, customerKey, currency, at: fact.occurredAt, ...entry });
    const key = balanceKey(storeId, customerKey);
    const balance = balances.get(key) ?? { storeId, customerKey, currency, balance: 0, issued: 0 };
    balance.balance += entry.amount;
    if (entry.kind === 'issued') balance.issued += entry.amount;
    balances.set(key, balance);
  };

  function add(fact: FinanceFact): void {
    switch (fact.type) {
      case 'ClaimFiled':
        if (!claims.has(fact.data.claimId)) claims.set(fact.data.claimId, { storeId: fact.data.storeId, currency: fact.data.currency });
        return;
      case 'ClaimResolved': {
        const claim = claims.get(fact.data.claimId);
        if (!claim) return;
        const lines = payoutLinesOf(fact.data, claim.currency, candidate);
        for (const line of lines) {
          if (payouts.has(line.id)) continue;
          payouts.set(line.id, { ...line, storeId: claim.storeId, eventId: fact.eventId, status: 'pending', decidedAt: fact.occurredAt });
        }
        for (const resolution of fact.data.resolutions) {
          if (resolution.resolutionType === 'STORE_CREDIT') creditValues.set(resolution.id, lines.find((l) => l.id === resolution.id)?.amount ?? 0);
        }
        return;
      }
      case 'PayoutBatchCreated':
        if (!batches.has(fact.data.batchId)) batches.set(fact.data.batchId, fact.data.entryIds);
        return;
      case 'PayoutBatchApproved':
        return setStatus(fact.data.batchId, 'approved');
      case 'PayoutBatchPaid':
        return setStatus(fact.data.batchId, 'paid');
      case 'PremiumRecorded':
      case 'PremiumReversed': {
        if (premiums.has(fact.eventId)) return;
        const d = fact.data;
        premiums.set(fact.eventId, {
          eventId: fact.eventId, orderId: d.orderId, storeId: d.storeId, orderNumber: d.orderNumber,
          amount: fact.type === 'PremiumRecorded' ? d.premiumPaid : -d.premiumPaid, currency: d.premiumCurrency, at: fact.occurredAt,
        });
        return;
      }
      case 'StoreCreditIssued':
        // Revalued from the line it was issued for; a line the replay never saw decided keeps what was issued.
        return credit(fact, {
          kind: 'issued', amount: creditValues.get(fact.data.resolutionId) ?? fact.data.amount, claimId: fact.data.claimId, resolutionId: fact.data.resolutionId,
        });
      case 'StoreCreditRedeemed':
        return credit(fact, { kind: 'redeemed', amount: -fact.data.amount, claimId: null, resolutionId: null });
      case 'StoreCreditAdjusted':
        return credit(fact, { kind: 'adjusted', amount: fact.data.amount, claimId: null, resolutionId: null });
      default: {
        const exhaustive: never = fact;
        return exhaustive;
      }
    }
  }

  return { add, ledgers: { payouts, premiums, storeCredit, balances } };
}

/** Folds a whole history at once (tests, and anything holding its events in memory). */
export function replayFinance(facts: Iterable<FinanceFact>, candidate: CandidateMoneyRules = {}): FinanceLedgers {
  const replay = financeReplay(candidate);
  for (const fact of facts) replay.add(fact);
  return replay.ledgers;
}
