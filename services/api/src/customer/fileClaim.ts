import { randomUUID } from 'node:crypto';
import type { DomainEvent, FileClaimRequest, Order, Store } from '@claims/contracts';
import { orderClaimsDecider, type FileClaimOnOrder } from '@claims/domain';
import type { Decider } from '@claims/domain';
import type { AppContext, RequestMeta } from '../context.js';
import { handleCommand } from '../eventsourcing/commandHandler.js';
import { newClaimToken } from './claimToken.js';
import { nextClaimNumber } from '../catalog/orderRepository.js';

export interface FiledClaim {
  claimId: string;
  token: string;
  claimNumber: string;
}

/** Lets an importer (the demo seeder) adjust the decided events before they are stored. */
export type EventAdjuster = (events: DomainEvent[]) => DomainEvent[];

/**
 * Files a claim: decided on the order's claim ledger, whose entry and the new claim stream are
 * appended in one transaction at the ledger's version, so of two concurrent claims on the same items
 * exactly one is stored; the other decides again, sees the items taken and is refused. What follows
 * (closing the shopper's draft) is a reaction to ClaimFiled, so this answer depends on this command alone.
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
  const claimNumber = await nextClaimNumber(ctx.database.db);
  const issueCount = request.fulfillmentIssues.reduce((n, f) => n + f.issues.length, 0);
  const itemIds = Array.from({ length: issueCount }, () => randomUUID());
  const decider: Decider<typeof orderClaimsDecider.initialState, FileClaimOnOrder> = {
    ...orderClaimsDecider,
    decide: (command, state) => {
      const decision = orderClaimsDecider.decide(command, state);
      return decision.ok ? { ok: true, value: adjust(decision.value) } : decision;
    },
  };
  await handleCommand(ctx, {
    decider,
    streamId: order.id,
    storeId: order.storeId,
    meta,
    command: { type: 'FileClaim', claimId, claimNumber, tokenHash, itemIds, now: ctx.now(), request, order, settings: store.settings },
  });
  return { claimId, token, claimNumber };
}
