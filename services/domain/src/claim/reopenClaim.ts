import type { Claim, ClaimStatus, DomainEvent, ReopenClaim } from '@claims/contracts';
import { fail, ok, type Result } from '../result.js';

/**
 * The statuses a claim is reopened from. Only CLOSED: a dismissal already moves back to OPEN through a
 * status change, and ARCHIVED is final. The status machine keeps CLOSED → OPEN out of ordinary status
 * changes, so reopening is its own command, taken with the resolver's permission (closing is theirs).
 */
export const REOPENABLE_STATUSES: readonly ClaimStatus[] = ['CLOSED'];

/** Where a reopened claim goes: back into work. */
export const REOPENED_STATUS: ClaimStatus = 'OPEN';

/**
 * Reopening is a status change back to OPEN, recorded as the ClaimStatusChanged every reader (list,
 * counts, timeline, webhooks) already follows. Resolutions stay: an item decided before closing is not
 * decided again.
 */
export function decideReopen(command: ReopenClaim, claim: Claim): Result<DomainEvent[]> {
  if (!REOPENABLE_STATUSES.includes(claim.status)) {
    return fail(
      'invalid_transition',
      `Claim #${claim.claimNumber} is ${claim.status}: only a closed claim can be reopened.`,
    );
  }
  return ok([
    {
      type: 'ClaimStatusChanged',
      data: { claimId: claim.id, from: claim.status, to: REOPENED_STATUS, note: command.note },
    },
  ]);
}
