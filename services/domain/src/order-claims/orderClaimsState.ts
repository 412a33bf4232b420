import type { DomainEvent } from '@claims/contracts';

/** What an order's claim ledger knows: which lines are taken, and by which claims. */
export interface OrderClaimsState {
  claimedItemIds: ReadonlySet<string>;
  claims: ReadonlyArray<{
    claimId: string;
    claimNumber: string;
    sourceItemIds: string[];
    claimedAt: string;
    isOta: boolean;
  }>;
}

export const initialOrderClaimsState = (): OrderClaimsState => ({ claimedItemIds: new Set(), claims: [] });

export function evolveOrderClaims(state: OrderClaimsState, event: DomainEvent): OrderClaimsState {
  if (event.type !== 'OrderItemsClaimed') return state;
  const sourceItemIds = event.data.items.map((i) => i.sourceItemId);
  return {
    claimedItemIds: new Set([...state.claimedItemIds, ...sourceItemIds]),
    claims: [
      ...state.claims,
      {
        claimId: event.data.claimId,
        claimNumber: event.data.claimNumber,
        sourceItemIds,
        claimedAt: event.data.claimedAt,
        isOta: event.data.isOta,
      },
    ],
  };
}
