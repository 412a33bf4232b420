import {
  MAX_LABELS_PER_CLAIM,
  MAX_METADATA_KEYS,
  stripHtml,
  type AddClaimLabel,
  type AddClaimNote,
  type Claim,
  type DomainEvent,
  type RemoveClaimLabel,
  type SetClaimMetadata,
} from '@claims/contracts';
import { fail, ok, type Result } from '../result.js';

export type ClaimAnnotationCommand = AddClaimNote | AddClaimLabel | RemoveClaimLabel | SetClaimMetadata;

/**
 * The back-office's own marks on a claim: internal notes, labels and metadata. Adding a label the
 * claim has, removing one it lacks or setting a key to the value it holds changes nothing (no event),
 * so a retried request is harmless.
 */
export function decideClaimAnnotation(command: ClaimAnnotationCommand, claim: Claim): Result<DomainEvent[]> {
  switch (command.type) {
    case 'AddClaimNote': {
      const body = stripHtml(command.body).trim();
      if (!body) return fail('validation_failed', 'A note needs text.');
      const author = { type: command.actor.type, id: command.actor.id, name: command.actor.name ?? command.actor.id };
      return ok([
        {
          type: 'ClaimNoteAdded',
          data: { claimId: claim.id, noteId: command.noteId, body, author, createdAt: command.now },
        },
      ]);
    }
    case 'AddClaimLabel': {
      const label = command.label.trim();
      if (claim.labels.includes(label)) return ok([]);
      if (claim.labels.length >= MAX_LABELS_PER_CLAIM)
        return fail('validation_failed', `A claim holds at most ${MAX_LABELS_PER_CLAIM} labels.`);
      return ok([{ type: 'ClaimLabelAdded', data: { claimId: claim.id, label } }]);
    }
    case 'RemoveClaimLabel': {
      const label = command.label.trim();
      if (!claim.labels.includes(label)) return ok([]);
      return ok([{ type: 'ClaimLabelRemoved', data: { claimId: claim.id, label } }]);
    }
    case 'SetClaimMetadata': {
      const previous = Object.hasOwn(claim.metadata, command.key) ? claim.metadata[command.key]! : null;
      if (previous === command.value) return ok([]);
      if (previous === null && Object.keys(claim.metadata).length >= MAX_METADATA_KEYS) {
        return fail('validation_failed', `A claim holds at most ${MAX_METADATA_KEYS} metadata keys.`);
      }
      return ok([
        { type: 'ClaimMetadataSet', data: { claimId: claim.id, key: command.key, value: command.value, previous } },
      ]);
    }
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
}
