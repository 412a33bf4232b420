import { z } from 'zod';
import { ClaimStatus, ClaimType } from './enums.js';
import { RiskLevel } from './automation.js';

/**
 * The claim desk's queue worked as a team (issue 13): its filters and sorts, who works a claim,
 * the tab counts and the saved views. Shapes shared by the events, the deciders, the API and the
 * back-office's URL.
 */

export const ProtectionStatus = z.enum(['ota', 'removed', 'protected', 'unprotected']);
export type ProtectionStatus = z.infer<typeof ProtectionStatus>;

/** What the queue is ordered by: filing time (age), claimed value, or when the customer last wrote. */
export const QueueSort = z.enum(['filed', 'value', 'reply']);
export type QueueSort = z.infer<typeof QueueSort>;

export const SortOrder = z.enum(['asc', 'desc']);
export type SortOrder = z.infer<typeof SortOrder>;

/** Whose claims: the signed-in user's (`me`, so a shared view shows each teammate their own), nobody's (`none`) or a teammate's id. */
export const AssigneeFilter = z.union([z.literal('me'), z.literal('none'), z.uuid()]);
export type AssigneeFilter = z.infer<typeof AssigneeFilter>;

/** A local calendar day, `YYYY-MM-DD`. */
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** The most a search may be: an email address is at most 320 characters. */
export const MAX_SEARCH_LENGTH = 320;

/**
 * A queue as the back-office's URL holds it (`/admin/?status=NEW&q=ortiz&sort=value`), and what a
 * saved view keeps: every key optional, the defaults being every status, newest first, 25 a page.
 */
export const QueueView = z.object({
  status: ClaimStatus.optional(),
  /** A claim matches when any of its items has this type (a MULTIPLE claim's items have several). */
  type: ClaimType.optional(),
  store: z.uuid().optional(),
  /** Filed on or after this local day. */
  from: Day.optional(),
  /** Filed on or before this local day. */
  to: Day.optional(),
  protection: ProtectionStatus.optional(),
  /** Claims of this risk level, as filing assessed it (contract §Automation). */
  risk: RiskLevel.optional(),
  /** Customer name, part of an email, item name, SKU, order or claim number; typos tolerated. */
  q: z.string().trim().max(MAX_SEARCH_LENGTH).optional(),
  assignee: AssigneeFilter.optional(),
  sort: QueueSort.optional(),
  order: SortOrder.optional(),
  size: z.coerce.number().int().min(1).max(100).optional(),
});
export type QueueView = z.infer<typeof QueueView>;

/** Who works a claim. */
export const ClaimAssignee = z.object({ id: z.uuid(), name: z.string() });
export type ClaimAssignee = z.infer<typeof ClaimAssignee>;

/** Body of `POST /api/admin/claims/{claimId}/assignee`: a teammate's user id, or null to unassign. */
export const AssignClaimRequest = z.object({
  assigneeId: z.uuid().nullable(),
  expectedVersion: z.number().int().nonnegative().optional(),
});
export type AssignClaimRequest = z.infer<typeof AssignClaimRequest>;

/** `GET /api/admin/claims/{claimId}/assignees`: who may be given the claim (they can update claims of its store). */
export const AssigneeList = z.object({
  data: z.array(z.object({ id: z.uuid(), name: z.string(), email: z.string() })),
});
export type AssigneeList = z.infer<typeof AssigneeList>;

/**
 * How a search matched, the first kind that found anything: `exact` (a claim, order or SKU number or
 * a whole email), `contains` (every word is part of a name, email, item, SKU or number), `close` (the
 * words are near ones the claims hold: typos).
 */
export const SearchMatch = z.enum(['exact', 'contains', 'close']);
export type SearchMatch = z.infer<typeof SearchMatch>;

/** The status tabs' counts for the queue's other filters; `capped`: the counting stopped early, each figure is at least that. */
export const QueueCounts = z.object({
  byStatus: z.partialRecord(ClaimStatus, z.number().int().nonnegative()),
  total: z.number().int().nonnegative(),
  capped: z.boolean(),
});
export type QueueCounts = z.infer<typeof QueueCounts>;

// ---------------------------------------------------------------------------------------------
// Saved views: per user, optionally shared with the team (the account's members, or Order Protection's staff).

/** The team a view belongs to: an account's id, or `staff` for Order Protection's own people. */
export const SavedViewTeam = z.union([z.literal('staff'), z.uuid()]);
export type SavedViewTeam = z.infer<typeof SavedViewTeam>;

export const SavedViewName = z.string().trim().min(1).max(80);
export const MAX_SAVED_VIEWS_PER_USER = 50;

/** Body of `POST /api/admin/saved-views` and `PUT /api/admin/saved-views/{viewId}`. */
export const SavedViewInput = z.object({
  name: SavedViewName,
  filters: QueueView,
  /** Seen (not edited) by everyone on the team. */
  shared: z.boolean(),
  /** POST only, for someone on several accounts' teams: which one; default the first. */
  team: SavedViewTeam.optional(),
});
export type SavedViewInput = z.infer<typeof SavedViewInput>;

export const SavedView = z.object({
  id: z.uuid(),
  name: z.string(),
  filters: QueueView,
  shared: z.boolean(),
  owner: ClaimAssignee,
  /** The caller's own: only its owner renames, shares or deletes it. */
  mine: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type SavedView = z.infer<typeof SavedView>;

export const SavedViewList = z.object({ data: z.array(SavedView) });
export type SavedViewList = z.infer<typeof SavedViewList>;
