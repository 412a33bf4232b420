import { ResolutionReason, type ResolutionType } from './enums.js';

/** Why an item was granted something: the approval's own code first, then the follow-ups that led to it. */
const grantedBecause = (own: ResolutionReason): ResolutionReason[] => [
  ...new Set<ResolutionReason>([
    own,
    'INSUFFICIENT_SHIPPER',
    'CUSTOMER_RESPONDED',
    'FOLLOW_UP',
    'ADDRESS_TYPO',
    'CUSTOM',
    'OTHER',
  ]),
];

/**
 * The reasons the desk offers for each decision (decided: docs/product.md#resolution-reasons lists the codes without saying which fit
 * which). A denial offers the grounds for refusing; an approval offers its own code and the follow-ups,
 * never a denial ground. The API still accepts any reason (the contract's resolve never restricted it).
 */
export const REASONS_FOR_DECISION: Readonly<Record<ResolutionType, readonly ResolutionReason[]>> = {
  REFUND: grantedBecause('REFUND'),
  RESHIP: grantedBecause('RESHIP'),
  STORE_CREDIT: grantedBecause('STORE_CREDIT'),
  FLAT_RATE: grantedBecause('FLAT_RATE'),
  CUSTOM: grantedBecause('CUSTOM'),
  DENY: [
    'NOT_COVERED',
    'EXPIRED30',
    'PACKAGE_ARRIVED',
    'PHOTO_VERIFIED',
    'INSUFFICIENT_SHIPPER',
    'THRESHOLD_REACHED',
    'ALREADY_REFUNDED',
    'ALREADY_REPLACED',
    'RETURN_TO_SENDER',
    'ADDRESS_TYPO',
    'NO_RESPONSE',
    'POTENTIAL_FRAUD',
    'OTHER',
  ],
};

/** The reasons offered for a decision; one already chosen (e.g. a macro's) stays offered. */
export function reasonsFor(type: ResolutionType, chosen: string): ResolutionReason[] {
  const offered = [...REASONS_FOR_DECISION[type]];
  const parsed = ResolutionReason.safeParse(chosen);
  if (parsed.success && !offered.includes(parsed.data)) offered.push(parsed.data);
  return offered;
}
