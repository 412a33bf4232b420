import type { RequestMeta } from '../context.js';
import { actorOf, type Principal } from './principal.js';

/** The metadata a signed-in caller's (or API token's) command stamps on its events. */
export const metaOf = (principal: Principal, correlationId: string): RequestMeta => ({
  actor: actorOf(principal),
  correlationId,
  causationId: null,
});

/** A shopper acting on an order or a claim: the subject is what they proved they hold. */
export const customerMeta = (correlationId: string, subject: string): RequestMeta => ({
  actor: { type: 'customer', id: subject },
  correlationId,
  causationId: null,
});
