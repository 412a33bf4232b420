import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { claimLinksStreamOf } from '@claims/contracts';
import { claimLinksDecider } from '@claims/domain';
import type { AppContext } from '../context.js';
import { loadAggregate } from '../eventsourcing/commandHandler.js';
import { nameBasedId } from '../eventsourcing/nameBasedId.js';
import { loadClaim, type LoadedClaim } from './authorizedClaim.js';

/**
 * A claim token is the claim id (16 bytes) followed by 16 random bytes (128 bits), base64url.
 * Only its SHA-256 is stored; the id inside lets a view read the claim's stream directly.
 */
export function newClaimToken(claimId: string): { token: string; tokenHash: string } {
  const bytes = Buffer.concat([Buffer.from(claimId.replace(/-/g, ''), 'hex'), randomBytes(16)]);
  const token = bytes.toString('base64url');
  return { token, tokenHash: hashToken(token) };
}

/**
 * The token of a claim filed with an Idempotency-Key: its secret half derived from the key (at least 128
 * random bits, see IDEMPOTENCY_KEY) and the order, so a retried submission answers the same link.
 */
export function claimTokenForKey(claimId: string, orderId: string, key: string): { token: string; tokenHash: string } {
  const secret = createHash('sha256').update(`claim-token:${orderId}:${key}`).digest().subarray(0, 16);
  const token = Buffer.concat([Buffer.from(claimId.replace(/-/g, ''), 'hex'), secret]).toString('base64url');
  return { token, tokenHash: hashToken(token) };
}

/** The claim id a filing with this key gets: the same for every retry of one submission on one order. */
export const claimIdForKey = (orderId: string, key: string): string => nameBasedId(`claim-id:${orderId}:${key}`);

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The claim id a token names, or null when it is not a token's shape. */
export function claimIdOfToken(token: string): string | null {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const hex = Buffer.from(token, 'base64url').subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function tokenMatches(token: string, tokenHash: string): boolean {
  const a = Buffer.from(hashToken(token), 'hex');
  const b = Buffer.from(tokenHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The claim a link opens: its token names the claim, and must match the hash the claim was filed with or
 * one of the further links mailed since. A wrong or unknown token is null, whatever was wrong with it.
 */
export async function openClaimLink(ctx: AppContext, token: string): Promise<LoadedClaim | null> {
  const claimId = claimIdOfToken(token);
  const loaded = claimId ? await loadClaim(ctx, claimId) : null;
  if (!loaded) return null;
  if (tokenMatches(token, loaded.state.tokenHash)) return loaded;
  const links = await loadAggregate(ctx, claimLinksDecider, claimLinksStreamOf(loaded.state.id));
  return links.state.some((hash) => tokenMatches(token, hash)) ? loaded : null;
}
