import type { Order, OrderInput } from '@claims/contracts';
import { orderPremiumDecider } from '@claims/domain';
import { orderPremiumStreamOf } from '@claims/contracts';
import type { AppContext, RequestMeta } from '../context.js';
import { handleCommand } from '../eventsourcing/commandHandler.js';
import { upsertOrderReporting } from './orderRepository.js';

/**
 * An order from a merchant's platform: the row is created or replaced, and its premium recorded (or
 * reversed, when the protection was removed or the premium changed) as events of the order's premium stream.
 */
export async function ingestOrder(
  ctx: AppContext,
  storeId: string,
  sourceOrderId: string,
  input: OrderInput,
  meta: RequestMeta,
): Promise<{ order: Order; created: boolean }> {
  const ingested = await upsertOrderReporting(ctx.database.db, storeId, sourceOrderId, input);
  const { order } = ingested;
  await handleCommand(ctx, {
    decider: orderPremiumDecider,
    streamId: orderPremiumStreamOf(order.id),
    storeId,
    meta,
    command: { type: 'RecordOrderPolicy', order, now: ctx.now() },
  });
  return ingested;
}
