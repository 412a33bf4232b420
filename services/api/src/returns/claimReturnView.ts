import { RETURN_STATUS_LABELS, type Claim, type ClaimReturn, type Store } from '@claims/contracts';
import type { ReturnRecord } from '@claims/domain';

/** A return as the shopper and the desk see it: its items named from the claim. */
export function claimReturnView(claim: Claim, record: ReturnRecord): ClaimReturn {
  return {
    id: record.id,
    claimId: claim.id,
    code: record.code,
    status: record.status,
    statusLabel: RETURN_STATUS_LABELS[record.status],
    handling: record.handling,
    portalUrl: record.portalUrl,
    reason: record.reason,
    method: record.method,
    comment: record.comment,
    items: record.items.map((line) => {
      const item = claim.items.find((i) => i.id === line.claimItemId);
      return { ...line, name: item?.name ?? 'Item', sku: item?.sku ?? '' };
    }),
    startedAt: record.startedAt,
    updatedAt: record.updatedAt,
  };
}

/**
 * Where the store's returns go: its own returns portal when it runs one (capabilities.returns, with the
 * portal's address), else null: handled here (docs/decisions/returns.md).
 */
export const storeReturnsPortal = (store: Store): string | null =>
  (store.settings.capabilities.returns && store.settings.returns.portalUrl) || null;
