import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FinanceReplayView } from '@claims/contracts';
import { eventually } from '../../../test/support/testDatabase.js';
import { json, startHarness, type Harness } from './support/backofficeHarness.js';

/** A finance replay folds the history in the web process: one at a time per user, or a loop of them exhausts it. */

describe('finance replays of one user', () => {
  let h: Harness;
  let blocker: pg.Client;
  beforeAll(async () => {
    h = await startHarness();
    blocker = new pg.Client({ connectionString: h.runtime.ctx.config.databaseUrl });
    await blocker.connect();
  });
  afterAll(async () => {
    await blocker?.end();
    await h?.stop();
  });

  const whole = { from: '2000-01-01', to: '2100-01-01' };
  const start = (cookie: string) => h.call({ method: 'POST', url: '/api/finance/replays', cookie, body: whole });

  it('answers 409 while one of theirs runs, lets another user start theirs, and lets them start again once it is done', async () => {
    const finance = await h.login('finance');
    const admin = await h.login('admin');
    // The live payout ledger locked: each replay is held at its comparison, running, until the lock goes.
    await blocker.query('begin');
    await blocker.query('lock table payout_entries in access exclusive mode');
    let first: string;
    try {
      const answers = await Promise.all(Array.from({ length: 5 }, () => start(finance)));
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(statuses).toEqual([202, 409, 409, 409, 409]);
      const refused = answers.find((a) => a.statusCode === 409)!;
      expect(json(refused)).toMatchObject({ error: 'replay_running' });
      first = json<{ id: string }>(answers.find((a) => a.statusCode === 202)!).id;
      expect((await start(admin)).statusCode).toBe(202);
      expect((await start(finance)).statusCode).toBe(409);
    } finally {
      await blocker.query('rollback');
    }
    await eventually(
      async () => {
        const view = FinanceReplayView.parse(
          json(await h.call({ method: 'GET', url: `/api/finance/replays/${first}`, cookie: finance })),
        );
        expect(view.status).toBe('done');
      },
      30_000,
      100,
    );
    expect((await start(finance)).statusCode).toBe(202);
  });

  it('refuses candidate rules the live settings would refuse', async () => {
    const finance = await h.login('finance');
    for (const rules of [
      { credit: { bonus: 1e300 } },
      { credit: { bonusType: 'percentage', bonus: 500 } },
      { replacementCostPercent: 5_000 },
      { revShare: { merchantSharePercent: 101 } },
    ]) {
      const refused = await h.call({
        method: 'POST',
        url: '/api/finance/replays',
        cookie: finance,
        body: { ...whole, rules },
      });
      expect(refused.statusCode, JSON.stringify(rules)).toBe(400);
    }
  });
});
