/**
 * The tables the enums are keyed by (enums.ts builds the zod enums from their keys), without zod: a page showing a label
 * needs no schema built for it (on a slow phone, building zod schemas is the costliest part of a page's start-up).
 */

/** Claim status codes and their labels (docs/product.md#claim-statuses). */
export const CLAIM_STATUS_LABELS = {
  APPROVED: 'Approved',
  ARCHIVED: 'Archived',
  CLOSED: 'Closed',
  COMMUNICATING: 'Communicating',
  DENIED: 'Denied',
  DISMISSED: 'Dismissed',
  NEW: 'New',
  OPEN: 'Open',
  RESOLVED: 'Resolved',
  RESOLVED_BY_BRAND: 'Resolved by Brand',
  TEMPORARILY_DISMISSED: 'Temporarily Dismissed',
  WAITING_FOR_BRAND: 'Waiting for Brand',
  WAITING_FOR_CUSTOMER: 'Waiting for Customer',
  WAITING_FOR_OP: 'Waiting for OP',
} as const;

/** Claim types with their flag; true marks carrier/shipment-caused loss covered by protection (docs/product.md#claim-types). */
export const CLAIM_TYPE_FLAGS = {
  CARRIER_DID_NOT_RECEIVE: false,
  DAMAGED: true,
  DEFECTIVE_ITEM: false,
  LATE_SHIPPING: false,
  LOST: true,
  MISSING_ITEM: false,
  ORDER_DELIVERED_NOT_RECEIVED: true,
  TRACKING_NOT_MOVING: true,
  PRODUCT_NOT_AS_DESCRIBED: false,
  RETURNED_TO_SENDER: false,
  STOLEN: true,
  WRONG_ADDRESS_CARRIER: true,
  WRONG_ADDRESS_CUSTOMER: false,
  WRONG_ITEM: true,
  WRONG_ADDRESS: false,
  MULTIPLE: false,
} as const;

/** What a shopper may pick for a whole shipment that never arrived (docs/product.md#claim-types). */
export const SHIPMENT_ISSUE_LABELS = {
  ORDER_DELIVERED_NOT_RECEIVED: 'Marked as delivered but not received',
  STOLEN: 'Stolen',
  RETURNED_TO_SENDER: 'Returned to sender',
  TRACKING_NOT_MOVING: 'Stuck in transit',
  WRONG_ADDRESS: 'Sent to the wrong address',
} as const;

/** Item-level issue types with their labels (docs/product.md#claim-types). */
export const ITEM_ISSUE_LABELS = {
  DAMAGED: 'Damaged',
  DEFECTIVE_ITEM: 'Defective',
  MISSING_ITEM: 'Missing',
  WRONG_ITEM: 'Wrong item',
} as const;

/** Resolution reasons; a reason without a label in the spec shows its humanised code (docs/product.md#resolution-reasons). */
export const RESOLUTION_REASON_LABELS = {
  ADDRESS_TYPO: 'Customer Shipping Address Typo',
  CUSTOM: 'Custom',
  CUSTOMER_RESPONDED: 'Customer Responded',
  EXPIRED30: 'Claim Timeframe Expired',
  FOLLOW_UP: 'Follow Up',
  INSUFFICIENT_SHIPPER: 'Insufficient Shipper Packaging',
  NOT_COVERED: 'Claim Type Not Covered',
  NO_RESPONSE: 'No Response',
  OTHER: 'Other',
  PACKAGE_ARRIVED: 'Package Arrived',
  PHOTO_VERIFIED: 'Delivery Photo Verified',
  REFUND: 'Refund',
  RESHIP: 'Reship',
  STORE_CREDIT: 'Store Credit',
  RETURN_TO_SENDER: 'Return to Sender',
  THRESHOLD_REACHED: 'Excessive Claim Threshold Reached',
  ALREADY_REFUNDED: 'Already Refunded',
  ALREADY_REPLACED: 'Already Replaced',
  POTENTIAL_FRAUD: 'Not Covered',
  FLAT_RATE: 'Flat Rate',
} as const;

export const CUSTOMER_RESOLUTION_LABELS = {
  REFUND: 'Refund',
  RESHIP: 'Reshipment',
  STORE_CREDIT: 'Store Credit',
} as const;
