import { CLAIM_STATE_OF_STATUS, type AdminClaimListItem } from '@claims/contracts';
import { toCsv } from '@claims/format';
import { api, type ClaimListParams } from '../../shared/api.js';
import { claimTypeLabel, requestedResolutionLabel, resolutionTypeLabel } from '../../shared/labels.js';

/** The largest page the API gives: fewest round trips while walking the cursor. */
export const EXPORT_PAGE_SIZE = 100;

const HEADER = [
  'Claim number',
  'Status',
  'State',
  'Claim type',
  'Store',
  'Order number',
  'Source order id',
  'Customer name',
  'Customer email',
  'Protection',
  'Requested resolution',
  'Currency',
  'Claimed value',
  'Items',
  'Messages',
  'Resolution',
  'Resolved at',
  'Filed at',
  'Claim id',
  'Assignee',
  'Last customer reply',
  'Customer replied',
  'Risk',
  'Risk score',
] as const;

const row = (c: AdminClaimListItem) => [
  c.claimNumber,
  c.statusLabel,
  CLAIM_STATE_OF_STATUS[c.status],
  claimTypeLabel(c.claimType),
  c.store.name,
  c.orderNumber,
  c.sourceOrderId,
  c.customerName,
  c.customerEmail,
  c.protectionStatus,
  requestedResolutionLabel(c.requestedResolution),
  c.currency,
  c.claimedValue,
  c.itemCount,
  c.messageCount,
  resolutionTypeLabel(c.resolutionType),
  c.resolvedAt ?? '',
  c.createdAt,
  c.id,
  c.assignee?.name ?? '',
  c.lastCustomerReplyAt,
  c.customerReplied ? 'yes' : 'no',
  c.risk?.level ?? '',
  c.risk?.score ?? '',
];

/**
 * Every claim of the filtered list as CSV: walks the keyset cursor page by page (reporting how many
 * rows it has so far) until the server says there is no next page, or `signal` aborts.
 */
export async function exportClaimsCsv(
  params: ClaimListParams,
  onProgress: (rows: number) => void,
  signal: AbortSignal,
  pageSize: number = EXPORT_PAGE_SIZE,
): Promise<{ csv: string; rows: number }> {
  const rows: AdminClaimListItem[] = [];
  let cursor: string | undefined;
  do {
    signal.throwIfAborted();
    const page = await api.listClaims({ ...params, cursor, limit: String(pageSize) }, signal);
    rows.push(...page.data);
    onProgress(rows.length);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return { csv: toCsv([HEADER, ...rows.map(row)]), rows: rows.length };
}

/** Hands the browser a file to save. */
export function download(text: string, filename: string): void {
  const url = URL.createObjectURL(new Blob([`\ufeff${text}`], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
