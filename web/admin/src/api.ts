import { z } from 'zod';
import {
  AdminClaimDetail, AdminClaimPage, ApiError, MeResponse, Message, TimelineResponse,
  type AdminClaimListQuery, type ChangeStatusRequest, type LoginRequest, type ResolveClaimRequest, type SendMessageRequest,
} from '@claims/contracts';

/** Every call goes to the one origin's API (the back-office is served from it at /admin/). */
export const API_BASE = '/api';
const DEFAULT_TIMEOUT_MS = 20_000;
export const TIMEOUT_MESSAGE = 'The operation was aborted due to timeout';

/** A 4xx/5xx answer with the contract's error code and its text for people. */
export class HttpError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly retryAfter: string | null = null) {
    super(message);
    this.name = 'HttpError';
  }
}

export const isHttpError = (error: unknown, status?: number, code?: string): error is HttpError =>
  error instanceof HttpError && (status === undefined || error.status === status) && (code === undefined || error.code === code);

type Method = 'GET' | 'POST';
type Query = Record<string, string | number | undefined>;

interface RequestOptions<T> {
  query?: Query;
  body?: unknown;
  schema: z.ZodType<T>;
  /** Default: one retry for GET on a network or 5xx failure, none for POST. */
  retry?: number;
  signal?: AbortSignal;
}

function urlOf(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined && value !== '') params.set(key, String(value));
  const qs = params.toString();
  return `${API_BASE}/${path.replace(/^\//, '')}${qs ? `?${qs}` : ''}`;
}

async function once<T>(method: Method, path: string, options: RequestOptions<T>): Promise<T> {
  let response: Response;
  const timeout = AbortSignal.timeout(DEFAULT_TIMEOUT_MS);
  try {
    response = await fetch(urlOf(path, options.query), {
      method,
      headers: options.body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: options.body === undefined ? null : JSON.stringify(options.body),
      signal: options.signal ? AbortSignal.any([timeout, options.signal]) : timeout,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') throw new Error(TIMEOUT_MESSAGE, { cause: error });
    throw error;
  }
  if (response.status >= 400) {
    const parsed = ApiError.safeParse(await response.json().catch(() => null));
    throw new HttpError(response.status, parsed.success ? parsed.data.error : 'http_error',
      parsed.success ? parsed.data.message : `Request failed with status ${response.status}`, response.headers.get('retry-after'));
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
      const final = (error instanceof HttpError && error.status < 500) || (error instanceof DOMException && error.name === 'AbortError');
      if (final || attempt >= retries) throw error;
    }
  }
}

const claimPath = (claimId: string, rest = '') => `admin/claims/${encodeURIComponent(claimId)}${rest}`;

/** The list query as the URL carries it (every value a string). */
export type ClaimListParams = Partial<Record<keyof AdminClaimListQuery, string>>;

export const api = {
  me: () => request('GET', 'auth/me', { schema: MeResponse, retry: 0 }),
  login: (body: LoginRequest) => request('POST', 'auth/login', { body, schema: MeResponse }),
  logout: () => request('POST', 'auth/logout', { schema: z.null() }),
  listClaims: (query: ClaimListParams, signal?: AbortSignal) =>
    request('GET', 'admin/claims', { query, schema: AdminClaimPage, ...(signal ? { signal } : {}) }),
  /** `asOf`: the claim as of that stream version (needs the server's `?asOf=`; see README of web/admin). */
  getClaim: (claimId: string, asOf?: number) => request('GET', claimPath(claimId), { query: { asOf }, schema: AdminClaimDetail }),
  timeline: (claimId: string) => request('GET', claimPath(claimId, '/timeline'), { schema: TimelineResponse }),
  resolve: (claimId: string, body: ResolveClaimRequest) => request('POST', claimPath(claimId, '/resolve'), { body, schema: AdminClaimDetail }),
  changeStatus: (claimId: string, body: ChangeStatusRequest) => request('POST', claimPath(claimId, '/status'), { body, schema: AdminClaimDetail }),
  sendMessage: (claimId: string, body: z.input<typeof SendMessageRequest>) =>
    request('POST', claimPath(claimId, '/messages'), { body, schema: Message }),
};
