import type { FulfillmentEligibility } from './fulfillmentEligibility.js';

/**
 * A shipment takes a claim when it is eligible, or, on an order open to a one-time appeasement, when
 * only its missing protection stands in the way (a timely parcel; a late one stays closed).
 */
export const fulfillmentFileable = (
  eligibility: Pick<FulfillmentEligibility, 'eligible' | 'eligibilityCode'>,
  oneTimeAppeasement: boolean,
): boolean => eligibility.eligible || (oneTimeAppeasement && eligibility.eligibilityCode === 'unprotected');
