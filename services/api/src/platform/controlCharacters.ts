import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

/** Control characters no path parameter or query value holds (PostgreSQL refuses NUL outright). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const IN_LINE = /[\u0000-\u001f\u007f]/;
/** HTTP allows a tab inside a header value; nothing else below space. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const IN_HEADER = /[\u0000-\u0008\u000a-\u001f\u007f]/;
/** Free text in a JSON body may break lines and indent; nothing else below space. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** A lone surrogate: text that is not Unicode (PostgreSQL refuses it in jsonb, so it would be a 500 there). */
const LONE_SURROGATE = /\p{Cs}/u;
/** A JSON body nested deeper than any shape of the contract is refused before it is walked further. */
const MAX_DEPTH = 32;

const isBad = (text: string, pattern: RegExp) => pattern.test(text) || LONE_SURROGATE.test(text);

/** The path of the first string (or object key) in `value` that `pattern` matches or that is ill-formed Unicode, or null. */
function findControl(value: unknown, pattern: RegExp, at: string, depth = 0): string | null {
  if (typeof value === 'string') return isBad(value, pattern) ? at : null;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  if (depth > MAX_DEPTH) return at;
  for (const [key, item] of Object.entries(value)) {
    const path = `${at}.${key}`;
    if (isBad(key, pattern)) return path;
    const found = findControl(item, pattern, path, depth + 1);
    if (found) return found;
  }
  return null;
}

const refuse = (path: string) =>
  new AppError(
    'validation_failed',
    `The request is not valid: ${path} holds a control character or a lone surrogate, or is nested too deeply.`,
    [{ path, message: 'holds a control character or a lone surrogate (not Unicode), or is nested too deeply' }],
  );

/** Checks what the request carries before any handler can pass it to the database or a log. */
function checkRequest(request: FastifyRequest): void {
  const found =
    findControl(request.params, IN_LINE, 'params') ??
    findControl(request.query, IN_LINE, 'querystring') ??
    findControl(request.headers, IN_HEADER, 'headers') ??
    findControl(request.body, IN_TEXT, 'body');
  if (found) throw refuse(found);
}

/**
 * Bad input never reaches PostgreSQL (a NUL byte or a lone surrogate is a 500 there) nor the logs: every text of a
 * request, in every route, is checked in one place before validation, after the caller's right to the path's
 * store, claim or order (another tenant's answers 404 whatever the body holds). Install it after the auth plugin.
 */
export function installControlCharacterCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => checkRequest(request));
}
