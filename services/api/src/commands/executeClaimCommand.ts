import type { Claim, ClaimCommand } from '@claims/contracts';
import { decideClaim } from '@claims/domain';
import { appendToStream } from '@claims/event-store';
import type { AppContext, RequestMeta } from '../context.js';
import { AppError } from '../platform/errors.js';
import { loadClaim } from './claimStream.js';
import { groupByStream } from './newEvents.js';

const MAX_ATTEMPTS = 3;

/**
 * Loads the claim, decides, appends at the version it decided on. With an `expectedVersion` from
 * the caller a stale version is the caller's conflict (409); without one, a concurrent change is
 * absorbed by deciding again on the new state.
 */
export async function executeClaimCommand(
  ctx: AppContext,
  command: ClaimCommand,
  meta: RequestMeta,
  expectedVersion?: number,
): Promise<{ claim: Claim; version: number }> {
  for (let attempt = 1; ; attempt++) {
    const { claim, version } = await loadClaim(ctx, command.claimId);
    if (!claim) throw new AppError('claim_not_found', 'No claim matches that reference.');
    if (expectedVersion !== undefined && expectedVersion !== version) {
      throw new AppError('version_conflict', `Claim #${claim.claimNumber} changed since you loaded it (now version ${version}). Reload and try again.`);
    }
    const decision = decideClaim(command, claim);
    if (!decision.ok) throw AppError.from(decision.error);
    if (decision.value.length === 0) return { claim, version };
    const [group] = groupByStream(decision.value, meta).values();
    const result = await appendToStream(ctx.database.db, {
      streamId: claim.id, streamType: 'claim', storeId: claim.storeId, expectedVersion: version, events: group!.events,
    });
    if (result.ok) {
      ctx.notifyAppended();
      const reloaded = await loadClaim(ctx, claim.id);
      return { claim: reloaded.claim!, version: reloaded.version };
    }
    if (expectedVersion !== undefined) {
      throw new AppError('version_conflict', `Claim #${claim.claimNumber} changed while saving. Reload and try again.`);
    }
    if (attempt >= MAX_ATTEMPTS) throw new AppError('version_conflict', 'The claim is changing too often right now; try again.');
  }
}
