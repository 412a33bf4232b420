import type { Kysely } from 'kysely';
import { loadCheckpoint } from './checkpoints.js';
import type { PollingLoop } from './pollingLoop.js';
import { hasReached, lastCommittedPosition } from './readAll.js';
import type { EventStoreTables } from './tables.js';

/** When a reader's catching up stops short of the head, waits longer, and how long it pauses between runs. */
export interface CatchUpRules {
  /** Stop waiting: the reader is stopping, or failing and retrying on its own schedule. */
  givenUp(): boolean;
  /** Keep waiting even at the head: a batch still waits for its retry. */
  pending?(): boolean;
  pauseMs(): number;
}

/**
 * Runs a reader's loop until its checkpoint has reached every event committed before the call. One run is not enough:
 * readAll's horizon trails a transaction still open elsewhere, so what it cannot read yet comes in a later run.
 */
export async function catchUpCheckpoint(
  db: Kysely<EventStoreTables>,
  loop: PollingLoop,
  checkpoint: string,
  rules: CatchUpRules,
): Promise<void> {
  const target = await lastCommittedPosition(db);
  await loop.runNow();
  while (!rules.givenUp() && (rules.pending?.() || !hasReached(await loadCheckpoint(db, checkpoint), target))) {
    await new Promise((resolve) => setTimeout(resolve, rules.pauseMs()));
    await loop.runNow();
  }
}
