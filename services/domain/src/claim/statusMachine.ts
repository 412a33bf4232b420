import type { ClaimStatus, Permission } from '@claims/contracts';

const WORKING: ClaimStatus[] = ['OPEN', 'COMMUNICATING', 'WAITING_FOR_BRAND', 'WAITING_FOR_CUSTOMER', 'WAITING_FOR_OP'];
const OUTCOMES: ClaimStatus[] = [
  'APPROVED',
  'DENIED',
  'RESOLVED',
  'RESOLVED_BY_BRAND',
  'DISMISSED',
  'TEMPORARILY_DISMISSED',
  'CLOSED',
];

/**
 * The allowed moves between claim statuses (docs/product.md#claim-statuses leaves them open; docs/decisions/claim-statuses.md explains).
 * Work moves freely among the working statuses; an outcome only moves forward to closing and
 * archiving, except a dismissal, which can be reopened.
 */
export const STATUS_TRANSITIONS: Record<ClaimStatus, readonly ClaimStatus[]> = {
  NEW: [...WORKING, ...OUTCOMES],
  OPEN: [...WORKING, ...OUTCOMES],
  COMMUNICATING: [...WORKING, ...OUTCOMES],
  WAITING_FOR_BRAND: [...WORKING, ...OUTCOMES],
  WAITING_FOR_CUSTOMER: [...WORKING, ...OUTCOMES],
  WAITING_FOR_OP: [...WORKING, ...OUTCOMES],
  TEMPORARILY_DISMISSED: ['OPEN', 'DISMISSED', 'CLOSED'],
  DISMISSED: ['OPEN', 'ARCHIVED'],
  APPROVED: ['RESOLVED', 'RESOLVED_BY_BRAND', 'CLOSED', 'ARCHIVED'],
  DENIED: ['CLOSED', 'ARCHIVED'],
  RESOLVED: ['CLOSED', 'ARCHIVED'],
  RESOLVED_BY_BRAND: ['CLOSED', 'ARCHIVED'],
  CLOSED: ['ARCHIVED'],
  ARCHIVED: [],
};

export const canMove = (from: ClaimStatus, to: ClaimStatus): boolean => STATUS_TRANSITIONS[from].includes(to);

/** Statuses from which a resolution may still be given. */
export const RESOLVABLE_STATUSES: readonly ClaimStatus[] = ['NEW', ...WORKING, 'APPROVED', 'TEMPORARILY_DISMISSED'];

/** Statuses only a resolution reaches: a denial or an approval is a decision with its amounts, never a status change. */
export const DECIDED_BY_RESOLUTION: readonly ClaimStatus[] = ['APPROVED', 'DENIED', 'RESOLVED', 'RESOLVED_BY_BRAND'];

/** Statuses that end a claim's work without a resolution: they need `claim:resolve` and, with no resolution, a reason. */
export const CLOSING_STATUSES: readonly ClaimStatus[] = ['CLOSED', 'DISMISSED'];

/** The moves a status change (not a resolution) may make from a status. */
export const statusChangeTargets = (from: ClaimStatus): readonly ClaimStatus[] =>
  STATUS_TRANSITIONS[from].filter((to) => !DECIDED_BY_RESOLUTION.includes(to));

/** Who sees a status's tab in the claim queue: everyone, or only Order Protection's staff. */
export type StatusAudience = 'everyone' | 'internal';

/**
 * The queue's status tabs in the order a claim goes through them: new, worked, waiting on someone, set
 * aside, decided, done. WAITING_FOR_OP is Order Protection's own queue, so merchants get no tab for it
 * (their claims in it still count under All).
 */
export const QUEUE_STATUSES: ReadonlyArray<{ status: ClaimStatus; audience: StatusAudience }> = [
  { status: 'NEW', audience: 'everyone' },
  { status: 'OPEN', audience: 'everyone' },
  { status: 'COMMUNICATING', audience: 'everyone' },
  { status: 'WAITING_FOR_CUSTOMER', audience: 'everyone' },
  { status: 'WAITING_FOR_BRAND', audience: 'everyone' },
  { status: 'WAITING_FOR_OP', audience: 'internal' },
  { status: 'TEMPORARILY_DISMISSED', audience: 'everyone' },
  { status: 'APPROVED', audience: 'everyone' },
  { status: 'RESOLVED', audience: 'everyone' },
  { status: 'RESOLVED_BY_BRAND', audience: 'everyone' },
  { status: 'DENIED', audience: 'everyone' },
  { status: 'DISMISSED', audience: 'everyone' },
  { status: 'CLOSED', audience: 'everyone' },
  { status: 'ARCHIVED', audience: 'everyone' },
];

/** The status tabs someone sees: staff every one, merchants those not internal. */
export const queueStatusesFor = (internal: boolean): ClaimStatus[] =>
  QUEUE_STATUSES.filter((s) => internal || s.audience === 'everyone').map((s) => s.status);

/** The permission a status change to `to` needs: closing (or any decision) settles a claim's fate, so it is the resolver's. */
export const statusChangePermission = (to: ClaimStatus): Permission =>
  CLOSING_STATUSES.includes(to) || DECIDED_BY_RESOLUTION.includes(to) ? 'claim:resolve' : 'claim:update';
