import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { deleteExpiredPendingGrants } from '../team/index.js';
import { deleteExpiredAttempts } from './loginThrottle.js';
import { deleteExpiredSessions } from './loginSessions.js';
import { deleteEndedWindows } from '../platform/rateWindows.js';

/** Hourly: what can no longer be used is deleted, so the tables stay the size of what is live. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Deletes expired sign-in counters, sessions, membership offers and rate windows; safe from any number of processes. */
export async function sweepExpired(
  ctx: AppContext,
): Promise<{ attempts: number; sessions: number; offers: number; windows: number }> {
  const attempts = await deleteExpiredAttempts(ctx);
  const sessions = await deleteExpiredSessions(ctx);
  const offers = await deleteExpiredPendingGrants(ctx.database.db, ctx.now());
  const windows = await deleteEndedWindows(ctx.database.db, ctx.now());
  return { attempts, sessions, offers, windows };
}

/** Runs the sweep once when the app is ready and then every hour until it closes. */
export const expirySweepPlugin = (ctx: AppContext) => {
  const plugin = async (app: FastifyInstance) => {
    let timer: NodeJS.Timeout | null = null;
    let running: Promise<void> = Promise.resolve();
    const run = () => {
      running = sweepExpired(ctx).then(
        (swept) => ctx.log.debug(swept, 'expired sign-in state swept'),
        (error: unknown) =>
          ctx.log.warn({ err: error }, 'sweeping expired sign-in state failed; retried within the hour'),
      );
    };
    app.addHook('onReady', async () => {
      run();
      timer = setInterval(run, SWEEP_EVERY_MS);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      if (timer) clearInterval(timer);
      // The database closes after the app: let a sweep under way finish first.
      await running;
    });
  };
  return plugin;
};
