import type { DomainEvent } from '@claims/contracts';
import { fail, ok, type Result } from '../result.js';
import type { Decider } from '../decider.js';

/**
 * A part of the balance by where it came from: the credit issued for one resolution, or a goodwill adjustment
 * (no resolution). `remaining` is what of it is not spent yet.
 */
export interface CreditLot {
  resolutionId: string | null;
  issued: number;
  remaining: number;
}

/**
 * One customer's credit at one store: the balance in minor units, the resolutions it was issued for, and the
 * balance as lots, oldest first (the balance is their remainders' sum).
 */
export interface StoreCreditState {
  balance: number;
  issuedFor: ReadonlySet<string>;
  lots: readonly CreditLot[];
}

interface CreditScope {
  storeId: string;
  customerEmail: string;
  customerKey: string;
  currency: string;
  now: string;
}

export type StoreCreditCommand =
  | (CreditScope & { type: 'IssueStoreCredit'; amount: number; claimId: string; resolutionId: string })
  | (CreditScope & { type: 'RedeemStoreCredit'; amount: number; reference: string })
  | (CreditScope & { type: 'AdjustStoreCredit'; amount: number; reason: string })
  | (CreditScope & { type: 'ReclaimStoreCredit'; claimId: string; resolutionId: string; reason: string });

/** Spending draws on the oldest lots first (first in, first out), so a reversal takes back what is left of its own lot. */
function spend(lots: readonly CreditLot[], amount: number): CreditLot[] {
  let left = amount;
  return lots.map((lot) => {
    const drawn = Math.min(lot.remaining, left);
    left -= drawn;
    return drawn === 0 ? lot : { ...lot, remaining: lot.remaining - drawn };
  });
}

function evolve(state: StoreCreditState, event: DomainEvent): StoreCreditState {
  switch (event.type) {
    case 'StoreCreditIssued': {
      const { amount, resolutionId } = event.data;
      return {
        balance: state.balance + amount,
        issuedFor: new Set([...state.issuedFor, resolutionId]),
        lots: [...state.lots, { resolutionId, issued: amount, remaining: amount }],
      };
    }
    case 'StoreCreditRedeemed':
      return { ...state, balance: state.balance - event.data.amount, lots: spend(state.lots, event.data.amount) };
    case 'StoreCreditAdjusted': {
      const { amount } = event.data;
      const lots =
        amount > 0
          ? [...state.lots, { resolutionId: null, issued: amount, remaining: amount }]
          : spend(state.lots, -amount);
      return { ...state, balance: state.balance + amount, lots };
    }
    case 'StoreCreditReclaimed':
      return {
        ...state,
        balance: state.balance - event.data.amount,
        lots: state.lots.filter((lot) => lot.resolutionId !== event.data.resolutionId),
      };
    default:
      return state;
  }
}

/**
 * Store credit is issued once per STORE_CREDIT resolution (a repeat issues nothing), redeemed and adjusted by
 * the store; no redemption or adjustment may take the balance below zero. Reversing the resolution reclaims
 * what of its credit is unspent and states what was redeemed (kept by the customer); a repeat reclaims nothing.
 */
export const storeCreditDecider: Decider<StoreCreditState, StoreCreditCommand> = {
  initialState: { balance: 0, issuedFor: new Set(), lots: [] },
  evolve,
  decide(command, state): Result<DomainEvent[]> {
    const { type: _type, now, ...rest } = command;
    const scope = {
      storeId: rest.storeId,
      customerEmail: rest.customerEmail,
      customerKey: rest.customerKey,
      currency: rest.currency,
    };
    switch (command.type) {
      case 'IssueStoreCredit':
        if (state.issuedFor.has(command.resolutionId) || command.amount <= 0) return ok([]);
        return ok([
          {
            type: 'StoreCreditIssued',
            data: {
              ...scope,
              amount: command.amount,
              claimId: command.claimId,
              resolutionId: command.resolutionId,
              issuedAt: now,
            },
          },
        ]);
      case 'RedeemStoreCredit':
        if (command.amount <= 0) return fail('validation_failed', 'Redeem a positive amount.');
        if (command.amount > state.balance)
          return fail('validation_failed', "That is more than the customer's store credit balance.");
        return ok([
          {
            type: 'StoreCreditRedeemed',
            data: { ...scope, amount: command.amount, reference: command.reference, redeemedAt: now },
          },
        ]);
      case 'AdjustStoreCredit':
        if (command.amount === 0) return fail('validation_failed', 'An adjustment changes the balance by some amount.');
        if (state.balance + command.amount < 0) return fail('validation_failed', 'The balance cannot go below zero.');
        return ok([
          {
            type: 'StoreCreditAdjusted',
            data: { ...scope, amount: command.amount, reason: command.reason, adjustedAt: now },
          },
        ]);
      case 'ReclaimStoreCredit': {
        const lot = state.lots.find((l) => l.resolutionId === command.resolutionId);
        if (!lot) return ok([]);
        return ok([
          {
            type: 'StoreCreditReclaimed',
            data: {
              ...scope,
              claimId: command.claimId,
              resolutionId: command.resolutionId,
              amount: lot.remaining,
              redeemed: lot.issued - lot.remaining,
              reason: command.reason,
              reclaimedAt: now,
            },
          },
        ]);
      }
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  },
};
