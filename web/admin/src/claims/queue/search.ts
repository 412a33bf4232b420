import { z } from 'zod';
import { QueueView } from '@claims/contracts';
import type { ClaimListParams } from '../../shared/api.js';

const lenient = QueueView.shape;

/**
 * The queue as the URL holds it (`/admin/?status=NEW&q=ortiz&sort=value&order=asc`), in the shape a
 * saved view keeps: a link or a reload shows the same list. Anything malformed is dropped rather than
 * failing the page.
 */
export const QueueSearch = z.object({
  status: lenient.status.catch(undefined),
  type: lenient.type.catch(undefined),
  store: lenient.store.catch(undefined),
  from: lenient.from.catch(undefined),
  to: lenient.to.catch(undefined),
  protection: lenient.protection.catch(undefined),
  risk: lenient.risk.catch(undefined),
  q: lenient.q.catch(undefined),
  assignee: lenient.assignee.catch(undefined),
  sort: lenient.sort.catch(undefined),
  order: lenient.order.catch(undefined),
  size: lenient.size.catch(undefined),
});
export type QueueSearch = z.infer<typeof QueueSearch>;

export const DEFAULT_PAGE_SIZE = 25;
export const PAGE_SIZES = [10, 25, 50, 100] as const;

export const FILTER_KEYS = ['type', 'store', 'from', 'to', 'protection', 'risk', 'q'] as const;

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
    risk: search.risk,
    search: search.q || undefined,
    assignee: search.assignee,
    sort: search.sort,
    order: search.order,
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
