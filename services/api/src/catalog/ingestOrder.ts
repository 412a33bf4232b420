import { randomUUID } from 'node:crypto';
import type { Order, OrderInput } from '@claims/contracts';
import { orderPremiumDecider, type OrderPremiumState } from '@claims/domain';
import { orderPremiumStreamOf } from '@claims/contracts';
import type { AppContext, RequestMeta } from '../context.js';
import { handleCommandsInBatch, type Loaded } from '../eventsourcing/commandHandler.js';
import { groupCommitPer } from '../eventsourcing/groupCommit.js';
import { orderFromInput, orderKeyOf, saveOrders, storedOrderIds, type OrderKey } from './orderRepository.js';

interface OrderArrival extends OrderKey {
  input: OrderInput;
  meta: RequestMeta;
}

type Ingested = { order: Order; created: boolean };
type Outcome = { ok: true; ingested: Ingested } | { ok: false; error: unknown };

/** The arrivals in rounds of distinct keys, in order: a platform resending one order sees its versions applied in turn. */
function roundsOfDistinctKeys(arrivals: readonly OrderArrival[]): number[][] {
  const rounds: number[][] = [];
  const seen = new Map<string, number>();
  arrivals.forEach((arrival, index) => {
    const key = orderKeyOf(arrival);
    const round = seen.get(key) ?? 0;
    seen.set(key, round + 1);
    (rounds[round] ??= []).push(index);
  });
  return rounds;
}

/**
 * Orders that arrived together: their rows in two statements (the stored ids read, every row written), then every
 * premium decided and appended as one batch. A new order's premium stream cannot exist yet, so only replaced orders'
 * streams are read. Each arrival gets its own outcome: one order the domain refuses fails alone.
 */
async function ingestTogether(ctx: AppContext, arrivals: readonly OrderArrival[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = new Array<Outcome>(arrivals.length);
  for (const round of roundsOfDistinctKeys(arrivals)) {
    const storedId = await storedOrderIds(
      ctx.database.db,
      round.map((index) => arrivals[index]!),
    );
    const built: Array<{ index: number; ingested: Ingested }> = [];
    for (const index of round) {
      const arrival = arrivals[index]!;
      const id = storedId(arrival);
      try {
        const order = orderFromInput(id ?? randomUUID(), arrival.storeId, arrival.sourceOrderId, arrival.input);
        built.push({ index, ingested: { order, created: id === undefined } });
      } catch (error) {
        outcomes[index] = { ok: false, error };
      }
    }
    await saveOrders(
      ctx.database.db,
      built.map((b) => b.ingested.order),
    );
    const fresh: Loaded<OrderPremiumState> = { state: orderPremiumDecider.initialState, version: 0, events: [] };
    const held = new Map(
      built.filter((b) => b.ingested.created).map((b) => [orderPremiumStreamOf(b.ingested.order.id), fresh] as const),
    );
    const now = ctx.now();
    const recorded = await handleCommandsInBatch(
      ctx,
      orderPremiumDecider,
      built.map(({ index, ingested: { order } }) => ({
        streamId: orderPremiumStreamOf(order.id),
        storeId: order.storeId,
        meta: arrivals[index]!.meta,
        command: { type: 'RecordOrderPolicy', order, now } as const,
      })),
      held,
    );
    built.forEach(({ index, ingested }, k) => {
      const outcome = recorded[k]!;
      outcomes[index] = outcome.ok ? { ok: true, ingested } : { ok: false, error: outcome.error };
    });
  }
  return outcomes;
}

const ingest = groupCommitPer(ingestTogether);

/**
 * An order from a merchant's platform: the row is created or replaced, and its premium recorded (or reversed, when
 * the protection was removed or the premium changed) as events of the order's premium stream. Orders arriving while
 * the ones before them are written are written together (a group commit): at checkout peaks a batch costs four
 * statements instead of four per order, and a lone order waits for nothing.
 */
export async function ingestOrder(
  ctx: AppContext,
  storeId: string,
  sourceOrderId: string,
  input: OrderInput,
  meta: RequestMeta,
): Promise<Ingested> {
  const outcome = await ingest(ctx, { storeId, sourceOrderId, input, meta });
  if (!outcome.ok) throw outcome.error;
  return outcome.ingested;
}
