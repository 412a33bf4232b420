import type { DomainEvent, EventOf, Order } from '@claims/contracts';
import { ok, type Result } from '../result.js';
import type { Decider } from '../decider.js';

/** The premium an order's ledger holds now, or null when nothing is recorded. */
export type OrderPremiumState = Omit<EventOf<'PremiumRecorded'>['data'], 'recordedAt'> | null;

export interface RecordOrderPolicy {
  type: 'RecordOrderPolicy';
  order: Pick<Order, 'id' | 'storeId' | 'orderNumber' | 'protected' | 'policy'>;
  now: string;
}

function evolve(state: OrderPremiumState, event: DomainEvent): OrderPremiumState {
  switch (event.type) {
    case 'PremiumRecorded': {
      const { recordedAt: _at, ...recorded } = event.data;
      return recorded;
    }
    case 'PremiumReversed':
      return null;
    default:
      return state;
  }
}

/**
 * A protected order's premium, as its platform sends it: recorded once, untouched by an identical update,
 * reversed and recorded again when it changes, reversed when the protection is removed.
 */
export const orderPremiumDecider: Decider<OrderPremiumState, RecordOrderPolicy> = {
  initialState: null,
  evolve,
  decide({ order, now }, state): Result<DomainEvent[]> {
    const policy = order.protected && order.policy && !order.policy.removedAt ? order.policy : null;
    const scope = { orderId: order.id, storeId: order.storeId, orderNumber: order.orderNumber };
    const wanted = policy && {
      ...scope,
      premiumPaid: policy.premiumPaid,
      premiumCurrency: policy.premiumCurrency,
      insuredAmount: policy.insuredAmount,
    };
    if (state && wanted && JSON.stringify(state) === JSON.stringify(wanted)) return ok([]);
    const events: DomainEvent[] = [];
    if (state) {
      events.push({
        type: 'PremiumReversed',
        data: {
          ...scope,
          premiumPaid: state.premiumPaid,
          premiumCurrency: state.premiumCurrency,
          reason: wanted ? 'premium_changed' : 'protection_removed',
          reversedAt: now,
        },
      });
    }
    if (wanted) events.push({ type: 'PremiumRecorded', data: { ...wanted, recordedAt: now } });
    return ok(events);
  },
};
