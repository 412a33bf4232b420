import { DomainEvent, toDecimal, type FinanceReplayRequest, type FinanceReplayView } from '@claims/contracts';
import { payoutLinesOf, type PayoutLine } from '@claims/domain';
import { countAfter, readAll, START } from '@claims/event-store';
import { payoutEntries, type PayoutEntryRow } from '@claims/projections';
import type { AppContext } from '../context.js';
import { finishReplay, recordProgress } from './financeReplays.js';

const PAGE = 5_000;
/** The live ledger may trail the events just read by a projection's lag; wait this long for it before comparing. */
const LIVE_CATCH_UP_MS = 5_000;

interface ReplayedLine extends PayoutLine {
  storeId: string;
  eventId: string;
}

/** Every payout line the events decide in the period, recomputed from the whole history (under candidate rules when given). */
async function replayLines(ctx: AppContext, id: string, request: FinanceReplayRequest): Promise<Map<string, ReplayedLine>> {
  const db = ctx.database.db;
  const from = Date.parse(request.from);
  const to = Date.parse(request.to);
  const stores = request.storeIds ? new Set(request.storeIds) : null;
  const total = Math.max(1, await countAfter(db, START));
  const claims = new Map<string, { storeId: string; currency: string }>();
  const lines = new Map<string, ReplayedLine>();
  let position = START;
  let done = 0;
  for (;;) {
    const page = await readAll(db, position, PAGE);
    if (page.events.length === 0) break;
    for (const recorded of page.events) {
      if (recorded.type !== 'ClaimFiled' && recorded.type !== 'ClaimResolved') continue;
      const event = DomainEvent.parse({ type: recorded.type, data: recorded.data });
      if (event.type === 'ClaimFiled') claims.set(event.data.claimId, { storeId: event.data.storeId, currency: event.data.currency });
      if (event.type !== 'ClaimResolved') continue;
      const at = Date.parse(recorded.occurredAt);
      const claim = claims.get(event.data.claimId);
      if (!claim || at < from || at > to || (stores && !stores.has(claim.storeId))) continue;
      for (const line of payoutLinesOf(event.data, claim.currency, request.rules)) lines.set(line.id, { ...line, storeId: claim.storeId, eventId: recorded.eventId });
    }
    position = page.next;
    done += page.events.length;
    await recordProgress(db, id, Math.min(0.99, done / total));
  }
  return lines;
}

/** The live ledger's entries of the period, once it holds every line the replay found (or the wait is over). */
async function liveEntries(ctx: AppContext, request: FinanceReplayRequest, replayed: Map<string, ReplayedLine>): Promise<PayoutEntryRow[]> {
  const deadline = Date.now() + LIVE_CATCH_UP_MS;
  for (;;) {
    const live = await payoutEntries(ctx.database.db, { storeIds: request.storeIds, from: request.from, to: request.to });
    const ids = new Set(live.map((e) => e.id));
    if ([...replayed.keys()].every((lineId) => ids.has(lineId)) || Date.now() > deadline) return live;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Replayed totals beside the live ones per store and currency, and every line that differs, to the cent. */
function compare(live: readonly PayoutEntryRow[], replayed: Map<string, ReplayedLine>): Pick<FinanceReplayView, 'stores' | 'differences'> {
  const totals = new Map<string, { storeId: string; currency: string; live: number; replayed: number }>();
  const total = (storeId: string, currency: string) => {
    const key = `${storeId}:${currency}`;
    const entry = totals.get(key) ?? { storeId, currency, live: 0, replayed: 0 };
    totals.set(key, entry);
    return entry;
  };
  for (const entry of live) total(entry.storeId, entry.currency).live += entry.amount;
  for (const line of replayed.values()) total(line.storeId, line.currency).replayed += line.amount;
  const liveById = new Map(live.map((e) => [e.id, e]));
  const differences: FinanceReplayView['differences'] = [];
  for (const id of new Set([...liveById.keys(), ...replayed.keys()])) {
    const a = liveById.get(id);
    const b = replayed.get(id);
    if (a && b && a.amount === b.amount && a.currency === b.currency) continue;
    const currency = (b ?? a)!.currency;
    differences.push({
      storeId: (a ?? b)!.storeId, claimId: (a ?? b)!.claimId, eventId: (b ?? a)!.eventId,
      live: a ? toDecimal(a.amount, a.currency) : null, replayed: b ? toDecimal(b.amount, currency) : null,
    });
  }
  return {
    stores: [...totals.values()].map((t) => ({ storeId: t.storeId, currency: t.currency, live: toDecimal(t.live, t.currency), replayed: toDecimal(t.replayed, t.currency) })),
    differences,
  };
}

/**
 * The finance replay: payouts of a period rebuilt from the events into memory beside the live ledger,
 * which keeps serving, then compared line by line. Runs after the request that started it.
 */
export async function runFinanceReplay(ctx: AppContext, id: string, request: FinanceReplayRequest): Promise<void> {
  try {
    const replayed = await replayLines(ctx, id, request);
    const live = await liveEntries(ctx, request, replayed);
    await finishReplay(ctx.database.db, id, { result: compare(live, replayed) });
    ctx.log.info({ replayId: id, lines: replayed.size }, 'finance replay done');
  } catch (error) {
    ctx.log.error({ err: error, replayId: id }, 'finance replay failed');
    await finishReplay(ctx.database.db, id, { error: 'The replay failed; it has been logged. Start it again.' }).catch(() => undefined);
  }
}
