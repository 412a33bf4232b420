import type {
  ClaimItem,
  ClaimType,
  EventOf,
  FilingScreening,
  Fulfillment,
  Order,
  Risk,
  RiskFacts,
  RiskLevel,
  RiskReason,
} from '@claims/contracts';
import { convertMinor, fractionOf, roundHalfEven } from '../money/exactMoney.js';
import { lineValue } from '../claim/resolutionValue.js';

/** Claims about a parcel that never arrived: a carrier's delivered scan contradicts them. */
const NOT_RECEIVED: readonly ClaimType[] = ['ORDER_DELIVERED_NOT_RECEIVED', 'LOST', 'STOLEN', 'TRACKING_NOT_MOVING'];

/** Filing this soon after the delivery scan is what a shopper who never looked for the parcel does. */
const SOON_AFTER_DELIVERY_HOURS = 24;

const HOUR_MS = 3_600_000;

const sameAddress = (a: Order['shippingAddress'], b: Order['shippingAddress']) =>
  JSON.stringify([a.address1, a.address2 ?? null, a.zip ?? null, a.city, a.countryCode]) ===
  JSON.stringify([b.address1, b.address2 ?? null, b.zip ?? null, b.city, b.countryCode]);

const inStoreCurrency = (minor: number, order: Pick<Order, 'currency' | 'exchangeRate'>, storeCurrency: string) =>
  order.currency === storeCurrency
    ? minor
    : roundHalfEven(convertMinor(fractionOf(minor), order.currency, storeCurrency, order.exchangeRate));

/** The facts a claim's risk is assessed on: what filing looked up (`screening`) and what the claim and order show. */
export function riskFactsOf(input: {
  items: readonly ClaimItem[];
  shipments: readonly Pick<Fulfillment, 'status' | 'shippedAt' | 'deliveredAt'>[];
  order: Pick<Order, 'currency' | 'exchangeRate' | 'items' | 'shippingAddress'>;
  updatedShippingAddress: Order['shippingAddress'] | null;
  screening: FilingScreening;
  now: string;
}): RiskFacts {
  const { items, shipments, order, screening } = input;
  const claimValue = items.reduce((sum, item) => sum + lineValue(item, item.quantity), 0);
  const claimedLines = new Set(items.map((i) => i.sourceItemId));
  const orderValue = order.items
    .filter((i) => claimedLines.has(i.sourceItemId))
    .reduce((sum, i) => sum + lineValue({ ...i, orderedQuantity: i.quantity }, i.quantity), 0);
  const deliveries = shipments.flatMap((s) => (s.deliveredAt ? [Date.parse(s.deliveredAt)] : []));
  const lastDelivery = deliveries.length > 0 ? Math.max(...deliveries) : null;
  const delivered = shipments.some((s) => s.status === 'DELIVERED' || s.deliveredAt !== null);
  return {
    shopperClaims90d: screening.shopperClaims90d,
    shopperClaimsElsewhere90d: screening.shopperClaimsElsewhere90d,
    reusedPhotos: screening.reusedPhotos,
    storeCurrency: screening.storeCurrency,
    claimValue: Math.max(0, inStoreCurrency(claimValue, order, screening.storeCurrency)),
    orderValue: Math.max(0, inStoreCurrency(orderValue, order, screening.storeCurrency)),
    storeUsualClaim: screening.storeUsualClaim,
    hoursSinceDelivery:
      lastDelivery === null ? null : Math.max(0, Math.floor((Date.parse(input.now) - lastDelivery) / HOUR_MS)),
    deliveredButNotReceived: delivered && items.some((i) => NOT_RECEIVED.includes(i.claimType)),
    addressChangedAfterShipping:
      input.updatedShippingAddress !== null &&
      shipments.some((s) => s.shippedAt !== null) &&
      !sameAddress(input.updatedShippingAddress, order.shippingAddress),
  };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Each signal with its weight and the words a person reads; the score is their sum, at most 100. */
function signals(facts: RiskFacts): Array<RiskReason & { weight: number }> {
  const found: Array<RiskReason & { weight: number }> = [];
  const add = (code: RiskReason['code'], weight: number, text: string) => found.push({ code, weight, text });
  if (facts.shopperClaims90d > 0)
    add(
      'earlier_claims_here',
      Math.min(45, 15 * facts.shopperClaims90d),
      `The shopper filed ${plural(facts.shopperClaims90d, 'other claim', 'other claims')} at this store in the last 90 days.`,
    );
  if (facts.shopperClaimsElsewhere90d > 0)
    add(
      'claims_at_other_stores',
      Math.min(30, 10 * facts.shopperClaimsElsewhere90d),
      `The shopper filed ${plural(facts.shopperClaimsElsewhere90d, 'claim', 'claims')} at other stores in the last 90 days.`,
    );
  if (facts.reusedPhotos > 0)
    add('reused_photos', 40, `${plural(facts.reusedPhotos, 'photo is', 'photos are')} also on another claim.`);
  if (facts.orderValue > 0 && facts.claimValue * 10 >= facts.orderValue * 9 && facts.claimValue > 0)
    add('most_of_order_value', 5, 'The claim asks for the whole value of the items it names.');
  if (facts.storeUsualClaim !== null && facts.storeUsualClaim > 0 && facts.claimValue >= 2 * facts.storeUsualClaim) {
    const times = Math.floor(facts.claimValue / facts.storeUsualClaim);
    add('above_usual_claim', times >= 3 ? 20 : 10, `The claim is worth ${times} times the store's usual claim.`);
  }
  if (facts.hoursSinceDelivery !== null && facts.hoursSinceDelivery < SOON_AFTER_DELIVERY_HOURS)
    add(
      'filed_soon_after_delivery',
      10,
      `Filed ${plural(facts.hoursSinceDelivery, 'hour', 'hours')} after the carrier's delivery scan.`,
    );
  if (facts.deliveredButNotReceived)
    add(
      'delivered_but_not_received',
      25,
      'The carrier scanned the parcel delivered, yet the claim says it never came.',
    );
  if (facts.addressChangedAfterShipping)
    add('address_changed_after_shipping', 20, 'The shopper asks for a new address after the parcel had shipped.');
  return found;
}

export const levelOfScore = (score: number): RiskLevel => (score >= 60 ? 'high' : score >= 30 ? 'medium' : 'low');

/** A claim's risk from its facts: a 0–100 score, its level, and why (the strongest reason first). */
export function assessRisk(facts: RiskFacts): Risk {
  const found = signals(facts).sort((a, b) => b.weight - a.weight);
  const score = Math.min(
    100,
    found.reduce((sum, s) => sum + s.weight, 0),
  );
  const reasons = found.map(({ code, text }) => ({ code, text }));
  return {
    level: levelOfScore(score),
    score,
    reasons: reasons.length > 0 ? reasons : [{ code: 'nothing_unusual', text: 'Nothing unusual about this claim.' }],
  };
}

/**
 * The facts of a claim filed before risk was recorded: what its event alone shows (no history, no photo check,
 * its own currency taken for the store's). docs/decisions/automation.md "Claims filed before risk".
 */
export function riskFactsOfFiled(data: EventOf<'ClaimFiled'>['data']): RiskFacts {
  if (data.riskFacts) return data.riskFacts;
  const claimValue = data.items.reduce((sum, item) => sum + lineValue(item, item.quantity), 0);
  const delivered = (data.shipments ?? []).some((s) => s.status === 'DELIVERED');
  return {
    shopperClaims90d: 0,
    shopperClaimsElsewhere90d: 0,
    reusedPhotos: 0,
    storeCurrency: data.currency,
    claimValue: Math.max(0, claimValue),
    orderValue: Math.max(0, claimValue),
    storeUsualClaim: null,
    hoursSinceDelivery: null,
    deliveredButNotReceived: delivered && data.items.some((i) => NOT_RECEIVED.includes(i.claimType)),
    addressChangedAfterShipping: false,
  };
}

/** The risk a filed claim carries: as recorded at filing, else assessed from its event alone. */
export const riskOfFiled = (data: EventOf<'ClaimFiled'>['data']): Risk =>
  data.risk ?? assessRisk(riskFactsOfFiled(data));
