import {
  toMinor,
  stripHtml,
  type Claim,
  type ClaimCommand,
  type ClaimResolution,
  type ClaimStatus,
  type DomainEvent,
  type ResolutionLineInput,
  type ResolutionType,
  type ResolveClaim,
  type ReverseResolution,
} from '@claims/contracts';
import { fail, ok, type Result } from '../result.js';
import type { Decider } from '../decider.js';
import { evolveClaim, type ClaimStateOrNone } from './claimState.js';
import { decidedItemIds, isOffered, isResolvable } from './claimRules.js';
import { canMove, CLOSING_STATUSES, DECIDED_BY_RESOLUTION, RESOLVABLE_STATUSES } from './statusMachine.js';
import { lineValue, percentOf } from './resolutionValue.js';
import { decideClaimAnnotation } from './decideClaimAnnotation.js';
import { decideReopen } from './reopenClaim.js';
import { decidesWholeClaim, decisionOutcome } from './wholeDecision.js';
import { withinBounds } from './decisionBounds.js';

const notFound = () => fail<DomainEvent[]>('claim_not_found', 'No claim matches that reference.');

const typeName = (type: ResolutionType) => type.toLowerCase().replace('_', ' ');

/** The status a resolution leaves: decided only when every item is (denied when every line denies), else unchanged. */
function statusAfter(claim: Claim, resolutions: readonly ClaimResolution[]): ClaimStatus {
  const after = { items: claim.items, resolutions: [...claim.resolutions, ...resolutions] };
  if (isResolvable(after)) return claim.status;
  return after.resolutions.every((r) => r.resolutionType === 'DENY') ? 'DENIED' : 'RESOLVED';
}

/**
 * A resolution decides some or all of a claim's undecided items, each with its own type (the request's by
 * default), quantity, percentage or amount; with no items listed it decides every item not yet decided. An
 * item is decided once; the claim is resolved when the last one is. What it pays is bounded (decisionBounds).
 */
function decideResolve(command: ResolveClaim, claim: Claim): Result<DomainEvent[]> {
  if (!isResolvable(claim))
    return fail('already_resolved', `Claim #${claim.claimNumber} has every item decided already.`);
  if (!RESOLVABLE_STATUSES.includes(claim.status)) {
    return fail('invalid_transition', `A claim in status ${claim.status} cannot be resolved.`);
  }
  const { request } = command;
  const decided = decidedItemIds(claim);
  const { actor } = command;
  const resolvedBy = {
    type: actor.type,
    id: actor.id,
    name: actor.name ?? actor.id,
    ...(actor.version === undefined ? {} : { version: actor.version }),
  };
  const base = {
    resolutionDescription: request.description ?? '',
    shippingAmount: 0,
    resolvedBy,
    createdAt: command.now,
  };
  const offered = (type: ResolutionType): Result<null> =>
    isOffered(type, command.capabilities)
      ? ok(null)
      : fail('unsupported_resolution', `This store does not offer ${typeName(type)} as a resolution.`);
  const resolutions: ClaimResolution[] = [];

  if (request.resolutionType !== 'DENY' && request.amount !== undefined && !request.items) {
    // A flat claim-level amount (flat rate, custom, credit) is one line not tied to an item: it settles every open item.
    const check = offered(request.resolutionType);
    if (!check.ok) return check;
    resolutions.push({
      ...base,
      id: command.resolutionIds[0]!,
      relatedClaimItemId: null,
      resolutionType: request.resolutionType,
      reason: request.reason ?? null,
      quantity: 0,
      percentage: null,
      paidValue: toMinor(request.amount, claim.currency),
      creditStore: false,
      final: true,
    });
  } else {
    const lines: ResolutionLineInput[] =
      request.items ?? claim.items.filter((i) => !decided.has(i.id)).map((item) => ({ claimItemId: item.id }));
    const listed = new Set<string>();
    for (const [index, line] of lines.entries()) {
      const item = claim.items.find((i) => i.id === line.claimItemId);
      if (!item)
        return fail('unknown_item', `Claim item ${line.claimItemId} is not part of claim #${claim.claimNumber}.`);
      if (decided.has(item.id))
        return fail('already_resolved', `${item.name} on claim #${claim.claimNumber} is decided already.`);
      if (listed.has(item.id)) return fail('validation_failed', `${item.name} is listed twice; decide each item once.`);
      listed.add(item.id);
      const type = line.resolutionType ?? request.resolutionType;
      const check = offered(type);
      if (!check.ok) return check;
      const deny = type === 'DENY';
      const reason = line.reason ?? request.reason ?? null;
      if (deny && !reason) return fail('validation_failed', `${item.name}: a denial needs a reason.`);
      const quantity = deny ? 0 : (line.quantity ?? item.quantity);
      if (quantity < 0 || quantity > item.quantity) {
        return fail('invalid_quantity', `${item.name}: resolve between 0 and ${item.quantity}.`);
      }
      const percentage = line.percentage ?? (deny ? null : 100);
      const value =
        line.amount !== undefined
          ? toMinor(line.amount, claim.currency)
          : percentOf(lineValue(item, quantity), percentage ?? 0);
      const id = command.resolutionIds[index];
      if (!id) return fail('validation_failed', 'Not enough resolution ids were supplied.');
      resolutions.push({
        ...base,
        id,
        relatedClaimItemId: item.id,
        resolutionType: type,
        reason,
        quantity,
        percentage,
        paidValue: deny ? 0 : value,
        creditStore: !deny && item.creditStore,
        final: line.final ?? true,
      });
    }
  }
  const bounded = withinBounds(claim, resolutions, command.valuation);
  if (!bounded.ok) return bounded;
  const status = statusAfter(claim, resolutions);
  // Deciding the last items decides the claim: the event then carries the whole decision for its readers.
  const whole = decidesWholeClaim({ status }) ? { claimResolutions: [...claim.resolutions, ...resolutions] } : {};
  return ok([
    {
      type: 'ClaimResolved',
      data: {
        claimId: claim.id,
        outcome: decisionOutcome(resolutions),
        resolutions,
        status,
        valuation: command.valuation,
        ...whole,
      },
    },
  ]);
}

/**
 * Takes the claim's resolution back: every line it decided, so each item is undecided again and the claim back
 * in work (OPEN) when its status was an outcome. The payout ledgers reverse each line's entry; the store-credit
 * ledger reclaims what is unredeemed of each line's credit.
 */
function decideReverse(command: ReverseResolution, claim: Claim): Result<DomainEvent[]> {
  if (claim.resolutions.length === 0)
    return fail('invalid_transition', `Claim #${claim.claimNumber} has no resolution to reverse.`);
  if (claim.status === 'ARCHIVED') return fail('invalid_transition', `Claim #${claim.claimNumber} is archived.`);
  if (command.clawbackEntryIds.length < claim.resolutions.length)
    return fail('validation_failed', 'Not enough payout entry ids were supplied.');
  const lines = claim.resolutions.map((r, i) => ({
    resolutionId: r.id,
    clawbackEntryId: command.clawbackEntryIds[i]!,
  }));
  const reversed: DomainEvent = {
    type: 'ClaimResolutionReversed',
    data: {
      claimId: claim.id,
      storeId: claim.storeId,
      lines,
      reason: command.reason,
      reversedBy: command.actor.id,
      reversedAt: command.now,
    },
  };
  if (RESOLVABLE_STATUSES.includes(claim.status)) return ok([reversed]);
  return ok([
    reversed,
    {
      type: 'ClaimStatusChanged',
      data: { claimId: claim.id, from: claim.status, to: 'OPEN', note: `Resolution reversed: ${command.reason}` },
    },
  ]);
}

/** Decides every command on an existing claim. */
export function decideClaim(command: ClaimCommand, claim: Claim | null): Result<DomainEvent[]> {
  if (!claim) return notFound();
  switch (command.type) {
    case 'ResolveClaim':
      return decideResolve(command, claim);
    case 'ReverseResolution':
      return decideReverse(command, claim);
    case 'ChangeClaimStatus':
      if (command.to === claim.status) return ok([]);
      if (DECIDED_BY_RESOLUTION.includes(command.to)) {
        return fail(
          'invalid_transition',
          `Claim #${claim.claimNumber} reaches ${command.to} only through a resolution: resolve or deny it instead.`,
        );
      }
      if (!canMove(claim.status, command.to)) {
        return fail('invalid_transition', `A claim cannot move from ${claim.status} to ${command.to}.`);
      }
      if (CLOSING_STATUSES.includes(command.to) && claim.resolutions.length === 0 && !command.reason) {
        return fail(
          'validation_failed',
          `Claim #${claim.claimNumber} has no resolution: give a reason to close or dismiss it.`,
        );
      }
      return ok([
        {
          type: 'ClaimStatusChanged',
          data: {
            claimId: claim.id,
            from: claim.status,
            to: command.to,
            note: command.note,
            ...(command.reason ? { reason: command.reason } : {}),
          },
        },
      ]);
    case 'SendMessage': {
      const messageContent = stripHtml(command.messageContent).trim();
      if (!messageContent && command.medias.length === 0)
        return fail('validation_failed', 'A message needs text or a photo.');
      return ok([
        {
          type: 'ClaimMessageSent',
          data: {
            id: command.messageId,
            claimId: claim.id,
            storeId: claim.storeId,
            senderId: command.actor.id,
            senderName: command.senderName,
            senderType: command.senderType,
            messageContent,
            medias: command.medias,
            createdAt: command.now,
          },
        },
      ]);
    }
    case 'AddReview':
      if (claim.reviewed) return fail('validation_failed', 'This claim has been reviewed already.');
      return ok([
        {
          type: 'ClaimReviewed',
          data: {
            id: command.reviewId,
            claimId: claim.id,
            rating: command.review.rating,
            text: stripHtml(command.review.text).trim(),
            createdAt: command.now,
          },
        },
      ]);
    case 'AssignClaim':
      // Giving it to whoever has it already changes nothing, so a repeated click is harmless.
      if ((command.assignee?.id ?? null) === (claim.assignee?.id ?? null)) return ok([]);
      return ok([
        { type: 'ClaimAssigned', data: { claimId: claim.id, assignee: command.assignee, previous: claim.assignee } },
      ]);
    case 'ReopenClaim':
      return decideReopen(command, claim);
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
export const claimDecider: Decider<ClaimStateOrNone, ClaimCommand> = {
  initialState: null,
  evolve: evolveClaim,
  decide: decideClaim,
};
