import '@claims/ui/zod-setup';

/**
 * The public runtime configuration (docs/product.md#error-reporting), in a module of its own: every page asks for it once idle, and with the
 * pages' schemas beside it the start page built the claim view's too.
 */
export { PublicConfig } from '@claims/contracts';
