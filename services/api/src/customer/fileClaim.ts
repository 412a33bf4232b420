import { createHash, randomUUID } from 'node:crypto';
import type { DomainEvent, FileClaimRequest, Order, Store } from '@claims/contracts';
import { orderClaimsDecider, type Decider, type FileClaimOnOrder } from '@claims/domain';
import type { AppContext, RequestMeta } from '../context.js';
import { nextClaimNumber } from '../catalog/orderRepository.js';
import { handleCommand } from '../eventsourcing/commandHandler.js';
import { loadClaim } from '../http/authorizedClaim.js';
import { AppError } from '../platform/errors.js';
import { claimIdForKey, claimTokenForKey, newClaimToken } from '../http/claimLinks.js';
import { screenFiling } from '../automation/index.js';

export interface FiledClaim {
  claimId: string;
  token: string;
  claimNumber: string;
}

/** Lets an importer (the demo seeder) adjust the decided events before they are stored. */
export type EventAdjuster = (events: DomainEvent[]) => DomainEvent[];

export interface FilingOptions {
  /** The shopper's Idempotency-Key: a retried submission answers the claim the first one filed. */
  idempotencyKey?: string | undefined;
  adjust?: EventAdjuster;
}

const requestHashOf = (request: FileClaimRequest) => createHash('sha256').update(JSON.stringify(request)).digest('hex');

/** The claim an earlier submission with this key filed, or null; another body under the same key is a 422. */
async function filedBefore(
  ctx: AppContext,
  claimId: string,
  token: string,
  requestHash: string,
): Promise<FiledClaim | null> {
  const earlier = await loadClaim(ctx, claimId);
  if (!earlier) return null;
  if (earlier.events[0]?.metadata.requestHash !== requestHash) {
    throw new AppError(
      'idempotency_key_reused',
      'This Idempotency-Key was used for another claim; send a new key for a new claim.',
    );
  }
  return { claimId, token, claimNumber: earlier.state.claimNumber };
}

/**
 * Files a claim: decided on the order's claim ledger, whose entry and the new claim stream are
 * appended in one transaction at the ledger's version, so of two concurrent claims on the same items
 * exactly one is stored; the other decides again, sees the items taken and is refused. What follows
 * (closing the shopper's draft) is a reaction to ClaimFiled, so this answer depends on this command alone.
 * With an Idempotency-Key the claim's id and token derive from it, so a retry of a submission whose
 * answer was lost finds the stored claim and answers it again instead of "already claimed".
 */
export async function fileClaim(
  ctx: AppContext,
  order: Order,
  store: Store,
  request: FileClaimRequest,
  meta: RequestMeta,
  options: FilingOptions = {},
): Promise<FiledClaim> {
  const key = options.idempotencyKey;
  const adjust = options.adjust ?? ((events) => events);
  const requestHash = requestHashOf(request);
  const claimId = key ? claimIdForKey(order.id, key) : randomUUID();
  const { token, tokenHash } = key ? claimTokenForKey(claimId, order.id, key) : newClaimToken(claimId);
  if (key) {
    const earlier = await filedBefore(ctx, claimId, token, requestHash);
    if (earlier) return earlier;
  }
  const [claimNumber, screening] = await Promise.all([
    nextClaimNumber(ctx.database.db),
    screenFiling(ctx, order, store, request),
  ]);
  const issueCount = request.fulfillmentIssues.reduce((n, f) => n + f.issues.length, 0);
  const itemIds = Array.from({ length: issueCount }, () => randomUUID());
  const decider: Decider<typeof orderClaimsDecider.initialState, FileClaimOnOrder> = {
    ...orderClaimsDecider,
    decide: (command, state) => {
      const decision = orderClaimsDecider.decide(command, state);
      return decision.ok ? { ok: true, value: adjust(decision.value) } : decision;
    },
  };
  try {
    await handleCommand(ctx, {
      decider,
      streamId: order.id,
      storeId: order.storeId,
      meta: key ? { ...meta, requestHash } : meta,
      command: {
        type: 'FileClaim',
        claimId,
        claimNumber,
        tokenHash,
        itemIds,
        now: ctx.now(),
        request,
        order,
        settings: store.settings,
        screening,
      },
    });
  } catch (error) {
    // The same submission arriving twice at once: one stored the claim, the other answers it.
    const concurrent = key && error instanceof AppError ? await filedBefore(ctx, claimId, token, requestHash) : null;
    if (concurrent) return concurrent;
    throw error;
  }
  return { claimId, token, claimNumber };
}
