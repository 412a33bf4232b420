import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApiTokenList,
  CreateApiTokenRequest,
  CreateApiTokenResponse,
  DEFAULT_API_TOKEN_LIFETIME_DAYS,
  MAX_API_TOKEN_LIFETIME_DAYS,
  StoreParams,
} from '@claims/contracts';
import type { AppContext } from '../context.js';
import { AppError } from '../platform/errors.js';
import { permissionsAt } from '../http/principal.js';
import { createApiToken, listApiTokens, revokeApiToken } from './apiTokens.js';
import { errorResponses } from '../http/errorResponses.js';

const TokenParams = StoreParams.extend({ tokenId: z.string().min(1).max(100) });
const errors = errorResponses(400, 401, 403, 404);
const DAY_MS = 86_400_000;
const storeNotFound = () => new AppError('not_found', 'No store matches that reference.');

/** API tokens are managed in the back-office by signed-in users; a token never mints tokens. */
export const apiTokenRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/stores/:storeId/api-tokens',
      {
        config: { auth: 'user', permission: 'api-tokens:create' },
        schema: {
          tags: ['back-office'],
          summary: `Create an API token for one store; the token is in this answer only; it expires at expiresAt, by default ${DEFAULT_API_TOKEN_LIFETIME_DAYS} days on`,
          params: StoreParams,
          body: CreateApiTokenRequest,
          response: { 201: CreateApiTokenResponse, ...errors },
        },
      },
      async (request, reply) => {
        const { storeId } = request.params;
        const principal = request.authorize('api-tokens:create', storeId, storeNotFound);
        if (principal.kind !== 'user') throw new AppError('forbidden', 'API tokens are created by signed-in users.');
        const held = permissionsAt(principal, storeId) ?? new Set<string>();
        const wider = request.body.permissions.filter((p) => !held.has(p));
        if (wider.length > 0) {
          throw new AppError(
            'forbidden',
            `A token cannot have permissions you do not hold on this store: ${wider.join(', ')}.`,
            wider.map((p) => ({ path: 'body.permissions', message: `${p} is not yours to give` })),
          );
        }
        const now = Date.parse(ctx.now());
        const expiresAt =
          request.body.expiresAt ?? new Date(now + DEFAULT_API_TOKEN_LIFETIME_DAYS * DAY_MS).toISOString();
        if (Date.parse(expiresAt) <= now || Date.parse(expiresAt) > now + MAX_API_TOKEN_LIFETIME_DAYS * DAY_MS) {
          throw new AppError(
            'validation_failed',
            `A token expires in the future and at most ${MAX_API_TOKEN_LIFETIME_DAYS} days ahead.`,
            [{ path: 'body.expiresAt', message: 'must be in the future and within the maximum lifetime' }],
          );
        }
        const { token, summary } = await createApiToken(ctx, {
          storeId,
          name: request.body.name,
          permissions: request.body.permissions,
          createdBy: principal.user.id,
          expiresAt,
        });
        request.log.info({ tokenId: summary.id, storeId }, 'api token created');
        return reply
          .code(201)
          .header('cache-control', 'no-store')
          .send({ ...summary, token });
      },
    );

    app.get(
      '/api/stores/:storeId/api-tokens',
      {
        config: { auth: 'user', permission: 'api-tokens:read' },
        schema: {
          tags: ['back-office'],
          summary: "The store's API tokens (never the tokens themselves)",
          params: StoreParams,
          response: { 200: ApiTokenList, ...errors },
        },
      },
      async (request) => {
        request.authorize('api-tokens:read', request.params.storeId, storeNotFound);
        return { data: await listApiTokens(ctx.database.db, request.params.storeId) };
      },
    );

    app.delete(
      '/api/stores/:storeId/api-tokens/:tokenId',
      {
        config: { auth: 'user', permission: 'api-tokens:delete' },
        schema: {
          tags: ['back-office'],
          summary: 'Revoke an API token; it answers 401 from then on',
          params: TokenParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        request.authorize('api-tokens:delete', request.params.storeId, storeNotFound);
        const revoked = await revokeApiToken(ctx, request.params.storeId, request.params.tokenId);
        if (!revoked) throw new AppError('not_found', 'No API token of this store matches that reference.');
        request.log.info({ tokenId: request.params.tokenId }, 'api token revoked');
        return reply.code(204).send(null);
      },
    );
  };
