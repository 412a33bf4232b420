import { z } from 'zod';
import { ClaimStatus, ClaimType, ProtectionStatus } from '@claims/contracts';
import type { ClaimListParams } from '../api.js';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/**
 * The queue's filters as the URL holds them (`/admin/?status=NEW&type=DAMAGED&q=1001`): a link or
 * a reload shows the same list. Anything malformed is dropped rather than failing the page.
 */
export const QueueSearch = z.object({
  status: ClaimStatus.optional().catch(undefined),
  type: ClaimType.optional().catch(undefined),
  store: z.uuid().optional().catch(undefined),
  /** Filed on or after this local day (YYYY-MM-DD). */
  from: day.optional().catch(undefined),
  /** Filed on or before this local day. */
  to: day.optional().catch(undefined),
  protection: ProtectionStatus.optional().catch(undefined),
  /** Claim number, order number or customer email. */
  q: z.string().trim().max(320).optional().catch(undefined),
  /** Filed date: newest first (the server's order) or oldest first. */
  sort: z.enum(['newest', 'oldest']).optional().catch(undefined),
  /** Claims per page (the "Rows per page" choice offers 10, 25, 50, 100). */
  size: z.coerce.number().int().min(1).max(100).optional().catch(undefined),
});
export type QueueSearch = z.infer<typeof QueueSearch>;

export const DEFAULT_PAGE_SIZE = 25;
export const PAGE_SIZES = [10, 25, 50, 100] as const;

export const FILTER_KEYS = ['type', 'store', 'from', 'to', 'protection', 'q'] as const;

/** A local calendar day as the instant it starts. */
function startOfDay(value: string, plusDays = 0): string {
  const [y, m, d] = value.split('-').map(Number);
  return new Date(y!, m! - 1, d! + plusDays).toISOString();
}

/** The API query of `GET /api/admin/claims` for these filters (`to` is inclusive here, exclusive there). */
export function toListParams(search: QueueSearch): ClaimListParams {
  return {
    status: search.status,
    type: search.type,
    store: search.store,
    from: search.from ? startOfDay(search.from) : undefined,
    to: search.to ? startOfDay(search.to, 1) : undefined,
    protection: search.protection,
    search: search.q || undefined,
  };
}

/** Only the keys that carry a value, so the URL stays short. */
export function compact(search: QueueSearch): QueueSearch {
  return Object.fromEntries(Object.entries(search).filter(([, v]) => v !== undefined && v !== '')) as QueueSearch;
}

/** Search params as plain `key=value` pairs (TanStack Router's default JSON encoding would quote "1001"). */
export function parseSearch(searchStr: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(searchStr));
}

export function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
