import { describe } from 'vitest';
import { readersAgreeWithTheFold } from './support/claimReaders.js';

/**
 * The model-based test across readers on PGlite (no PostgreSQL server, no broker): random stories of claims of
 * several items, each reader of their events compared with the fold of each claim's stream (support/claimReaders.ts).
 * claimReadersKafka.it.test.ts plays the same stories against PostgreSQL and Kafka.
 */
describe('every reader of a claim tells the story its stream tells (PGlite)', () => {
  readersAgreeWithTheFold('pglite', { numRuns: 10, interruptAfterTimeLimit: 45_000 });
});
