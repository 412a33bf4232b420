import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReadersWorld, runStory, type ReadersWorld } from './support/claimReaders.js';
import { story } from './support/claimStories.js';

/**
 * The model-based test across readers (support/claimReaders.ts) once against PostgreSQL and Kafka: the events reach
 * the projectors through the broker, the reactions from the store, so every reader is fed the way production feeds it.
 */
describe('every reader of a claim tells the story its stream tells (PostgreSQL and Kafka)', () => {
  let world: ReadersWorld;
  beforeAll(async () => {
    world = await startReadersWorld('postgres+kafka');
  });
  afterAll(async () => {
    await world?.stop();
  });

  it('agrees with the fold after any sequence of filings, decisions, reversals, reopenings, messages, status changes and returns', async () => {
    await fc.assert(
      fc.asyncProperty(story, async (s) => {
        expect(await runStory(world, s)).toEqual([]);
      }),
      { numRuns: 5, interruptAfterTimeLimit: 90_000 },
    );
  });
});
