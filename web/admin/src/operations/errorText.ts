import { isHttpError } from '../shared/api.js';

/** A failed operations call in its own words: the staff reading it are the ones who fix the fault. */
export const operationsErrorText = (error: unknown) =>
  isHttpError(error) || error instanceof Error ? error.message : 'Something went wrong. Try again.';
