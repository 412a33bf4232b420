import { z } from 'zod';

/** The portal's public runtime configuration (`GET /api/public-config`), the error-reporting DSN and environment (docs/product.md#error-reporting). */
export const PublicConfig = z.object({
  sentry: z.object({ dsn: z.string(), environment: z.string(), tunnel: z.string() }).nullable(),
});
export type PublicConfig = z.infer<typeof PublicConfig>;
