import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReadersWorld, runStory, type ReadersWorld } from './support/claimReaders.js';
import { story } from './support/claimStories.js';

/**
 * The model-based test across readers on PGlite (no PostgreSQL server, no broker): random stories of claims of
 * several items, each reader of their events compared with the fold of each claim's stream (support/claimReaders.ts).
 * claimReadersKafka.it.test.ts plays the same stories against PostgreSQL and Kafka.
 */
describe('every reader of a claim tells the story its stream tells (PGlite)', () => {
  let world: ReadersWorld;
  beforeAll(async () => {
    world = await startReadersWorld('pglite');
  });
  afterAll(async () => {
    await world?.stop();
  });

  it('agrees with the fold after any sequence of filings, decisions, reversals, reopenings, messages, status changes and returns', async () => {
    await fc.assert(
      fc.asyncProperty(story, async (s) => {
        expect(await runStory(world, s)).toEqual([]);
      }),
      { numRuns: 10, interruptAfterTimeLimit: 45_000 },
    );
  });
});
