import {
  isReturnable,
  RETURN_RELEASED_STATUSES,
  RETURN_STATUS_MOVES,
  type ChangeReturnStatus,
  type DomainEvent,
  type ReturnCommand,
  type ReturnHandling,
  type ReturnItem,
  type ReturnMethod,
  type ReturnReason,
  type ReturnStatus,
  type StartReturn,
} from '@claims/contracts';
import { fail, ok, type Result } from '../result.js';
import type { Decider } from '../decider.js';
import { evolveClaim, type ClaimStateOrNone } from '../claim/claimState.js';

/** One return of a claim, as its events made it. */
export interface ReturnRecord {
  readonly id: string;
  readonly code: string;
  readonly status: ReturnStatus;
  readonly handling: ReturnHandling;
  readonly portalUrl: string | null;
  readonly reason: ReturnReason;
  readonly method: ReturnMethod;
  readonly comment: string;
  readonly items: readonly ReturnItem[];
  readonly startedAt: string;
  readonly updatedAt: string;
}

/** A claim's stream as returns need it: the claim (its items) and its returns, oldest first. */
export interface ClaimReturnsState {
  readonly claim: ClaimStateOrNone;
  readonly returns: readonly ReturnRecord[];
}

export function evolveClaimReturns(state: ClaimReturnsState, event: DomainEvent): ClaimReturnsState {
  switch (event.type) {
    case 'ReturnStarted': {
      const d = event.data;
      const record: ReturnRecord = {
        id: d.returnId,
        code: d.code,
        status: d.status,
        handling: d.handling,
        portalUrl: d.portalUrl,
        reason: d.reason,
        method: d.method,
        comment: d.comment,
        items: d.items,
        startedAt: d.startedAt,
        updatedAt: d.startedAt,
      };
      return { ...state, returns: [...state.returns, record] };
    }
    case 'ReturnStatusChanged':
      return {
        ...state,
        returns: state.returns.map((r) =>
          r.id === event.data.returnId ? { ...r, status: event.data.to, updatedAt: event.data.changedAt } : r,
        ),
      };
    default: {
      const claim = evolveClaim(state.claim, event);
      return claim === state.claim ? state : { ...state, claim };
    }
  }
}

/** How many of each claim item the claim's returns hold now (those not released). */
export function quantitiesInReturns(returns: readonly ReturnRecord[]): Map<string, number> {
  const held = new Map<string, number>();
  for (const r of returns) {
    if (RETURN_RELEASED_STATUSES.includes(r.status)) continue;
    for (const item of r.items) held.set(item.claimItemId, (held.get(item.claimItemId) ?? 0) + item.quantity);
  }
  return held;
}

/** The return's code: what its label's barcode carries. */
export const returnCode = (claimNumber: string, ordinal: number): string => `R${claimNumber}-${ordinal}`;

function decideStart(command: StartReturn, state: ClaimReturnsState): Result<DomainEvent[]> {
  const { claim } = state;
  if (!claim) return fail('claim_not_found', 'No claim matches that reference.');
  // The edge makes a fresh id per request; the same id again is a retry of one that was recorded.
  if (state.returns.some((r) => r.id === command.returnId)) return ok([]);
  const { request } = command;
  const seen = new Set<string>();
  const held = quantitiesInReturns(state.returns);
  for (const line of request.items) {
    const item = claim.items.find((i) => i.id === line.claimItemId);
    if (!item) return fail('unknown_item', 'That item is not part of this claim.');
    if (seen.has(item.id)) return fail('validation_failed', `${item.name} is listed twice.`);
    seen.add(item.id);
    if (!isReturnable(item.claimType))
      return fail('not_returnable', `${item.name} never reached you, so there is nothing to return.`);
    const left = item.quantity - (held.get(item.id) ?? 0);
    if (line.quantity > left) {
      return fail(
        'invalid_quantity',
        left === 0 ? `${item.name} is already being returned.` : `At most ${left} of ${item.name} can be returned.`,
      );
    }
  }
  const handling: ReturnHandling = command.storePortalUrl ? 'store_portal' : 'here';
  return ok([
    {
      type: 'ReturnStarted',
      data: {
        claimId: claim.id,
        returnId: command.returnId,
        code: returnCode(claim.claimNumber, state.returns.length + 1),
        claimNumber: claim.claimNumber,
        items: request.items.map((i) => ({ claimItemId: i.claimItemId, quantity: i.quantity })),
        reason: request.reason,
        method: request.method,
        comment: request.comment ?? '',
        handling,
        portalUrl: command.storePortalUrl,
        status: handling === 'here' ? 'REQUESTED' : 'REDIRECTED',
        startedAt: command.now,
      },
    },
  ]);
}

function decideStatus(command: ChangeReturnStatus, state: ClaimReturnsState): Result<DomainEvent[]> {
  if (!state.claim) return fail('claim_not_found', 'No claim matches that reference.');
  const record = state.returns.find((r) => r.id === command.returnId);
  if (!record) return fail('not_found', 'No return matches that reference.');
  // A repeat of the move just made changes nothing.
  if (record.status === command.to) return ok([]);
  if (!RETURN_STATUS_MOVES[record.status].includes(command.to)) {
    return fail('invalid_transition', `Return ${record.code} cannot move from ${record.status} to ${command.to}.`);
  }
  return ok([
    {
      type: 'ReturnStatusChanged',
      data: {
        claimId: state.claim.id,
        returnId: record.id,
        from: record.status,
        to: command.to,
        note: command.note,
        changedAt: command.now,
      },
    },
  ]);
}

export function decideReturn(command: ReturnCommand, state: ClaimReturnsState): Result<DomainEvent[]> {
  switch (command.type) {
    case 'StartReturn':
      return decideStart(command, state);
    case 'ChangeReturnStatus':
      return decideStatus(command, state);
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
}

/** Returns live on the claim's stream; this decider folds the claim beside them. */
export const returnDecider: Decider<ClaimReturnsState, ReturnCommand> = {
  initialState: { claim: null, returns: [] },
  evolve: evolveClaimReturns,
  decide: decideReturn,
};
