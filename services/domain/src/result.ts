import type { DomainError, ErrorCode } from '@claims/contracts';

/** Expected failures are values, not exceptions: a decider returns one of these. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: DomainError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(code: ErrorCode, message: string): Result<T> => ({
  ok: false,
  error: { code, message },
});
