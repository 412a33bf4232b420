import { z } from 'zod';
import {
  ApiError, ClaimSession, CustomerClaimView, CustomerOrder, FileClaimResponse, Message, PublicStore, Review,
  UploadUrlResponse, WhitelabelSettings,
  type AddReviewRequest, type FileClaimRequest, type SendMessageRequest, type UpdateSessionRequest, type UploadUrlRequest,
} from '@claims/contracts';

/** Spec §7: every call goes to the API base path. */
export const API_BASE = '/api';
const DEFAULT_TIMEOUT_MS = 20_000;
export const TIMEOUT_MESSAGE = 'The operation was aborted due to timeout';

/** A 4xx/5xx answer (spec §7: raised unless ignored), carrying the contract's error code. */
export class HttpError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly retryAfterSeconds: number | null = null) {
    super(message);
    this.name = 'HttpError';
  }
}

/** The shopper's words for a 429 (the API's `rate_limited`), with the wait its Retry-After gives. */
export function rateLimitedText(error: HttpError): string {
  const seconds = error.retryAfterSeconds;
  const wait = seconds && seconds > 1 && seconds < 60 ? `${seconds} seconds` : 'a minute';
  return `You've tried that a few too many times. To keep orders safe, please wait ${wait} and try again.`;
}

export const isRateLimited = (error: unknown): error is HttpError => error instanceof HttpError && error.status === 429;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface RequestOptions<T> {
  query?: Record<string, string | undefined>;
  body?: unknown;
  schema: z.ZodType<T>;
  timeoutMs?: number;
  /** Default: one retry for GET, none for mutating methods. */
  retry?: number;
}

function urlOf(path: string, query?: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined && value !== '') params.set(key, value);
  const qs = params.toString();
  return `${API_BASE}/${path.replace(/^\//, '')}${qs ? `?${qs}` : ''}`;
}

async function once<T>(method: Method, path: string, options: RequestOptions<T>): Promise<T> {
  let response: Response;
  try {
    response = await fetch(urlOf(path, options.query), {
      method,
      headers: options.body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: options.body === undefined ? null : JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      credentials: 'same-origin',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') throw new Error(TIMEOUT_MESSAGE, { cause: error });
    throw error;
  }
  if (response.status >= 400) {
    const parsed = ApiError.safeParse(await response.json().catch(() => null));
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new HttpError(response.status, parsed.success ? parsed.data.error : 'http_error',
      parsed.success ? parsed.data.message : `Request failed with status ${response.status}`, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null);
  }
  if (response.status === 204) return options.schema.parse(null);
  return options.schema.parse(await response.json());
}

export async function request<T>(method: Method, path: string, options: RequestOptions<T>): Promise<T> {
  const retries = options.retry ?? (method === 'GET' ? 1 : 0);
  for (let attempt = 0; ; attempt++) {
    try {
      return await once(method, path, options);
    } catch (error) {
      const clientError = error instanceof HttpError && error.status < 500;
      if (clientError || attempt >= retries) throw error;
    }
  }
}

export const PublicConfig = z.object({
  sentry: z.object({ dsn: z.string(), environment: z.string(), tunnel: z.string() }).nullable(),
});

export const api = {
  lookupOrder: (order: string, email: string) =>
    request('GET', 'order-lookup', { query: { order: order.trim(), email: email.trim() }, schema: CustomerOrder }),
  getSession: (orderId: string) => request('GET', 'sessions', { query: { orderId }, schema: ClaimSession, retry: 0 }),
  saveSession: (body: UpdateSessionRequest) => request('PUT', 'sessions', { body, schema: ClaimSession }),
  deleteSession: (id: string) => request('DELETE', `sessions/${encodeURIComponent(id)}`, { schema: z.null() }),
  fileClaim: (sourceOrderId: string, body: FileClaimRequest) =>
    request('POST', `claims/${encodeURIComponent(sourceOrderId)}`, { body, schema: FileClaimResponse }),
  getClaim: (token: string) => request('GET', `claims/${encodeURIComponent(token)}`, { schema: CustomerClaimView }),
  listMessages: (token: string) => request('GET', `claims/${encodeURIComponent(token)}/messages`, { schema: z.array(Message) }),
  sendMessage: (token: string, body: z.input<typeof SendMessageRequest>) =>
    request('POST', `claims/${encodeURIComponent(token)}/messages`, { body, schema: Message }),
  listReviews: (token: string) => request('GET', `claims/${encodeURIComponent(token)}/reviews`, { schema: z.array(Review) }),
  addReview: (token: string, body: z.input<typeof AddReviewRequest>) =>
    request('POST', `claims/${encodeURIComponent(token)}/reviews`, { body, schema: Review }),
  getStore: (id: string) => request('GET', `stores/${encodeURIComponent(id)}`, { schema: PublicStore }),
  /** Spec §7: the domain is omitted on localhost. */
  whitelabel: (store: string | undefined) => {
    const host = window.location.hostname;
    const local = host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
    return request('GET', 'whitelabel/settings', { query: { store, domain: local ? undefined : host }, schema: WhitelabelSettings });
  },
  uploadUrl: (body: UploadUrlRequest) => request('POST', 'media/upload-url', { body, schema: UploadUrlResponse }),
  /** Public runtime configuration (spec §7: the error-reporting DSN and environment). */
  publicConfig: () => request('GET', 'public-config', { schema: PublicConfig, timeoutMs: 5_000 }),
};
