import type { DomainEvent } from '@claims/contracts';
import { fail, ok, type Result } from '../result.js';
import type { Decider } from '../decider.js';

/** A batch as its events make it (amounts in minor units of its currency). */
export interface PayoutBatchState {
  id: string;
  storeId: string;
  currency: string;
  total: number;
  entryIds: readonly string[];
  status: 'created' | 'approved' | 'paid';
  createdAt: string;
  createdBy: string;
  approvedAt: string | null;
  approvedBy: string | null;
  paidAt: string | null;
  paidBy: string | null;
  reference: string | null;
}

/** A store's payouts: every batch's state, and which ledger entries a batch holds already. */
export interface StorePayoutsState {
  batches: ReadonlyMap<string, PayoutBatchState>;
  batched: ReadonlySet<string>;
}

export type StorePayoutsCommand =
  | {
      type: 'CreatePayoutBatch';
      storeId: string;
      batchId: string;
      currency: string;
      /** The store's pending ledger entries (minor units of `currency`), read when the batch is made. */
      entries: ReadonlyArray<{ id: string; amount: number }>;
      actorId: string;
      now: string;
    }
  | { type: 'ApprovePayoutBatch'; storeId: string; batchId: string; actorId: string; now: string }
  | { type: 'PayPayoutBatch'; storeId: string; batchId: string; reference: string; actorId: string; now: string };

function evolve(state: StorePayoutsState, event: DomainEvent): StorePayoutsState {
  switch (event.type) {
    case 'PayoutBatchCreated': {
      const d = event.data;
      const batch: PayoutBatchState = {
        id: d.batchId,
        storeId: d.storeId,
        currency: d.currency,
        total: d.total,
        entryIds: d.entryIds,
        status: 'created',
        createdAt: d.createdAt,
        createdBy: d.createdBy,
        approvedAt: null,
        approvedBy: null,
        paidAt: null,
        paidBy: null,
        reference: null,
      };
      return {
        batches: new Map([...state.batches, [d.batchId, batch]]),
        batched: new Set([...state.batched, ...d.entryIds]),
      };
    }
    case 'PayoutBatchApproved':
    case 'PayoutBatchPaid': {
      const batch = state.batches.get(event.data.batchId);
      if (!batch) return state;
      const next: PayoutBatchState =
        event.type === 'PayoutBatchApproved'
          ? { ...batch, status: 'approved', approvedAt: event.data.approvedAt, approvedBy: event.data.approvedBy }
          : {
              ...batch,
              status: 'paid',
              paidAt: event.data.paidAt,
              paidBy: event.data.paidBy ?? null,
              reference: event.data.reference,
            };
      return { ...state, batches: new Map([...state.batches, [event.data.batchId, next]]) };
    }
    default:
      return state;
  }
}

const noBatch = () => fail<DomainEvent[]>('not_found', 'No payout batch of this store matches that reference.');

/**
 * Payout batches move created → approved → paid, each step by a person: an entry joins one batch only, a
 * batch is approved by someone other than its maker (four eyes), and only an approved batch is paid, once.
 * One stream per store serialises it all, so two finance users acting at once cannot both succeed.
 */
export const storePayoutsDecider: Decider<StorePayoutsState, StorePayoutsCommand> = {
  initialState: { batches: new Map(), batched: new Set() },
  evolve,
  decide(command, state): Result<DomainEvent[]> {
    switch (command.type) {
      case 'CreatePayoutBatch': {
        const entries = command.entries.filter((e) => !state.batched.has(e.id));
        if (entries.length === 0)
          return fail('validation_failed', 'This store has no pending payout entry outside a batch.');
        return ok([
          {
            type: 'PayoutBatchCreated',
            data: {
              storeId: command.storeId,
              batchId: command.batchId,
              currency: command.currency,
              entryIds: entries.map((e) => e.id),
              total: entries.reduce((sum, e) => sum + e.amount, 0),
              createdBy: command.actorId,
              createdAt: command.now,
            },
          },
        ]);
      }
      case 'ApprovePayoutBatch': {
        const batch = state.batches.get(command.batchId);
        if (!batch) return noBatch();
        if (batch.status !== 'created') return fail('invalid_transition', `This batch is ${batch.status} already.`);
        if (batch.createdBy === command.actorId)
          return fail('forbidden', 'A payout batch is approved by someone other than the person who made it.');
        return ok([
          {
            type: 'PayoutBatchApproved',
            data: {
              storeId: command.storeId,
              batchId: command.batchId,
              approvedBy: command.actorId,
              approvedAt: command.now,
            },
          },
        ]);
      }
      case 'PayPayoutBatch': {
        const batch = state.batches.get(command.batchId);
        if (!batch) return noBatch();
        if (batch.status !== 'approved')
          return fail(
            'invalid_transition',
            batch.status === 'paid' ? 'This batch is paid already.' : 'Approve the batch before paying it.',
          );
        return ok([
          {
            type: 'PayoutBatchPaid',
            data: {
              storeId: command.storeId,
              batchId: command.batchId,
              reference: command.reference,
              paidAt: command.now,
              paidBy: command.actorId,
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
