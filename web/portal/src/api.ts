import type { z } from 'zod';
import type {
  AddReviewRequest,
  ClaimLinkRecoveryRequest,
  FileClaimRequest,
  SendMessageRequest,
  UpdateSessionRequest,
  UploadUrlRequest,
} from '@claims/contracts';
import { isHttpError, request, type HttpError } from '@claims/ui/http';
import { isLocalHost } from './branding.js';

export { HttpError, TIMEOUT_MESSAGE } from '@claims/ui/http';

/** The shopper's words for a 429 (the API's `rate_limited`), with the wait its Retry-After gives. */
export function rateLimitedText(error: HttpError): string {
  const seconds = error.retryAfterSeconds;
  const wait = seconds && seconds > 1 && seconds < 60 ? `${seconds} seconds` : 'a minute';
  return `You've tried that a few too many times. To keep orders safe, please wait ${wait} and try again.`;
}

export const isRateLimited = (error: unknown): error is HttpError => isHttpError(error, 429);

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
/** zod itself (its chunk), evaluated once, before and in a task apart from the first schema module's. */
let zodLoaded: Promise<unknown> | null = null;
const loadZod = () => (zodLoaded ??= import('@claims/ui/zod-setup').then(nextTask));

/**
 * A schema module loaded once, on first use. zod's evaluation, building the module's schemas, and parsing the answer
 * that asked for them each end a task: together they would be one long task on a slow phone's main thread.
 */
function schemaModule<M>(load: () => Promise<M>): () => Promise<M> {
  let loaded: Promise<M> | null = null;
  return () =>
    (loaded ??= loadZod()
      .then(load)
      .then(async (module) => {
        await nextTask();
        return module;
      }));
}

/** The portal's schemas (see schemas.ts); each call asks for its schema while its request is out. */
export const loadSchemas = schemaModule(() => import('./schemas.js'));
/** The claim view's schemas only (claimViewSchemas.ts): a claim link's page never builds the flow's. */
const loadClaimViewSchemas = schemaModule(() => import('./claimViewSchemas.js'));
const loadPublicConfigSchema = schemaModule(() => import('./publicConfigSchema.js'));
const schemaOf = <K extends keyof Awaited<ReturnType<typeof loadSchemas>>>(name: K) =>
  loadSchemas().then((schemas) => schemas[name]);
const claimViewSchemaOf = <K extends keyof Awaited<ReturnType<typeof loadClaimViewSchemas>>>(name: K) =>
  loadClaimViewSchemas().then((schemas) => schemas[name]);

export const api = {
  lookupOrder: (order: string, email: string) =>
    request('GET', 'order-lookup', {
      query: { order: order.trim(), email: email.trim() },
      schema: schemaOf('CustomerOrder'),
    }),
  getSession: (orderId: string, email: string) =>
    request('GET', 'sessions', { query: { orderId, email }, schema: schemaOf('ClaimSession'), retry: 0 }),
  saveSession: (body: UpdateSessionRequest) => request('PUT', 'sessions', { body, schema: schemaOf('ClaimSession') }),
  /** `idempotencyKey`: the same for every retry of one submission, so a retry never files a second claim. */
  fileClaim: (sourceOrderId: string, body: FileClaimRequest, idempotencyKey: string) =>
    request('POST', `claims/${encodeURIComponent(sourceOrderId)}`, {
      body,
      schema: schemaOf('FileClaimResponse'),
      headers: { 'Idempotency-Key': idempotencyKey },
    }),
  /** The answer is the same whether anything matched: the links go to the order's email only. */
  requestClaimLinks: (body: ClaimLinkRecoveryRequest) =>
    request('POST', 'claim-links', { body, schema: schemaOf('ClaimLinkRecoveryResponse') }),
  getClaim: (token: string) =>
    request('GET', `claims/${encodeURIComponent(token)}`, { schema: claimViewSchemaOf('CustomerClaimView') }),
  listMessages: (token: string) =>
    request('GET', `claims/${encodeURIComponent(token)}/messages`, { schema: claimViewSchemaOf('MessageList') }),
  sendMessage: (token: string, body: z.input<typeof SendMessageRequest>) =>
    request('POST', `claims/${encodeURIComponent(token)}/messages`, { body, schema: claimViewSchemaOf('Message') }),
  listReviews: (token: string) =>
    request('GET', `claims/${encodeURIComponent(token)}/reviews`, { schema: schemaOf('ReviewList') }),
  addReview: (token: string, body: z.input<typeof AddReviewRequest>) =>
    request('POST', `claims/${encodeURIComponent(token)}/reviews`, { body, schema: schemaOf('Review') }),
  getStore: (id: string) =>
    request('GET', `stores/${encodeURIComponent(id)}`, {
      schema: import('./storeSchemas.js').then((m) => m.PublicStore),
    }),
  /** The domain is omitted on localhost (docs/product.md#http-client). */
  whitelabel: (store: string | undefined) => {
    const host = window.location.hostname;
    return request('GET', 'whitelabel/settings', {
      query: { store, domain: isLocalHost(host) ? undefined : host },
      schema: claimViewSchemaOf('WhitelabelSettings'),
    });
  },
  /** The resolution offer of the looked-up order: the store's, or the variant of an A/B test its session was assigned. */
  offer: (orderId: string, email: string) =>
    request('POST', 'sessions/offer', { body: { orderId, email }, schema: schemaOf('OfferResponse') }),
  uploadUrl: (body: UploadUrlRequest) =>
    request('POST', 'media/upload-url', { body, schema: schemaOf('UploadUrlResponse') }),
  /** Public runtime configuration (the error-reporting DSN and environment, docs/product.md#error-reporting). */
  publicConfig: () =>
    request('GET', 'public-config', { schema: loadPublicConfigSchema().then((m) => m.PublicConfig), timeoutMs: 5_000 }),
};
