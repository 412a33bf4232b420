import { z } from 'zod';

/** Every error the API answers, with its HTTP status: one catalogue, stable codes. */
export const ERROR_CATALOGUE = {
  validation_failed: 400,
  unauthenticated: 401,
  forbidden: 403,
  origin_mismatch: 403,
  not_found: 404,
  order_not_found: 404,
  claim_not_found: 404,
  session_not_found: 404,
  route_not_found: 404,
  email_mismatch: 404,
  version_conflict: 409,
  already_resolved: 409,
  already_claimed: 409,
  not_eligible: 422,
  webhook_url_not_allowed: 422,
  invalid_quantity: 422,
  not_returnable: 422,
  unknown_item: 422,
  unsupported_resolution: 422,
  invalid_transition: 422,
  exceeds_claimed_value: 422,
  exceeds_claim_ceiling: 422,
  unsupported_media_type: 415,
  payload_too_large: 413,
  upload_expired: 410,
  upload_quota_exceeded: 422,
  idempotency_key_reused: 422,
  already_member: 409,
  cannot_change_self: 422,
  last_owner: 409,
  last_support_admin: 409,
  invitation_not_found: 404,
  apply_failed: 422,
  already_invoiced: 409,
  month_not_ended: 422,
  credit_exceeds_invoice: 422,
  rate_limited: 429,
  unavailable: 503,
  database_unavailable: 503,
  internal_error: 500,
  insufficient_contrast: 422,
  domain_taken: 409,
  ab_test_running: 409,
  already_exists: 409,
  rebuild_running: 409,
  replay_running: 409,
  rule_not_found: 404,
} as const;
export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export const ApiError = z.object({
  error: z.string(),
  message: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ApiError = z.infer<typeof ApiError>;

export const ErrorCodeSchema = z.enum(Object.keys(ERROR_CATALOGUE) as [ErrorCode]);

/** An expected domain failure: deciders return it instead of throwing. */
export const DomainError = z.object({ code: ErrorCodeSchema, message: z.string() });
export type DomainError = z.infer<typeof DomainError>;

/**
 * A {@link DomainError} thrown by code below the API whose callers would only pass it on (a read
 * model's query refusing a cursor): the API answers it with its code's status, like one it raised.
 */
export class DomainFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DomainFailure';
  }
}
