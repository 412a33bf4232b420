// Without zod: the portal reads this table at start-up, before any schema is built (its SessionStatus enum is in enums.ts).

/** Claim session statuses: the step of the shopper's flow (docs/product.md#claim-sessions; the table is ours: docs/decisions/claim-sessions.md). */
export const SESSION_STEP_PATHS = {
  ORDER_FOUND: '/issues',
  SELECTING_ITEMS: '/issues/items',
  SELECTING_SHIPMENT: '/issues/shipment',
  SHIPMENT_DETAILS: '/issues/shipment/details',
  MULTIPLE_SHIPMENTS: '/multiple-shipments',
  PROCESSING: '/process',
  CHOOSING_RESOLUTION: '/resolution',
  REVIEWING: '/resolution/review',
  SUBMITTED: '/claim-received',
} as const;
