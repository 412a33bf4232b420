import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { DomainEvent, FileClaimRequest, Order, Store } from '@claims/contracts';
import { decideFileClaim } from '@claims/domain';
import { appendToStreams, NO_STREAM, type StreamAppend } from '@claims/event-store';
import type { AppContext, RequestMeta } from '../context.js';
import { AppError } from '../platform/errors.js';
import { newClaimToken } from './claimToken.js';
import { groupByStream } from './newEvents.js';
import { loadOrderClaims } from './orderClaimsStream.js';
import { endSessionAfterFiling } from './sessionCommands.js';

const MAX_ATTEMPTS = 3;

export interface FiledClaim {
  claimId: string;
  token: string;
  claimNumber: string;
}

/** Lets an importer (the demo seeder) adjust the decided events before they are stored. */
export type EventAdjuster = (events: DomainEvent[]) => DomainEvent[];

/**
 * Files a claim: the order's claim ledger and the new claim stream are appended in one
 * transaction at the ledger's version, so of two concurrent claims on the same items exactly one
 * is stored; the other decides again, sees the items taken and is refused.
 */
export async function fileClaim(
  ctx: AppContext,
  order: Order,
  store: Store,
  request: FileClaimRequest,
  meta: RequestMeta,
  adjust: EventAdjuster = (events) => events,
): Promise<FiledClaim> {
  const claimId = randomUUID();
  const { token, tokenHash } = newClaimToken(claimId);
  const { rows } = await sql<{ n: string }>`select nextval('claim_number_seq')::text as n`.execute(ctx.database.db);
  const claimNumber = rows[0]!.n;
  const issueCount = request.fulfillmentIssues.reduce((n, f) => n + f.issues.length, 0);
  const itemIds = Array.from({ length: issueCount }, () => randomUUID());

  for (let attempt = 1; ; attempt++) {
    const ledger = await loadOrderClaims(ctx, order.id);
    const decision = decideFileClaim(
      { type: 'FileClaim', claimId, claimNumber, tokenHash, itemIds, now: ctx.now(), request },
      { order, settings: store.settings, orderClaims: ledger.state },
    );
    if (!decision.ok) throw AppError.from(decision.error);
    const groups = groupByStream(adjust(decision.value), meta);
    const appends: StreamAppend[] = [...groups].map(([streamId, group]) => ({
      streamId,
      streamType: group.streamType,
      storeId: order.storeId,
      expectedVersion: streamId === order.id ? ledger.version : NO_STREAM,
      events: group.events,
    }));
    const [first] = await appendToStreams(ctx.database.db, appends);
    if (first?.ok) {
      ctx.notifyAppended();
      await endSessionAfterFiling(ctx, order.id, meta);
      return { claimId, token, claimNumber };
    }
    if (attempt >= MAX_ATTEMPTS) throw new AppError('version_conflict', 'The order is being claimed right now; try again.');
  }
}
