import { z } from 'zod';
import { Actor } from './events.js';
import { ClaimStatus, ResolutionReason, ResolutionType, SessionStatus } from './enums.js';
import { FileClaimRequest, AddReviewRequest } from './claim.js';
import { Media } from './media.js';
import { StoreCapabilities } from './order.js';
import { Valuation } from './finance.js';
import { SessionMetadata } from './session.js';
import { SettingsChange, StoreSettings } from './storeSettings.js';
import { ClaimAssignee, SavedViewInput, SavedViewTeam } from './queue.js';
import { Label, MacroInput, MetadataKey, MetadataValue, NoteBody, SopInput, SopState } from './deskTools.js';
import { FilingScreening } from './automation.js';

/**
 * Commands are decided by pure functions. The edge supplies everything non-deterministic
 * (ids, the clock, the token hash, the claim number) so a decision replays identically.
 */
export const FileClaim = z.object({
  type: z.literal('FileClaim'),
  claimId: z.uuid(),
  claimNumber: z.string(),
  tokenHash: z.string(),
  itemIds: z.array(z.uuid()),
  now: z.iso.datetime(),
  request: FileClaimRequest,
  /** The shopper's history and reused photos, for the claim's risk; absent, it is assessed on the claim alone. */
  screening: FilingScreening.optional(),
});
export type FileClaim = z.infer<typeof FileClaim>;

/** One item's decision; its own type and reason, when given, override the request's (per-item resolve). */
export const ResolutionLineInput = z.object({
  claimItemId: z.uuid(),
  resolutionType: ResolutionType.optional(),
  reason: ResolutionReason.optional(),
  quantity: z.number().int().optional(),
  percentage: z.number().min(0).max(100).optional(),
  amount: z.number().nonnegative().optional(),
  final: z.boolean().optional(),
});
export type ResolutionLineInput = z.infer<typeof ResolutionLineInput>;

/** Contract: body of `POST /api/v1/claims/{claimId}/resolve`. */
export const ResolveClaimRequest = z.object({
  resolutionType: ResolutionType,
  reason: ResolutionReason.optional(),
  /** Decimal amount for FLAT_RATE, CUSTOM or STORE_CREDIT in the claim's currency. */
  amount: z.number().nonnegative().optional(),
  description: z.string().trim().max(2_000).optional(),
  items: z.array(ResolutionLineInput).max(200).optional(),
  expectedVersion: z.number().int().nonnegative().optional(),
});
export type ResolveClaimRequest = z.infer<typeof ResolveClaimRequest>;

export const ResolveClaim = z.object({
  type: z.literal('ResolveClaim'),
  claimId: z.uuid(),
  resolutionIds: z.array(z.uuid()).min(1),
  actor: Actor,
  now: z.iso.datetime(),
  request: ResolveClaimRequest,
  /** The store's capabilities when it was decided: a resolution the store does not offer is refused. */
  capabilities: StoreCapabilities,
  /** The money rules it is valued under, recorded with the decision. */
  valuation: Valuation,
});
export type ResolveClaim = z.infer<typeof ResolveClaim>;

export const ChangeClaimStatus = z.object({
  type: z.literal('ChangeClaimStatus'),
  claimId: z.uuid(),
  to: ClaimStatus,
  note: z.string().max(2_000).nullable(),
  /** Why, when a rule moves it (the SLA timer closes with NO_RESPONSE). */
  reason: ResolutionReason.nullable().optional(),
});
export type ChangeClaimStatus = z.infer<typeof ChangeClaimStatus>;

export const SendMessage = z.object({
  type: z.literal('SendMessage'),
  claimId: z.uuid(),
  messageId: z.uuid(),
  actor: Actor,
  senderType: z.enum(['customer', 'merchant', 'staff', 'system']),
  senderName: z.string(),
  messageContent: z.string(),
  medias: z.array(Media),
  now: z.iso.datetime(),
});
export type SendMessage = z.infer<typeof SendMessage>;

export const AddReview = z.object({
  type: z.literal('AddReview'),
  claimId: z.uuid(),
  reviewId: z.uuid(),
  now: z.iso.datetime(),
  review: AddReviewRequest,
});
export type AddReview = z.infer<typeof AddReview>;

export const AddClaimNote = z.object({
  type: z.literal('AddClaimNote'),
  claimId: z.uuid(),
  noteId: z.uuid(),
  actor: Actor,
  body: NoteBody,
  now: z.iso.datetime(),
});
export type AddClaimNote = z.infer<typeof AddClaimNote>;

export const AddClaimLabel = z.object({ type: z.literal('AddClaimLabel'), claimId: z.uuid(), label: Label });
export type AddClaimLabel = z.infer<typeof AddClaimLabel>;

export const RemoveClaimLabel = z.object({ type: z.literal('RemoveClaimLabel'), claimId: z.uuid(), label: Label });
export type RemoveClaimLabel = z.infer<typeof RemoveClaimLabel>;

export const SetClaimMetadata = z.object({
  type: z.literal('SetClaimMetadata'),
  claimId: z.uuid(),
  key: MetadataKey,
  value: MetadataValue,
});
export type SetClaimMetadata = z.infer<typeof SetClaimMetadata>;

/** Gives the claim to a teammate (the edge has checked they may work it), or to nobody. */
export const AssignClaim = z.object({
  type: z.literal('AssignClaim'),
  claimId: z.uuid(),
  assignee: ClaimAssignee.nullable(),
});
export type AssignClaim = z.infer<typeof AssignClaim>;

/** Takes a claim's resolution back (every line it decided); `clawbackEntryIds` are one fresh id per line, in order. */
export const ReverseResolution = z.object({
  type: z.literal('ReverseResolution'),
  claimId: z.uuid(),
  storeId: z.uuid(),
  clawbackEntryIds: z.array(z.uuid()),
  reason: z.string().trim().min(1).max(500),
  actor: Actor,
  now: z.iso.datetime(),
});
export type ReverseResolution = z.infer<typeof ReverseResolution>;

/** Takes a closed claim back into work (the domain's REOPENABLE_STATUSES); the note says why. */
export const ReopenClaim = z.object({
  type: z.literal('ReopenClaim'),
  claimId: z.uuid(),
  note: z.string().max(2_000).nullable(),
});
export type ReopenClaim = z.infer<typeof ReopenClaim>;

export const ClaimCommand = z.discriminatedUnion('type', [
  ResolveClaim,
  ChangeClaimStatus,
  SendMessage,
  AddReview,
  AddClaimNote,
  AddClaimLabel,
  RemoveClaimLabel,
  SetClaimMetadata,
  AssignClaim,
  ReverseResolution,
  ReopenClaim,
]);
export type ClaimCommand = z.infer<typeof ClaimCommand>;

export const UpdateSession = z.object({
  type: z.literal('UpdateSession'),
  sessionId: z.uuid(),
  orderId: z.uuid(),
  email: z.string(),
  status: SessionStatus.optional(),
  metadata: SessionMetadata.optional(),
});
export type UpdateSession = z.infer<typeof UpdateSession>;

export const DeleteSession = z.object({
  type: z.literal('DeleteSession'),
  sessionId: z.uuid(),
  reason: z.enum(['shopper', 'claim_filed']),
});
export type DeleteSession = z.infer<typeof DeleteSession>;

export const SessionCommand = z.discriminatedUnion('type', [UpdateSession, DeleteSession]);
export type SessionCommand = z.infer<typeof SessionCommand>;

/** Macros (store or global): the stream's own commands; `now` and ids come from the edge. */
export const CreateMacro = z.object({
  type: z.literal('CreateMacro'),
  macroId: z.uuid(),
  storeId: z.uuid().nullable(),
  macro: MacroInput,
  now: z.iso.datetime(),
});
export const UpdateMacro = z.object({
  type: z.literal('UpdateMacro'),
  macroId: z.uuid(),
  macro: MacroInput,
  now: z.iso.datetime(),
});
export const DeleteMacro = z.object({ type: z.literal('DeleteMacro'), macroId: z.uuid(), now: z.iso.datetime() });
export const MacroCommand = z.discriminatedUnion('type', [CreateMacro, UpdateMacro, DeleteMacro]);
export type MacroCommand = z.infer<typeof MacroCommand>;

/** SOPs of a store. */
export const CreateSop = z.object({
  type: z.literal('CreateSop'),
  sopId: z.uuid(),
  storeId: z.uuid(),
  sop: SopInput,
  now: z.iso.datetime(),
});
export const UpdateSop = z.object({
  type: z.literal('UpdateSop'),
  sopId: z.uuid(),
  sop: SopInput,
  now: z.iso.datetime(),
});
export const SetSopState = z.object({
  type: z.literal('SetSopState'),
  sopId: z.uuid(),
  state: SopState,
  now: z.iso.datetime(),
});
export const DeleteSop = z.object({ type: z.literal('DeleteSop'), sopId: z.uuid(), now: z.iso.datetime() });
export const SopCommand = z.discriminatedUnion('type', [CreateSop, UpdateSop, SetSopState, DeleteSop]);
export type SopCommand = z.infer<typeof SopCommand>;

/** Records a store's settings as its first version (the demo seed; a store's first change records its baseline the same way). */
export const InitializeStoreSettings = z.object({
  type: z.literal('InitializeStoreSettings'),
  storeId: z.uuid(),
  settings: StoreSettings,
  now: z.iso.datetime(),
});
/** Changes one settings group; decided on the store's `store-settings:<storeId>` stream. */
export const ChangeStoreSettings = z.object({
  type: z.literal('ChangeStoreSettings'),
  storeId: z.uuid(),
  change: SettingsChange,
  /** The settings the catalog holds, recorded first when the stream has no version yet (a store from before settings were events). */
  baseline: StoreSettings,
  /** The version the editor saw: refused when this group changed after it. */
  seenVersion: z.number().int().nonnegative().optional(),
  now: z.iso.datetime(),
});
export const StoreSettingsCommand = z.discriminatedUnion('type', [InitializeStoreSettings, ChangeStoreSettings]);
export type StoreSettingsCommand = z.infer<typeof StoreSettingsCommand>;
/** A team's saved views (one stream per team): `actorId` is who asks, since only a view's owner changes it. */
const SavedViewFields = SavedViewInput.omit({ team: true });
export const CreateSavedView = z.object({
  type: z.literal('CreateSavedView'),
  team: SavedViewTeam,
  viewId: z.uuid(),
  owner: ClaimAssignee,
  view: SavedViewFields,
  now: z.iso.datetime(),
});
export const UpdateSavedView = z.object({
  type: z.literal('UpdateSavedView'),
  viewId: z.uuid(),
  actorId: z.uuid(),
  view: SavedViewFields,
  now: z.iso.datetime(),
});
export const DeleteSavedView = z.object({
  type: z.literal('DeleteSavedView'),
  viewId: z.uuid(),
  actorId: z.uuid(),
  now: z.iso.datetime(),
});
export const SavedViewCommand = z.discriminatedUnion('type', [CreateSavedView, UpdateSavedView, DeleteSavedView]);
export type SavedViewCommand = z.infer<typeof SavedViewCommand>;
