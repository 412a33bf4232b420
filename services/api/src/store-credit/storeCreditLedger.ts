import { createHash } from 'node:crypto';
import {
  currencyDecimals,
  readerOf,
  storeCreditStreamOf,
  toDecimal,
  type StoreCreditEntry,
  type StoreCreditLedger,
  handling,
  ignoring,
} from '@claims/contracts';
import { storedDomainEvent } from '@claims/event-store';
import { claimNumbers } from '@claims/projections';
import { claimDecider, payoutLinesOf, storeCreditDecider, type StoreCreditCommand } from '@claims/domain';
import type { AppContext } from '../context.js';
import { findStores } from '../catalog/storeRepository.js';
import {
  handleCommandsInBatch,
  loadAggregate,
  loadAggregates,
  type BatchedCommand,
} from '../eventsourcing/commandHandler.js';
import type { Reaction } from '../eventsourcing/reactions.js';
import { loadClaim } from '../http/authorizedClaim.js';
import { storeCreditLinesOf } from './storeCreditLines.js';

/** The key naming a customer's credit stream: the SHA-256 of their trimmed, lower-cased email. */
export const customerKeyOf = (email: string): string =>
  createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

export const creditStreamOf = (storeId: string, email: string) => storeCreditStreamOf(storeId, customerKeyOf(email));

/** The store's bonus (minor units of its currency) within each credit line the given claims issued, by resolution line. */
async function bonusesOf(ctx: AppContext, claimIds: ReadonlySet<string>): Promise<Map<string, number>> {
  const bonuses = new Map<string, number>();
  for (const claimId of claimIds) {
    const loaded = await loadClaim(ctx, claimId);
    if (!loaded) continue;
    for (const line of storeCreditLinesOf(loaded.state.currency, loaded.events))
      bonuses.set(line.resolutionId, line.store.bonus);
  }
  return bonuses;
}

/** A customer's credit at a store, entry by entry, as its stream records it (each issued amount with its bonus). */
export async function storeCreditLedger(
  ctx: AppContext,
  storeId: string,
  email: string,
  currency: string,
): Promise<StoreCreditLedger> {
  const loaded = await loadAggregate(ctx, storeCreditDecider, creditStreamOf(storeId, email));
  const events = loaded.events.map((recorded) => ({ recorded, event: storedDomainEvent(recorded) }));
  const bonuses = await bonusesOf(
    ctx,
    new Set(events.flatMap(({ event }) => (event.type === 'StoreCreditIssued' ? [event.data.claimId] : []))),
  );
  const entries = events.flatMap(({ recorded, event }): StoreCreditEntry[] => {
    const money = (minor: number) => toDecimal(minor, currency);
    switch (event.type) {
      case 'StoreCreditIssued': {
        const bonus = bonuses.get(event.data.resolutionId);
        return [
          {
            kind: 'issued',
            amount: money(event.data.amount),
            bonus: bonus === undefined ? null : money(bonus),
            claimId: event.data.claimId,
            note: null,
            at: event.data.issuedAt,
            version: recorded.streamVersion,
          },
        ];
      }
      case 'StoreCreditRedeemed':
        return [
          {
            kind: 'redeemed',
            amount: money(-event.data.amount),
            bonus: null,
            claimId: null,
            note: event.data.reference,
            at: event.data.redeemedAt,
            version: recorded.streamVersion,
          },
        ];
      case 'StoreCreditAdjusted':
        return [
          {
            kind: 'adjusted',
            amount: money(event.data.amount),
            bonus: null,
            claimId: null,
            note: event.data.reason,
            at: event.data.adjustedAt,
            version: recorded.streamVersion,
          },
        ];
      case 'StoreCreditReclaimed':
        return [
          {
            kind: 'reclaimed',
            amount: money(-event.data.amount),
            bonus: null,
            claimId: event.data.claimId,
            note: `${event.data.reason} (${toDecimal(event.data.redeemed, currency).toFixed(currencyDecimals(currency))} ${currency} already redeemed, kept)`,
            at: event.data.reclaimedAt,
            version: recorded.streamVersion,
          },
        ];
      default:
        return [];
    }
  });
  // The pages name a claim by its number; the stream records its id.
  const numbers = await claimNumbers(
    ctx.database.db,
    entries.flatMap((e) => (e.claimId ? [e.claimId] : [])),
  );
  return {
    customerEmail: email,
    currency,
    balance: toDecimal(loaded.state.balance, currency),
    entries: entries.map((e) => {
      const claimNumber = e.claimId ? numbers.get(e.claimId) : undefined;
      return claimNumber === undefined ? e : { ...e, claimNumber };
    }),
    version: loaded.version,
  };
}

/**
 * Keeps a customer's credit in step with the claim's decisions, in the order they were made (one checkpoint, so a
 * reversal is never handled before the issue it takes back). A STORE_CREDIT resolution issues the credit it decided
 * (with the store's bonus, in the store's currency, valued as the payout ledger values it) once per resolution line,
 * unless the line was reversed since; a reversal reclaims what of each line's credit is unredeemed.
 *
 * 200 decisions at once: a batch is four statements whatever its size (the claims, their stores, the customers' credit
 * streams, every change appended), each customer's changes decided in order on their stream; decisions come far slower
 * than filings, so a larger batch would only make a retry repeat more.
 */
export const storeCreditOfDecisions: Reaction = {
  name: 'store-credit',
  batchSize: 200,
  ...readerOf(['claim'], {
    ClaimFiled: 'ignore',
    ClaimStatusChanged: 'ignore',
    ClaimAssigned: 'ignore',
    ...handling('decisions'),
    ...ignoring('conversation', 'deskMarks', 'returns'),
  }),
  async react(ctx, events) {
    const decisions = events.flatMap((event) =>
      (event.type === 'ClaimResolved' && event.data.resolutions.some((r) => r.resolutionType === 'STORE_CREDIT')) ||
      event.type === 'ClaimResolutionReversed'
        ? [event]
        : [],
    );
    if (decisions.length === 0) return;
    const claims = await loadAggregates(
      ctx,
      claimDecider,
      decisions.map((e) => e.data.claimId),
    );
    const stores = await findStores(
      ctx.database.db,
      [...claims.values()].flatMap((c) => (c.state ? [c.state.storeId] : [])),
    );
    const commands: BatchedCommand<StoreCreditCommand>[] = [];
    for (const event of decisions) {
      const loaded = claims.get(event.data.claimId)!;
      const claim = loaded.state;
      const store = claim && stores.get(claim.storeId);
      if (!claim || !store) continue;
      const email = claim.customer.email;
      const meta = {
        actor: { type: 'system', id: 'store-credit', name: 'Store credit' },
        correlationId: event.metadata.correlationId,
        causationId: event.eventId,
      } as const;
      const scope = { storeId: store.id, customerEmail: email, customerKey: customerKeyOf(email), now: ctx.now() };
      const change = (command: StoreCreditCommand) =>
        commands.push({ streamId: creditStreamOf(store.id, email), storeId: store.id, meta, command });
      if (event.type === 'ClaimResolutionReversed') {
        const credited = new Set(storeCreditLinesOf(claim.currency, loaded.events).map((l) => l.resolutionId));
        for (const line of event.data.lines.filter((l) => credited.has(l.resolutionId)))
          change({
            ...scope,
            type: 'ReclaimStoreCredit',
            currency: store.currency,
            claimId: claim.id,
            resolutionId: line.resolutionId,
            reason: event.data.reason,
          });
        continue;
      }
      const standing = new Set(claim.resolutions.map((r) => r.id));
      for (const line of payoutLinesOf(event.data, claim.currency).filter(
        (l) => l.resolutionType === 'STORE_CREDIT' && standing.has(l.id),
      ))
        change({
          ...scope,
          type: 'IssueStoreCredit',
          currency: line.currency,
          amount: line.amount,
          claimId: claim.id,
          resolutionId: line.id,
        });
    }
    const failed = (await handleCommandsInBatch(ctx, storeCreditDecider, commands)).find((o) => !o.ok);
    if (failed && !failed.ok) throw failed.error;
  },
};
