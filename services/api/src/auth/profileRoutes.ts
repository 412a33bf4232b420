import { z } from 'zod';
import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ChangePasswordRequest, MeResponse, UpdateProfileRequest } from '@claims/contracts';
import type { AppContext } from '../context.js';
import { AppError } from '../platform/errors.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { clientOf, countAttempt, forgetAttempt, tooManyAttempts } from './loginThrottle.js';
import { storesWith, type Principal, type UserPrincipal } from '../http/principal.js';
import { describeUser, setPassword } from './users.js';
import { errorResponses } from '../http/errorResponses.js';

const errors = errorResponses(400, 401, 403, 429);

function signedInUser(principal: Principal): UserPrincipal {
  if (principal.kind !== 'user') throw new AppError('forbidden', 'Only a signed-in user has a profile.');
  return principal;
}

/**
 * The signed-in user's own profile and password. The name needs `user:update` (docs/product.md#roles-and-permissions); the password
 * needs only the current one, so every user can replace a credential they fear is known (decision).
 */
export const profileRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.put(
      '/api/auth/profile',
      {
        config: { auth: 'user', permission: 'user:update' },
        schema: {
          tags: ['back-office'],
          summary: 'Change your own name (user:update)',
          body: UpdateProfileRequest,
          response: { 200: MeResponse, ...errors },
        },
      },
      async (request) => {
        const principal = signedInUser(request.requirePrincipal());
        const reach = storesWith(principal, 'user:update');
        if (reach !== 'all' && reach.length === 0)
          throw new AppError('forbidden', 'You need the user:update permission to change your profile.');
        await sql`update users set name = ${request.body.name} where id = ${principal.user.id}::uuid`.execute(
          ctx.database.db,
        );
        request.log.info({ userId: principal.user.id }, 'profile changed');
        return describeUser(ctx, { ...principal, user: { ...principal.user, name: request.body.name } });
      },
    );

    app.post(
      '/api/auth/password',
      {
        config: { auth: 'user', permission: 'signed-in' },
        schema: {
          tags: ['back-office'],
          summary: 'Change your own password: the current one is asked; your other sessions end',
          body: ChangePasswordRequest,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const principal = signedInUser(request.requirePrincipal());
        // A wrong current password is a failed sign-in: the same counters, so a stolen session is no guessing oracle.
        const emailLower = principal.user.email.toLowerCase();
        const client = clientOf(request);
        const attempt = await countAttempt(ctx, emailLower, client);
        if (attempt.refusedUntil) throw tooManyAttempts('failed password checks', attempt.refusedUntil, ctx.now());
        const { rows } = await sql<{
          password_hash: string;
        }>`select password_hash from users where id = ${principal.user.id}::uuid`.execute(ctx.database.db);
        if (!rows[0] || !(await verifyPassword(request.body.currentPassword, rows[0].password_hash))) {
          if (attempt.lastUntil) throw tooManyAttempts('failed password checks', attempt.lastUntil, ctx.now());
          throw new AppError('validation_failed', 'The current password is not right.', [
            { path: 'currentPassword', message: 'The current password is not right.' },
          ]);
        }
        await forgetAttempt(ctx, emailLower, client);
        const hash = await hashPassword(request.body.newPassword, ctx.config.passwordCost);
        await ctx.database.db.transaction().execute(async (trx) => {
          await setPassword(trx, principal.user.id, hash, null);
          // Whoever else knew the old password is signed out everywhere but here.
          await sql`delete from auth_sessions where user_id = ${principal.user.id}::uuid and token_hash <> ${principal.sessionHash}`.execute(
            trx,
          );
        });
        request.log.info({ userId: principal.user.id }, 'password changed');
        return reply.code(204).send(null);
      },
    );
  };
