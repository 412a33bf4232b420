import type { DomainEvent } from '@claims/contracts';
import { fail, ok, type Result } from '../result.js';
import type { Decider } from '../decider.js';

/** One customer's credit at one store: the balance in minor units, and the resolutions it was issued for. */
export interface StoreCreditState {
  balance: number;
  issuedFor: ReadonlySet<string>;
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
  | (CreditScope & { type: 'AdjustStoreCredit'; amount: number; reason: string });

function evolve(state: StoreCreditState, event: DomainEvent): StoreCreditState {
  switch (event.type) {
    case 'StoreCreditIssued':
      return { balance: state.balance + event.data.amount, issuedFor: new Set([...state.issuedFor, event.data.resolutionId]) };
    case 'StoreCreditRedeemed':
      return { ...state, balance: state.balance - event.data.amount };
    case 'StoreCreditAdjusted':
      return { ...state, balance: state.balance + event.data.amount };
    default:
      return state;
  }
}

/**
 * Store credit is issued once per STORE_CREDIT resolution (a repeat issues nothing), redeemed and adjusted by
 * the store; no redemption or adjustment may take the balance below zero.
 */
export const storeCreditDecider: Decider<StoreCreditState, StoreCreditCommand> = {
  initialState: { balance: 0, issuedFor: new Set() },
  evolve,
  decide(command, state): Result<DomainEvent[]> {
    const { type: _type, now, ...rest } = command;
    const scope = { storeId: rest.storeId, customerEmail: rest.customerEmail, customerKey: rest.customerKey, currency: rest.currency };
    switch (command.type) {
      case 'IssueStoreCredit':
        if (state.issuedFor.has(command.resolutionId) || command.amount <= 0) return ok([]);
        return ok([{ type: 'StoreCreditIssued', data: { ...scope, amount: command.amount, claimId: command.claimId, resolutionId: command.resolutionId, issuedAt: now } }]);
      case 'RedeemStoreCredit':
        if (command.amount <= 0) return fail('validation_failed', 'Redeem a positive amount.');
        if (command.amount > state.balance) return fail('validation_failed', 'That is more than the customer\'s store credit balance.');
        return ok([{ type: 'StoreCreditRedeemed', data: { ...scope, amount: command.amount, reference: command.reference, redeemedAt: now } }]);
      case 'AdjustStoreCredit':
        if (command.amount === 0) return fail('validation_failed', 'An adjustment changes the balance by some amount.');
        if (state.balance + command.amount < 0) return fail('validation_failed', 'The balance cannot go below zero.');
        return ok([{ type: 'StoreCreditAdjusted', data: { ...scope, amount: command.amount, reason: command.reason, adjustedAt: now } }]);
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  },
};
