import {
  CLAIM_TYPE_FLAGS,
  MIXED_RESOLUTION,
  type Claim,
  type ClaimItem,
  type ClaimType,
  type CustomerResolution,
  type ResolutionType,
  type StoreCapabilities,
} from '@claims/contracts';

/**
 * The items a decision has been made on: those a resolution line names, or every item once a claim-level
 * line (a flat amount for the claim, not tied to an item) was given.
 */
export function decidedItemIds(claim: Pick<Claim, 'items' | 'resolutions'>): ReadonlySet<string> {
  if (claim.resolutions.some((r) => r.relatedClaimItemId === null)) return new Set(claim.items.map((i) => i.id));
  return new Set(claim.resolutions.flatMap((r) => (r.relatedClaimItemId ? [r.relatedClaimItemId] : [])));
}

/** Resolvable while some item is undecided: items may be decided in several passes. */
export const isResolvable = (claim: Pick<Claim, 'items' | 'resolutions'>): boolean => {
  const decided = decidedItemIds(claim);
  return claim.items.some((i) => !decided.has(i.id));
};

export type ProtectionStatus = 'ota' | 'removed' | 'protected' | 'unprotected';

/** Protection status (docs/product.md#protection-status). */
export function protectionStatus(claim: Pick<Claim, 'isOta' | 'policy'>): ProtectionStatus {
  if (claim.isOta) return 'ota';
  if (claim.policy?.removedAt) return 'removed';
  if (claim.policy) return 'protected';
  return 'unprotected';
}

/** MULTIPLE by type, or when the items carry more than one distinct type (docs/product.md#claim-types). */
export function isMultipleType(claimType: ClaimType, items: ReadonlyArray<Pick<ClaimItem, 'claimType'>>): boolean {
  return claimType === 'MULTIPLE' || new Set(items.map((i) => i.claimType)).size > 1;
}

/** The claim-level type: the items' one type, or MULTIPLE. */
export function claimTypeOf(items: ReadonlyArray<Pick<ClaimItem, 'claimType'>>): ClaimType {
  const types = new Set(items.map((i) => i.claimType));
  return types.size === 1 ? [...types][0]! : 'MULTIPLE';
}

/**
 * Requested resolution (docs/product.md#requested-resolution): the mixed marker when items disagree, else the choice held by the
 * majority of refund, reship and store credit, with refund as the fallback.
 */
export function requestedResolution(
  items: ReadonlyArray<{ resolutionRequested: CustomerResolution | null }>,
): CustomerResolution | typeof MIXED_RESOLUTION {
  const requested = items.map((i) => i.resolutionRequested).filter((r): r is CustomerResolution => r !== null);
  const distinct = new Set(requested);
  if (distinct.size > 1) return MIXED_RESOLUTION;
  const counts = new Map<CustomerResolution, number>();
  for (const r of requested) counts.set(r, (counts.get(r) ?? 0) + 1);
  let best: CustomerResolution = 'REFUND';
  let bestCount = 0;
  for (const choice of ['REFUND', 'RESHIP', 'STORE_CREDIT'] as const) {
    const count = counts.get(choice) ?? 0;
    if (count > bestCount) {
      best = choice;
      bestCount = count;
    }
  }
  return best;
}

/**
 * An item's credit-store default is false on ota claims, otherwise the claim type's flag
 * (the types flagged true are the carrier-caused losses the protection reimburses the store for;
 * docs/product.md#claim-types).
 */
export function defaultCreditStore(isOta: boolean, claimType: ClaimType): boolean {
  return !isOta && CLAIM_TYPE_FLAGS[claimType];
}

/** The capability a resolution type needs; flat rate, custom and denial are always the store's to give. */
const CAPABILITY_OF: Partial<Record<ResolutionType, keyof StoreCapabilities>> = {
  REFUND: 'refund',
  RESHIP: 'reship',
  STORE_CREDIT: 'credit',
};

/** Whether a store with these capabilities offers a resolution type (filing's desired method or a resolution). */
export function isOffered(type: ResolutionType, capabilities: StoreCapabilities): boolean {
  const needed = CAPABILITY_OF[type];
  return needed === undefined || capabilities[needed];
}
