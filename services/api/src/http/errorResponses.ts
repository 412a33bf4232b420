import { ApiError } from '@claims/contracts';

/** The error answers a route declares in its schema: each status code given answers an {@link ApiError}. */
export const errorResponses = <const Code extends number>(
  ...codes: Code[]
): { readonly [C in Code]: typeof ApiError } =>
  Object.fromEntries(codes.map((code) => [code, ApiError])) as { readonly [C in Code]: typeof ApiError };
