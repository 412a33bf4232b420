import { claimLinksStreamOf, type Claim } from '@claims/contracts';
import { claimLinksDecider } from '@claims/domain';
import type { AppContext, RequestMeta } from '../context.js';
import { handleCommandsInBatch } from '../eventsourcing/commandHandler.js';
import { newClaimToken } from '../http/claimLinks.js';
import { RECORD_MAIL } from './retrySchedule.js';

/**
 * A fresh link to each claim for one mail each: only its hash is recorded, in the claim's links stream; the links of a
 * whole batch of mail are read and appended in two statements.
 */
export async function issueClaimLinks(
  ctx: AppContext,
  requests: ReadonlyArray<{ claim: Claim; meta: RequestMeta }>,
): Promise<string[]> {
  if (requests.length === 0) return [];
  const tokens = requests.map(({ claim }) => newClaimToken(claim.id));
  const outcomes = await handleCommandsInBatch(
    ctx,
    claimLinksDecider,
    requests.map(({ claim, meta }, i) => ({
      streamId: claimLinksStreamOf(claim.id),
      storeId: claim.storeId,
      meta,
      onConflict: RECORD_MAIL,
      command: { type: 'IssueClaimLink', claimId: claim.id, tokenHash: tokens[i]!.tokenHash, now: ctx.now() } as const,
    })),
  );
  const failed = outcomes.find((o) => !o.ok);
  if (failed && !failed.ok) throw failed.error;
  return tokens.map(({ token }) => `${ctx.config.publicUrl}/view/${token}`);
}

/** A fresh link to the claim for one mail. */
export async function issueClaimLink(ctx: AppContext, claim: Claim, meta: RequestMeta): Promise<string> {
  const [link] = await issueClaimLinks(ctx, [{ claim, meta }]);
  return link!;
}
