import { describe } from 'vitest';
import { readersAgreeWithTheFold } from './support/claimReaders.js';

/**
 * The model-based test across readers (support/claimReaders.ts) once against PostgreSQL and Kafka: the events reach
 * the projectors through the broker, the reactions from the store, so every reader is fed the way production feeds it.
 */
describe('every reader of a claim tells the story its stream tells (PostgreSQL and Kafka)', () => {
  readersAgreeWithTheFold('postgres+kafka', { numRuns: 5, interruptAfterTimeLimit: 90_000 });
});
