import {
  SHIPPED_STATUSES,
  type ClaimPolicySettings,
  type EligibilityCode,
  type Fulfillment,
  type Order,
} from '@claims/contracts';

const DAY_MS = 86_400_000;

/** A parcel still in transit may be claimed as lost once it has been moving this long (docs/decisions/eligibility.md). */
export const IN_TRANSIT_WAIT_DAYS = 7;

export interface FulfillmentEligibility {
  eligible: boolean;
  eligibleAt: string | null;
  eligibilityCode: EligibilityCode | null;
}

const addDays = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY_MS).toISOString();

/**
 * Time first (not shipped, too soon, expired), then coverage (unprotected), then what is left
 * (already claimed), so a one-time-appeasement claim can still tell a timely parcel from a late one.
 */
export function fulfillmentEligibility(
  fulfillment: Fulfillment,
  order: Pick<Order, 'protected' | 'items'>,
  settings: ClaimPolicySettings,
  claimedItemIds: ReadonlySet<string>,
  now: string,
): FulfillmentEligibility {
  if (!SHIPPED_STATUSES.includes(fulfillment.status) || !fulfillment.shippedAt) {
    return { eligible: false, eligibleAt: null, eligibilityCode: 'not_shipped' };
  }
  const delivered = fulfillment.status === 'DELIVERED' && fulfillment.deliveredAt !== null;
  const reference = delivered ? fulfillment.deliveredAt! : fulfillment.shippedAt;
  const eligibleAt = addDays(reference, delivered ? settings.claimWaitDays : IN_TRANSIT_WAIT_DAYS);
  const nowMs = Date.parse(now);
  if (nowMs < Date.parse(eligibleAt)) return { eligible: false, eligibleAt, eligibilityCode: 'too_soon' };
  if (nowMs > Date.parse(addDays(reference, settings.claimWindowDays)))
    return { eligible: false, eligibleAt, eligibilityCode: 'expired' };
  if (!order.protected) return { eligible: false, eligibleAt, eligibilityCode: 'unprotected' };
  const open = fulfillment.items.some((line) => !claimedItemIds.has(line.sourceItemId));
  if (!open) return { eligible: false, eligibleAt, eligibilityCode: 'already_claimed' };
  return { eligible: true, eligibleAt, eligibilityCode: null };
}
