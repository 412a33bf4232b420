import { createHash } from 'node:crypto';
import {
  currencyDecimals,
  readerOf,
  storeCreditStreamOf,
  toDecimal,
  type StoreCreditEntry,
  type StoreCreditLedger,
} from '@claims/contracts';
import { storedDomainEvent } from '@claims/event-store';
import { payoutLinesOf, storeCreditDecider, type StoreCreditCommand } from '@claims/domain';
import type { AppContext } from '../context.js';
import { findStore } from '../catalog/storeRepository.js';
import { handleCommand, loadAggregate } from '../eventsourcing/commandHandler.js';
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
  return {
    customerEmail: email,
    currency,
    balance: toDecimal(loaded.state.balance, currency),
    entries,
    version: loaded.version,
  };
}

/**
 * Keeps a customer's credit in step with the claim's decisions, in the order they were made (one checkpoint, so a
 * reversal is never handled before the issue it takes back). A STORE_CREDIT resolution issues the credit it decided
 * (with the store's bonus, in the store's currency, valued as the payout ledger values it) once per resolution line,
 * unless the line was reversed since; a reversal reclaims what of each line's credit is unredeemed.
 */
export const storeCreditOfDecisions: Reaction = {
  name: 'store-credit',
  ...readerOf(['claim'], {
    ClaimFiled: 'ignore',
    ClaimStatusChanged: 'ignore',
    ClaimResolved: 'handle',
    ClaimMessageSent: 'ignore',
    ClaimReviewed: 'ignore',
    ClaimNoteAdded: 'ignore',
    ClaimLabelAdded: 'ignore',
    ClaimLabelRemoved: 'ignore',
    ClaimMetadataSet: 'ignore',
    ClaimAssigned: 'ignore',
    ReturnStarted: 'ignore',
    ReturnStatusChanged: 'ignore',
    ClaimResolutionReversed: 'handle',
  }),
  async react(ctx, event) {
    if (event.type === 'ClaimResolved' && !event.data.resolutions.some((r) => r.resolutionType === 'STORE_CREDIT'))
      return;
    if (event.type !== 'ClaimResolved' && event.type !== 'ClaimResolutionReversed') return;
    const loaded = await loadClaim(ctx, event.data.claimId);
    const store = loaded && (await findStore(ctx.database.db, loaded.state.storeId));
    if (!loaded || !store) return;
    const email = loaded.state.customer.email;
    const meta = {
      actor: { type: 'system', id: 'store-credit', name: 'Store credit' },
      correlationId: event.metadata.correlationId,
      causationId: event.eventId,
    } as const;
    const scope = { storeId: store.id, customerEmail: email, customerKey: customerKeyOf(email), now: ctx.now() };
    const decide = (command: StoreCreditCommand) =>
      handleCommand(ctx, {
        decider: storeCreditDecider,
        streamId: creditStreamOf(store.id, email),
        storeId: store.id,
        meta,
        command,
      });
    if (event.type === 'ClaimResolutionReversed') {
      const credited = new Set(storeCreditLinesOf(loaded.state.currency, loaded.events).map((l) => l.resolutionId));
      for (const line of event.data.lines.filter((l) => credited.has(l.resolutionId))) {
        await decide({
          ...scope,
          type: 'ReclaimStoreCredit',
          currency: store.currency,
          claimId: loaded.state.id,
          resolutionId: line.resolutionId,
          reason: event.data.reason,
        });
      }
      return;
    }
    const standing = new Set(loaded.state.resolutions.map((r) => r.id));
    for (const line of payoutLinesOf(event.data, loaded.state.currency).filter(
      (l) => l.resolutionType === 'STORE_CREDIT' && standing.has(l.id),
    )) {
      await decide({
        ...scope,
        type: 'IssueStoreCredit',
        currency: line.currency,
        amount: line.amount,
        claimId: loaded.state.id,
        resolutionId: line.id,
      });
    }
  },
};
