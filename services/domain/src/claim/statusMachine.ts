import type { ClaimStatus } from '@claims/contracts';

const WORKING: ClaimStatus[] = ['OPEN', 'COMMUNICATING', 'WAITING_FOR_BRAND', 'WAITING_FOR_CUSTOMER', 'WAITING_FOR_OP'];
const OUTCOMES: ClaimStatus[] = ['APPROVED', 'DENIED', 'RESOLVED', 'RESOLVED_BY_BRAND', 'DISMISSED', 'TEMPORARILY_DISMISSED', 'CLOSED'];

/**
 * The allowed moves between claim statuses (the spec leaves them open; docs/decisions.md explains).
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
