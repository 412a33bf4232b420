import { claimLinksStreamOf, type Claim } from '@claims/contracts';
import { claimLinksDecider } from '@claims/domain';
import type { AppContext, RequestMeta } from '../context.js';
import { handleCommand } from '../eventsourcing/commandHandler.js';
import { newClaimToken } from '../http/claimLinks.js';
import { RECORD_MAIL } from './retrySchedule.js';

/** A fresh link to the claim for one mail: only its hash is recorded, in the claim's links stream. */
export async function issueClaimLink(ctx: AppContext, claim: Claim, meta: RequestMeta): Promise<string> {
  const { token, tokenHash } = newClaimToken(claim.id);
  await handleCommand(ctx, {
    decider: claimLinksDecider,
    streamId: claimLinksStreamOf(claim.id),
    storeId: claim.storeId,
    meta,
    onConflict: RECORD_MAIL,
    command: { type: 'IssueClaimLink', claimId: claim.id, tokenHash, now: ctx.now() },
  });
  return `${ctx.config.publicUrl}/view/${token}`;
}
