import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { Permission } from '@claims/contracts';
import { readStream, type StreamRead } from '@claims/event-store';
import type { AppContext } from '../context.js';
import { findOrderById } from '../catalog/orderRepository.js';
import { claimNotFound } from '../http/authorizedClaim.js';
import { orderNotFound } from '../http/authorizedOrder.js';
import { storeNotFound } from '../http/authorizedStore.js';
import { AppError } from '../platform/errors.js';
import { findTokenPrincipal } from '../public-v1/index.js';
import { originMatches, SAFE_METHODS } from '../http/origin.js';
import { permissionsAt, storesWith, type Principal } from '../http/principal.js';
import { clearedSessionCookie, cookieValue, findSessionPrincipal, sessionCookieName } from './loginSessions.js';

/**
 * How a route is authenticated: `user` needs a signed-in user (session cookie), `optional-user`
 * resolves one when present, `token` needs `Authorization: Bearer <API token>`.
 */
/** `user-or-token`: an API token when the request carries `Authorization: Bearer`, else the back-office session. */
export type AuthMode = 'user' | 'optional-user' | 'token' | 'user-or-token';

/**
 * What an authenticated route needs, declared once beside it and published as `x-permission` in the
 * OpenAPI document: a permission of the table (checked here before the body is read), `signed-in`
 * (anyone authenticated: their own profile, sessions, saved views), or `anyOf` the permissions the handler
 * picks one of by what is asked (a settings group, a status move): holding none is refused here too.
 */
export type RouteAccess = Permission | 'signed-in' | { readonly anyOf: readonly Permission[] };

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
    permission?: RouteAccess;
  }
  interface FastifyRequest {
    principal: Principal | null;
    /**
     * The one permission check every endpoint makes: the caller must hold `permission` on `storeId`.
     * A store the caller cannot see at all answers `notFound` (404, default `not_found`), so another
     * tenant's objects are indistinguishable from missing ones; a visible store without the right is 403.
     */
    authorize(permission: Permission, storeId: string, notFound?: () => AppError): Principal;
    /** The caller, or 401 when the route resolved none. */
    requirePrincipal(): Principal;
    /** The stream of the path's :claimId as the permission check read it, for the handler's first load (authorizedClaim). */
    claimStream: { streamId: string; read: StreamRead } | null;
  }
}

const unauthenticated = (message: string, headers?: Record<string, string>) =>
  new AppError('unauthenticated', message, undefined, headers);

function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}

async function authenticate(ctx: AppContext, request: FastifyRequest, mode: AuthMode): Promise<Principal | null> {
  if (mode === 'user-or-token') return authenticate(ctx, request, bearerOf(request) === null ? 'user' : 'token');
  if (mode === 'token') {
    const bearer = bearerOf(request);
    const challenge = { 'www-authenticate': 'Bearer realm="api"' };
    if (bearer === null) throw unauthenticated('Send an API token as Authorization: Bearer <token>.', challenge);
    const principal = bearer ? await findTokenPrincipal(ctx, bearer) : null;
    if (!principal) throw unauthenticated('The API token is unknown or has been revoked.', challenge);
    return principal;
  }
  const session = cookieValue(request, sessionCookieName(ctx, request));
  if (!session) {
    if (mode === 'user') throw unauthenticated('Sign in to use the back-office.');
    return null;
  }
  // A cookie rides along on cross-site requests too: a state change must come from our own pages.
  if (!SAFE_METHODS.has(request.method) && !originMatches(request)) {
    throw new AppError('origin_mismatch', "This request did not come from the back-office's own origin.");
  }
  const principal = await findSessionPrincipal(ctx, session);
  if (!principal && mode === 'user') {
    throw unauthenticated('Your session has ended. Sign in again.', {
      'set-cookie': clearedSessionCookie(ctx, request),
    });
  }
  return principal;
}

const nothingMatches = () => new AppError('not_found', 'Nothing matches that reference.');

function authorize(
  this: FastifyRequest,
  permission: Permission,
  storeId: string,
  notFound: () => AppError = nothingMatches,
): Principal {
  return authorizeAny(this, [permission], storeId, notFound);
}

const forbidden = (needed: readonly Permission[]) =>
  new AppError('forbidden', `You need the ${needed.join(' or ')} permission for this.`);

/** The caller holds one of `needed` on the store; an empty list leaves the refusal, and its reason, to the handler. */
function authorizeAny(
  request: FastifyRequest,
  needed: readonly Permission[],
  storeId: string,
  notFound: () => AppError,
): Principal {
  const principal = request.requirePrincipal();
  const held = permissionsAt(principal, storeId);
  if (!held) throw notFound();
  if (needed.length > 0 && !needed.some((permission) => held.has(permission))) throw forbidden(needed);
  return principal;
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The declared permission, checked before validation so that a caller without it learns nothing
 * of the route, not even its body's shape: on the store, claim or order the path names (another tenant's is
 * a 404, as if missing, on every route, signed-in ones too), else on at least one store. Handlers still check
 * the objects they load.
 */
async function enforceDeclaredPermission(ctx: AppContext, request: FastifyRequest): Promise<void> {
  const access = request.routeOptions.config?.permission;
  if (!access) return;
  // Signed-in routes need no permission, but a store, claim or order in their path is still the caller's own or a 404.
  const needed = access === 'signed-in' ? [] : typeof access === 'string' ? [access] : access.anyOf;
  const principal = request.requirePrincipal();
  const params = request.params as Partial<Record<string, string>>;
  if (params.storeId && UUID.test(params.storeId)) {
    authorizeAny(request, needed, params.storeId, storeNotFound);
    return;
  }
  if (params.claimId && UUID.test(params.claimId)) {
    // The handler loads this claim anyway: its stream is read once, here, and handed on (authorizedClaim).
    const read = await readStream(ctx.database.db, params.claimId);
    const storeId = read.events[0]?.storeId;
    if (!storeId) throw claimNotFound();
    authorizeAny(request, needed, storeId, claimNotFound);
    request.claimStream = { streamId: params.claimId, read };
    return;
  }
  if (params.orderId && UUID.test(params.orderId)) {
    const order = await findOrderById(ctx.database.db, params.orderId);
    if (!order) throw orderNotFound();
    authorizeAny(request, needed, order.storeId, orderNotFound);
    return;
  }
  const heldSomewhere = (permission: Permission) => {
    const stores = storesWith(principal, permission);
    return stores === 'all' || stores.length > 0;
  };
  if (needed.length > 0 && !needed.some(heldSomewhere)) throw forbidden(needed);
}

/** An authenticated route must say what it needs: a route added without it fails at start-up, not in production. */
function requireDeclaredPermission(route: RouteOptions): void {
  const config = route.config as { auth?: AuthMode; permission?: RouteAccess } | undefined;
  if (config?.auth && config.auth !== 'optional-user' && !config.permission) {
    throw new Error(`${String(route.method)} ${route.url} is authenticated but declares no config.permission`);
  }
}

function requirePrincipal(this: FastifyRequest): Principal {
  if (!this.principal) throw unauthenticated('Sign in or send an API token.');
  return this.principal;
}

/**
 * Resolves the caller once per request, before validation, for every route that declares
 * `config.auth`; routes without it (the customer portal) never look at cookies or tokens.
 */
export const authPlugin = (ctx: AppContext) => {
  const plugin = async (app: FastifyInstance) => {
    app.decorateRequest('principal', null);
    app.decorateRequest('claimStream', null);
    app.decorateRequest('authorize', authorize);
    app.decorateRequest('requirePrincipal', requirePrincipal);
    app.addHook('onRequest', async (request) => {
      const mode = request.routeOptions.config?.auth;
      if (!mode) return;
      request.principal = await authenticate(ctx, request, mode);
    });
    app.addHook('preValidation', (request) => enforceDeclaredPermission(ctx, request));
    app.addHook('onRoute', requireDeclaredPermission);
  };
  // Not encapsulated (what fastify-plugin does): the decorators and the hook reach every route.
  Object.assign(plugin, { [Symbol.for('skip-override')]: true });
  return plugin;
};
