import {
  toMinor, stripHtml,
  type Claim, type ClaimCommand, type ClaimResolution, type DomainEvent, type ResolutionLineInput, type ResolveClaim,
} from '@claims/contracts';
import { fail, ok, type Result } from '../result.js';
import type { Decider } from '../decider.js';
import { evolveClaim, type ClaimStateOrNone } from './claimState.js';
import { isResolvable } from './claimRules.js';
import { canMove, CLOSING_STATUSES, DECIDED_BY_RESOLUTION, RESOLVABLE_STATUSES } from './statusMachine.js';
import { isOffered } from './claimRules.js';
import { lineValue, percentOf } from './resolutionValue.js';
import { decideClaimAnnotation } from './decideClaimAnnotation.js';

const notFound = () => fail<DomainEvent[]>('claim_not_found', 'No claim matches that reference.');

function decideResolve(command: ResolveClaim, claim: Claim): Result<DomainEvent[]> {
  if (!isResolvable(claim)) return fail('already_resolved', `Claim #${claim.claimNumber} already has a resolution.`);
  if (!RESOLVABLE_STATUSES.includes(claim.status)) {
    return fail('invalid_transition', `A claim in status ${claim.status} cannot be resolved.`);
  }
  const { request } = command;
  if (!isOffered(request.resolutionType, command.capabilities)) {
    return fail('unsupported_resolution', `This store does not offer ${request.resolutionType.toLowerCase().replace('_', ' ')} as a resolution.`);
  }
  const deny = request.resolutionType === 'DENY';
  if (deny && !request.reason) return fail('validation_failed', 'A denial needs a reason.');
  const resolvedBy = { type: command.actor.type, id: command.actor.id, name: command.actor.name ?? command.actor.id };
  const base = {
    resolutionType: request.resolutionType,
    reason: request.reason ?? null,
    resolutionDescription: request.description ?? '',
    shippingAmount: 0,
    resolvedBy,
    createdAt: command.now,
  };
  const lines: ResolutionLineInput[] = request.items ?? claim.items.map((item) => ({ claimItemId: item.id }));
  const claimLevelAmount = request.amount === undefined ? null : toMinor(request.amount, claim.currency);
  const resolutions: ClaimResolution[] = [];

  if (!deny && claimLevelAmount !== null && !request.items) {
    // A flat claim-level amount (flat rate, custom, credit) is one line not tied to an item.
    const id = command.resolutionIds[0]!;
    resolutions.push({ ...base, id, relatedClaimItemId: null, quantity: 0, percentage: null, paidValue: claimLevelAmount,
      creditStore: false, final: true });
  } else {
    for (const [index, line] of lines.entries()) {
      const item = claim.items.find((i) => i.id === line.claimItemId);
      if (!item) return fail('unknown_item', `Claim item ${line.claimItemId} is not part of claim #${claim.claimNumber}.`);
      const quantity = deny ? 0 : (line.quantity ?? item.quantity);
      if (quantity < 0 || quantity > item.quantity) {
        return fail('invalid_quantity', `${item.name}: resolve between 0 and ${item.quantity}.`);
      }
      const percentage = line.percentage ?? (deny ? null : 100);
      const value = line.amount !== undefined
        ? toMinor(line.amount, claim.currency)
        : percentOf(lineValue(item, quantity), percentage ?? 0);
      const id = command.resolutionIds[index];
      if (!id) return fail('validation_failed', 'Not enough resolution ids were supplied.');
      resolutions.push({ ...base, id, relatedClaimItemId: item.id, quantity, percentage,
        paidValue: deny ? 0 : value, creditStore: !deny && item.creditStore, final: line.final ?? true });
    }
  }
  return ok([{
    type: 'ClaimResolved',
    data: { claimId: claim.id, outcome: deny ? 'DENIED' : 'APPROVED', resolutions, status: deny ? 'DENIED' : 'RESOLVED' },
  }]);
}

/** Decides every command on an existing claim. */
export function decideClaim(command: ClaimCommand, claim: Claim | null): Result<DomainEvent[]> {
  if (!claim) return notFound();
  switch (command.type) {
    case 'ResolveClaim':
      return decideResolve(command, claim);
    case 'ChangeClaimStatus':
      if (command.to === claim.status) return ok([]);
      if (DECIDED_BY_RESOLUTION.includes(command.to)) {
        return fail('invalid_transition', `Claim #${claim.claimNumber} reaches ${command.to} only through a resolution: resolve or deny it instead.`);
      }
      if (!canMove(claim.status, command.to)) {
        return fail('invalid_transition', `A claim cannot move from ${claim.status} to ${command.to}.`);
      }
      if (CLOSING_STATUSES.includes(command.to) && claim.resolutions.length === 0 && !command.reason) {
        return fail('validation_failed', `Claim #${claim.claimNumber} has no resolution: give a reason to close or dismiss it.`);
      }
      return ok([{
        type: 'ClaimStatusChanged',
        data: { claimId: claim.id, from: claim.status, to: command.to, note: command.note, ...(command.reason ? { reason: command.reason } : {}) },
      }]);
    case 'SendMessage': {
      const messageContent = stripHtml(command.messageContent).trim();
      if (!messageContent && command.medias.length === 0) return fail('validation_failed', 'A message needs text or a photo.');
      return ok([{
        type: 'ClaimMessageSent',
        data: {
          id: command.messageId, claimId: claim.id, storeId: claim.storeId, senderId: command.actor.id,
          senderName: command.senderName, senderType: command.senderType, messageContent, medias: command.medias, createdAt: command.now,
        },
      }]);
    }
    case 'AddReview':
      if (claim.reviewed) return fail('validation_failed', 'This claim has been reviewed already.');
      return ok([{
        type: 'ClaimReviewed',
        data: { id: command.reviewId, claimId: claim.id, rating: command.review.rating, text: stripHtml(command.review.text).trim(), createdAt: command.now },
      }]);
    case 'AddClaimNote':
    case 'AddClaimLabel':
    case 'RemoveClaimLabel':
    case 'SetClaimMetadata':
      return decideClaimAnnotation(command, claim);
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
}

/** A claim after it is filed: its stream's id is the claim id. Filing itself is the order ledger's decision. */
export const claimDecider: Decider<ClaimStateOrNone, ClaimCommand> = { initialState: null, evolve: evolveClaim, decide: decideClaim };
