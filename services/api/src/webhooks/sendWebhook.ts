import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { isPrivateAddress, publicOnlyLookup } from './addressPolicy.js';
import { signWebhook } from './signature.js';

export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of a receiver's answer body is kept with the attempt, for the delivery log. */
export const RESPONSE_EXCERPT_CHARS = 1_000;
const RESPONSE_EXCERPT_BYTES = RESPONSE_EXCERPT_CHARS * 4;

export interface WebhookRequest {
  url: string;
  /** Each signs the delivery, new first (several during a rotation's overlap). */
  secrets: readonly string[];
  webhookId: string;
  /** The attempt's time: the `webhook-timestamp` header, in unix seconds. */
  timestampSeconds: number;
  body: string;
}

export interface WebhookOutcome {
  statusCode: number | null;
  error: string | null;
  succeeded: boolean;
  durationMs: number;
  /** A 429 or 503 answer's `Retry-After`, in ms; null when none was given. */
  retryAfterMs: number | null;
  /** The start of the answer body as text; null when there was no answer or it was empty. */
  responseExcerpt: string | null;
}

/**
 * The first characters of an answer body, as stored text: control characters other than tab and line
 * breaks dropped (PostgreSQL text cannot hold NUL), and null when nothing is left.
 */
export function excerptOf(body: Buffer): string | null {
  const text = body
    .toString('utf8')
    // eslint-disable-next-line no-control-regex -- exactly the control characters are what is removed
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '')
    .slice(0, RESPONSE_EXCERPT_CHARS)
    .trim();
  return text === '' ? null : text;
}

/** `Retry-After` as seconds or an HTTP date, in ms from `now`; null when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: number): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export interface SendOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
  /** Aborted when the worker stops: the attempt is then not recorded and the delivery stays due. */
  signal?: AbortSignal;
}

/**
 * POSTs one Standard Webhooks delivery. Only a 2xx answer within the timeout counts; redirects are
 * not followed. Never throws: every outcome is an attempt to record.
 */
export function sendWebhook(request: WebhookRequest, options: SendOptions): Promise<WebhookOutcome> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    // Declared before any early finish (which clears it), set once the request is under way.
    let timer: NodeJS.Timeout | undefined = undefined;
    let answered: { status: number; retryAfter: number | null } | null = null;
    const body: Buffer[] = [];
    let bodyBytes = 0;
    const finish = (statusCode: number | null, error: string | null, retryAfter: number | null = null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({
        statusCode,
        error,
        succeeded: error === null,
        durationMs: elapsed(),
        retryAfterMs: retryAfter,
        responseExcerpt: body.length > 0 ? excerptOf(Buffer.concat(body)) : null,
      });
    };
    /** The answer is its status; the body is read only as far as the excerpt, within the same timeout. */
    const finishAnswered = () => {
      if (!answered) return;
      const { status, retryAfter } = answered;
      finish(status, status >= 200 && status < 300 ? null : `receiver answered HTTP ${status}`, retryAfter);
    };
    let target: URL;
    try {
      target = new URL(request.url);
    } catch {
      finish(null, 'invalid URL');
      return;
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (!options.allowPrivate && net.isIP(host) && isPrivateAddress(host)) {
      finish(null, `refused: ${host} is a private address`);
      return;
    }
    const client = target.protocol === 'https:' ? https : http;
    const outgoing = client.request(
      target,
      {
        method: 'POST',
        agent: false,
        ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup }),
        ...(options.signal ? { signal: options.signal } : {}),
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(request.body),
          'user-agent': 'order-protection-webhooks/1',
          'webhook-id': request.webhookId,
          'webhook-timestamp': String(request.timestampSeconds),
          'webhook-signature': request.secrets
            .map((secret) => signWebhook(secret, request.webhookId, request.timestampSeconds, request.body))
            .join(' '),
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const header = response.headers['retry-after'];
        const retryAfter =
          status === 429 || status === 503
            ? retryAfterMs(Array.isArray(header) ? header[0] : header, Date.now())
            : null;
        answered = { status, retryAfter };
        response.on('data', (chunk: Buffer) => {
          if (bodyBytes >= RESPONSE_EXCERPT_BYTES) return;
          body.push(chunk.subarray(0, RESPONSE_EXCERPT_BYTES - bodyBytes));
          bodyBytes += Math.min(chunk.length, RESPONSE_EXCERPT_BYTES - bodyBytes);
          if (bodyBytes >= RESPONSE_EXCERPT_BYTES) finishAnswered();
        });
        response.on('error', () => finishAnswered());
        response.on('end', finishAnswered);
        // The rest of a long body is read and dropped so the socket can close cleanly, but not for long.
        response.on('close', () => {
          finishAnswered();
          clearTimeout(drain);
        });
        const drain = setTimeout(() => outgoing.destroy(), timeoutMs + 1_000);
        drain.unref();
      },
    );
    timer = setTimeout(() => {
      // Headers came but the body did not end: the status is the answer, with what body came.
      if (answered) finishAnswered();
      else finish(null, `no answer within ${timeoutMs / 1000} s`);
      outgoing.destroy();
    }, timeoutMs);
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (answered) {
        finishAnswered();
        return;
      }
      finish(
        null,
        options.signal?.aborted
          ? 'aborted: worker stopping'
          : error.code
            ? `${error.code}: ${error.message}`
            : error.message,
      );
    });
    outgoing.end(request.body);
  });
}
