import { DomainEvent } from '@claims/contracts';
import { evolveOrderClaims, initialOrderClaimsState, type OrderClaimsState } from '@claims/domain';
import { readStream } from '@claims/event-store';
import type { AppContext } from '../context.js';

/** An order's claim ledger, from its stream (the stream id is the order's system id). */
export async function loadOrderClaims(ctx: AppContext, orderId: string): Promise<{ state: OrderClaimsState; version: number }> {
  const { version, events } = await readStream(ctx.database.db, orderId);
  let state = initialOrderClaimsState();
  for (const recorded of events) {
    const event = DomainEvent.parse({ type: recorded.type, data: recorded.data });
    if (event.type === 'OrderItemsClaimed') state = evolveOrderClaims(state, event);
  }
  return { state, version };
}
