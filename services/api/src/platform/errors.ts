import { ERROR_CATALOGUE, type DomainError, type ErrorCode } from '@claims/contracts';

/** An answer the API gives on purpose: a code from the catalogue and a sentence for people. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Array<{ path: string; message: string }>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.status = ERROR_CATALOGUE[code];
  }

  static from(error: DomainError): AppError {
    return new AppError(error.code, error.message);
  }
}
