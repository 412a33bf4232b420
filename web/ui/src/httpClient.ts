import type { z } from 'zod';

/**
 * The HTTP client (docs/product.md#http-client), shared by the portal and the back-office: a base path, query and JSON
 * body, a timeout, one retry for reads and none for writes, and 4xx/5xx raised as HttpError.
 */
export const API_BASE = '/api';
const DEFAULT_TIMEOUT_MS = 20_000;
export const TIMEOUT_MESSAGE = 'The operation was aborted due to timeout';

/** A 4xx/5xx answer, carrying the contract's error code and its text for people. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfterSeconds: number | null = null,
    /** Which parts of the request were refused (a 400's `details`: `body.name`, `body.conditions.0.value`), to show by their fields. */
    readonly details: ReadonlyArray<{ path: string; message: string }> = [],
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const isHttpError = (error: unknown, status?: number, code?: string): error is HttpError =>
  error instanceof HttpError &&
  (status === undefined || error.status === status) &&
  (code === undefined || error.code === code);

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Query = Record<string, string | number | undefined>;

export interface RequestOptions<T> {
  query?: Query;
  body?: unknown;
  /** Extra request headers (e.g. `Idempotency-Key`); the same on every retry of the call. */
  headers?: Record<string, string>;
  /** The answer's schema, or its module still loading (the portal builds no schema before its first paint): fetched alongside. */
  schema: z.ZodType<T> | Promise<z.ZodType<T>>;
  timeoutMs?: number;
  /** Default: one retry for GET on a network or 5xx failure, none for mutating methods. */
  retry?: number;
  signal?: AbortSignal;
}

function urlOf(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined && value !== '') params.set(key, String(value));
  const qs = params.toString();
  return `${API_BASE}/${path.replace(/^\//, '')}${qs ? `?${qs}` : ''}`;
}

/** The error body's schema is built on the first failed call only: a page that never fails builds none. */
const errorSchema = () => import('./apiErrorSchema.js').then((m) => m.ApiError);

async function once<T>(
  method: Method,
  path: string,
  options: RequestOptions<T> & { schema: Promise<z.ZodType<T>> },
): Promise<T> {
  let response: Response;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  try {
    response = await fetch(urlOf(path, options.query), {
      method,
      headers: {
        ...options.headers,
        accept: 'application/json',
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: options.body === undefined ? null : JSON.stringify(options.body),
      signal: options.signal ? AbortSignal.any([timeout, options.signal]) : timeout,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError')
      throw new Error(TIMEOUT_MESSAGE, { cause: error });
    throw error;
  }
  if (response.status >= 400) {
    // Without its schema (its chunk failed to load) the answer is still an HttpError with its status, as with an unknown body.
    const [body, ApiError] = await Promise.all([response.json().catch(() => null), errorSchema().catch(() => null)]);
    const parsed = ApiError?.safeParse(body) ?? { success: false as const };
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new HttpError(
      response.status,
      parsed.success ? parsed.data.error : 'http_error',
      parsed.success ? parsed.data.message : `Request failed with status ${response.status}`,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
      parsed.success ? (parsed.data.details ?? []) : [],
    );
  }
  const body: unknown = response.status === 204 ? null : await response.json();
  return (await options.schema).parse(body);
}

export async function request<T>(method: Method, path: string, options: RequestOptions<T>): Promise<T> {
  const retries = options.retry ?? (method === 'GET' ? 1 : 0);
  const schema = Promise.resolve(options.schema);
  // A call failing before its answer is parsed never awaits the schema: its failure to load is not an unhandled rejection.
  schema.catch(() => undefined);
  for (let attempt = 0; ; attempt++) {
    try {
      return await once(method, path, { ...options, schema });
    } catch (error) {
      const final =
        (error instanceof HttpError && error.status < 500) ||
        (error instanceof DOMException && error.name === 'AbortError');
      if (final || attempt >= retries) throw error;
    }
  }
}
