import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiError, LoginRequest, MeResponse } from '@claims/contracts';
import type { AppContext } from '../context.js';
import { AppError } from '../platform/errors.js';
import { originMatches } from '../http/origin.js';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from './passwords.js';
import { clientOf, countAttempt, forgetAttempt, tooManyAttempts } from './loginThrottle.js';
import {
  clearedSessionCookie,
  createSession,
  deleteSession,
  findSessionPrincipal,
  sessionCookie,
} from './loginSessions.js';
import { describeUser, findUserByEmail, rehashPassword } from './users.js';

/** Each failure answers a little later than the one before (100 ms, 200 ms, … up to 1.6 s). */
const failureDelayMs = (failures: number) => Math.min(1_600, 100 * 2 ** Math.max(0, failures - 1));

const tooMany = (until: string, now: string) => tooManyAttempts('failed sign-ins', until, now);

export const authRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const unknownUserHash = dummyHash(ctx.config.passwordCost);
    app.post(
      '/api/auth/login',
      {
        schema: {
          tags: ['back-office'],
          summary: 'Sign in with email and password; sets the HttpOnly session cookie',
          body: LoginRequest,
          response: { 200: MeResponse, 400: ApiError, 401: ApiError, 403: ApiError, 429: ApiError },
        },
      },
      async (request, reply) => {
        // Login CSRF: a browser always sends Origin on a POST; another site's form may not sign us in.
        if (request.headers.origin !== undefined && !originMatches(request)) {
          throw new AppError('origin_mismatch', "Sign in from the back-office's own pages.");
        }
        const emailLower = request.body.email.trim().toLowerCase();
        const client = clientOf(request);
        const attempt = await countAttempt(ctx, emailLower, client);
        if (attempt.refusedUntil) throw tooMany(attempt.refusedUntil, ctx.now());
        const user = await findUserByEmail(ctx, emailLower);
        const matches = await verifyPassword(request.body.password, user?.password_hash ?? unknownUserHash);
        if (!user || !matches) {
          request.log.info({ attempts: attempt.pairAttempts }, 'sign-in failed');
          await sleep(failureDelayMs(attempt.pairAttempts));
          if (attempt.lastUntil) throw tooMany(attempt.lastUntil, ctx.now());
          throw new AppError('unauthenticated', 'The email or password is not right.');
        }
        await forgetAttempt(ctx, emailLower, client);
        if (needsRehash(user.password_hash, ctx.config.passwordCost)) {
          await rehashPassword(
            ctx.database.db,
            user.id,
            user.password_hash,
            await hashPassword(request.body.password, ctx.config.passwordCost),
          );
        }
        const token = await createSession(ctx, user.id, request.headers['user-agent']);
        const principal = await findSessionPrincipal(ctx, token);
        request.log.info({ userId: user.id }, 'signed in');
        return reply
          .header('set-cookie', sessionCookie(ctx, request, token))
          .header('cache-control', 'no-store')
          .send(await describeUser(ctx, principal!));
      },
    );

    app.post(
      '/api/auth/logout',
      {
        config: { auth: 'optional-user' },
        schema: {
          tags: ['back-office'],
          summary: 'Sign out: ends the session and clears the cookie',
          response: { 204: z.null(), 403: ApiError },
        },
      },
      async (request, reply) => {
        const principal = request.principal;
        if (principal?.kind === 'user') await deleteSession(ctx, principal.sessionHash);
        return reply.code(204).header('set-cookie', clearedSessionCookie(ctx, request)).send(null);
      },
    );

    app.get(
      '/api/auth/me',
      {
        config: { auth: 'user', permission: 'signed-in' },
        schema: {
          tags: ['back-office'],
          summary: 'The signed-in user, their roles, permissions and stores',
          response: { 200: MeResponse, 401: ApiError },
        },
      },
      async (request, reply) => {
        const principal = request.requirePrincipal();
        if (principal.kind !== 'user') throw new AppError('unauthenticated', 'Sign in to use the back-office.');
        return reply.header('cache-control', 'no-store').send(await describeUser(ctx, principal));
      },
    );
  };
