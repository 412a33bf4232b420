import type { ClaimResolution, DecisionOutcome, EventOf } from '@claims/contracts';
import { RESOLVABLE_STATUSES } from './statusMachine.js';

type ClaimResolvedData = EventOf<'ClaimResolved'>['data'];

/** A decision approves when any of its lines gives the shopper something; one of denials only denies. */
export const decisionOutcome = (resolutions: readonly Pick<ClaimResolution, 'resolutionType'>[]): DecisionOutcome =>
  resolutions.some((r) => r.resolutionType !== 'DENY') ? 'APPROVED' : 'DENIED';

/**
 * Whether a decision leaves every item of its claim decided: the status it records is then one no resolution may be
 * given in any more (a decision of some items only leaves the claim's status as it was, a resolvable one).
 */
export const decidesWholeClaim = (data: Pick<ClaimResolvedData, 'status'>): boolean =>
  !RESOLVABLE_STATUSES.includes(data.status);

/** The claim decided as a whole: every standing resolution and what they come to. */
export interface WholeDecision {
  outcome: DecisionOutcome;
  resolutions: readonly ClaimResolution[];
}

/**
 * The whole decision a ClaimResolved completes, or null when it decides some items only. Events older than
 * `claimResolutions` name only their own lines: for them, those lines are the whole decision.
 */
export function wholeDecisionOf(data: ClaimResolvedData): WholeDecision | null {
  if (!decidesWholeClaim(data)) return null;
  const resolutions = data.claimResolutions ?? data.resolutions;
  return { outcome: decisionOutcome(resolutions), resolutions };
}
