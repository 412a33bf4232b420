import { FINANCE_EVENT_TYPES, FINANCE_FIELDS, FinanceEvent, type FinanceReplayRequest } from '@claims/contracts';
import { financeReplay, type FinanceLedgers } from '@claims/domain';
import { countOfTypes, readAllOfTypes, START, type Database, type Position } from '@claims/event-store';
import {
  appliedVersions,
  invoiceRows,
  invoicesProjection,
  payoutEntries,
  payoutLedgerProjection,
  premiumEntries,
  storeCreditEntries,
  storeCreditProjection,
  type Projection,
} from '@claims/projections';
import type { AppContext } from '../context.js';
import { orderRates } from '../catalog/orderRates.js';
import { compareLedgers, type LedgerComparison, type LiveLedgers } from './compareLedgers.js';
import { finishReplay, recordProgress } from './financeReplays.js';
import { replayScope } from './replayScope.js';

/** Events per read: big enough that round trips are a small share, small enough that folding one blocks the loop for tens of ms. */
const PAGE = 5_000;
/** Progress is written at most this often (a few times a second), never per page. */
const PROGRESS_EVERY_MS = 250;
/** How long the live read models may trail the events the replay read before the comparison goes ahead without them. */
const LIVE_CATCH_UP_MS = 10_000;
/** How long a transaction open elsewhere may hold back events already counted (see readAll) before the replay gives up. */
const HORIZON_WAIT_MS = 60_000;

/** The live read models the replay compares with, and the streams of each it read events of (stream id → last version). */
const LIVE = [
  payoutLedgerProjection,
  storeCreditProjection,
  invoicesProjection,
] as const satisfies readonly Projection[];
const projectionOf = new Map<string, number>(LIVE.flatMap((p, i) => p.handles.map((type) => [type, i] as const)));

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ReplayedHistory {
  ledgers: FinanceLedgers;
  /** Finance events folded. */
  events: number;
  /** Per live projection (LIVE's order): each stream read and the last version of it read. */
  streams: ReadonlyArray<ReadonlyMap<string, number>>;
}

/**
 * Folds the events of the replay's scope (replayScope: its stores, and of them what the period's money is made of)
 * into the replayed ledgers, page by page, keeping none of the events. Only the finance types are read (the server
 * skips the rest, and sends only a filing's store and currency) and parsed; the next page is already on its way while
 * one folds; progress goes out a few times a second. A batch keeps only the entries the replay holds: the others are
 * outside the scope (a batch only takes entries decided before it).
 */
export async function replayHistory(
  db: Database['db'],
  request: Pick<FinanceReplayRequest, 'from' | 'to' | 'storeIds' | 'rules'>,
  onProgress: (share: number) => Promise<void> = async () => undefined,
): Promise<ReplayedHistory> {
  const replay = financeReplay(request.rules ?? {});
  const streams = LIVE.map(() => new Map<string, number>());
  const where = await replayScope(db, request);
  const total = await countOfTypes(db, FINANCE_EVENT_TYPES, where);
  let done = 0;
  let reported = Date.now();
  let waitingSince: number | null = null;
  const read = (after: Position) => {
    const page = readAllOfTypes(db, after, FINANCE_EVENT_TYPES, { limit: PAGE, fields: FINANCE_FIELDS, where });
    // Read ahead: a fold that throws leaves this one unawaited, and its failure is not the replay's news.
    page.catch(() => undefined);
    return page;
  };
  let pending = read(START);
  for (;;) {
    const page = await pending;
    if (page.events.length === 0) {
      if (done >= total) break;
      // Counted but below a transaction still open elsewhere: readAll's horizon; wait for it, as a rebuild does.
      waitingSince ??= Date.now();
      if (Date.now() - waitingSince > HORIZON_WAIT_MS)
        throw new Error(`a transaction open for over ${HORIZON_WAIT_MS / 1000} s holds back events the replay counted`);
      await pause(50);
      pending = read(page.next);
      continue;
    }
    waitingSince = null;
    pending = read(page.next);
    for (const recorded of page.events) {
      const event = FinanceEvent.parse({ type: recorded.type, data: recorded.data });
      if (event.type === 'PayoutBatchCreated') {
        const entryIds = event.data.entryIds.filter((id) => replay.ledgers.payouts.has(id));
        if (entryIds.length > 0)
          replay.add({
            ...event,
            data: { ...event.data, entryIds },
            eventId: recorded.eventId,
            occurredAt: recorded.occurredAt,
          });
      } else {
        replay.add({ ...event, eventId: recorded.eventId, occurredAt: recorded.occurredAt });
      }
      const seen = streams[projectionOf.get(recorded.type)!]!;
      if ((seen.get(recorded.streamId) ?? 0) < recorded.streamVersion)
        seen.set(recorded.streamId, recorded.streamVersion);
    }
    done += page.events.length;
    if (Date.now() - reported >= PROGRESS_EVERY_MS) {
      reported = Date.now();
      await onProgress(Math.min(0.99, done / Math.max(total, done)));
    }
  }
  return { ledgers: replay.ledgers, events: done, streams };
}

/**
 * Waits until each live projection has applied every event the replay read of its streams (its per-stream
 * offsets, so it holds for a store follower and for Kafka consumers alike), or the wait is over.
 */
async function awaitLive(db: Database['db'], streams: ReplayedHistory['streams']): Promise<void> {
  const deadline = Date.now() + LIVE_CATCH_UP_MS;
  let behind = await Promise.all(
    LIVE.map(async (projection, i) => {
      const applied = await appliedVersions(db, projection.name);
      return [...streams[i]!].filter(([id, version]) => (applied.get(id) ?? 0) < version);
    }),
  );
  while (behind.some((b) => b.length > 0) && Date.now() < deadline) {
    await pause(200);
    behind = await Promise.all(
      LIVE.map(async (projection, i) => {
        if (behind[i]!.length === 0) return [];
        const applied = await appliedVersions(
          db,
          projection.name,
          behind[i]!.map(([id]) => id),
        );
        return behind[i]!.filter(([id, version]) => (applied.get(id) ?? 0) < version);
      }),
    );
  }
}

/** The live ledgers of the replay's period and stores. */
async function liveLedgers(db: Database['db'], request: FinanceReplayRequest): Promise<LiveLedgers> {
  const filter = { storeIds: request.storeIds, from: request.from, to: request.to };
  const [payouts, premiums, storeCredit, invoices] = await Promise.all([
    payoutEntries(db, filter),
    premiumEntries(db, filter),
    storeCreditEntries(db, filter),
    invoiceRows(db, { storeIds: request.storeIds ?? null }),
  ]);
  return { payouts, premiums, storeCredit, invoices };
}

/**
 * The exchange rate of each order whose premium an invoice converts (a fact of the order, kept by the catalog, as
 * issuing reads it), for the replayed invoices.
 */
async function invoiceRates(db: Database['db'], ledgers: FinanceLedgers) {
  const foreign = new Set<string>();
  for (const invoice of ledgers.invoices.values()) {
    for (const premium of invoice.premiums) if (premium.currency !== invoice.currency) foreign.add(premium.orderId);
  }
  const rates = await orderRates(db, [...foreign]);
  return (orderId: string) => rates.get(orderId);
}

/** A replay from start to comparison: its scope folded, the live read models caught up with it, then compared. */
export async function replayAndCompare(
  db: Database['db'],
  request: FinanceReplayRequest,
  onProgress?: (share: number) => Promise<void>,
): Promise<LedgerComparison & { events: number }> {
  const history = await replayHistory(db, request, onProgress);
  await awaitLive(db, history.streams);
  const rateOf = await invoiceRates(db, history.ledgers);
  return {
    ...compareLedgers(request, await liveLedgers(db, request), history.ledgers, rateOf),
    events: history.events,
  };
}

/**
 * The finance replay: payouts, premiums, store credit and invoices of the period and stores rebuilt from the events
 * into memory beside the live ledgers, which keep serving, then compared entry by entry. Runs after the request that started it.
 */
export async function runFinanceReplay(ctx: AppContext, id: string, request: FinanceReplayRequest): Promise<void> {
  const db = ctx.database.db;
  try {
    const started = Date.now();
    const { events, ...result } = await replayAndCompare(db, request, (share) => recordProgress(db, id, share));
    await finishReplay(db, id, { result: { ...result, eventsReplayed: events } });
    ctx.log.info(
      { replayId: id, events, seconds: (Date.now() - started) / 1000, differences: result.differences.length },
      'finance replay done',
    );
  } catch (error) {
    ctx.log.error({ err: error, replayId: id }, 'finance replay failed');
    await finishReplay(db, id, { error: 'The replay failed; it has been logged. Start it again.' }).catch(
      () => undefined,
    );
  }
}
