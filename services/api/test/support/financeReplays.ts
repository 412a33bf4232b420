import { expect } from 'vitest';
import { FinanceReplayView } from '@claims/contracts';
import { eventually } from '../../../../test/support/testDatabase.js';
import { json, type Harness } from './backofficeHarness.js';

/** Starts a finance replay of `body` as the holder of `cookie`, and answers it once it has finished. */
export async function finishedReplay(h: Harness, cookie: string, body: object): Promise<FinanceReplayView> {
  const started = await h.call({ method: 'POST', url: '/api/finance/replays', cookie, body });
  expect(started.statusCode, started.body).toBe(202);
  const { id } = json<{ id: string }>(started);
  return eventually(async () => {
    const view = FinanceReplayView.parse(
      json(await h.call({ method: 'GET', url: `/api/finance/replays/${id}`, cookie })),
    );
    expect(view.status).not.toBe('running');
    return view;
  }, 60_000);
}
