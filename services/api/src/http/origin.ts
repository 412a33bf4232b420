import type { FastifyRequest } from 'fastify';

export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The server's own origin as this request reached it (scheme and Host header; default ports dropped). */
export function ownOrigin(request: FastifyRequest): string | null {
  try {
    return new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return null;
  }
}

/** True when the request's Origin header names the server's own origin (a missing Origin does not). */
export function originMatches(request: FastifyRequest): boolean {
  const given = request.headers.origin;
  if (typeof given !== 'string' || given === 'null') return false;
  try {
    return new URL(given).origin === ownOrigin(request);
  } catch {
    return false;
  }
}
