import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../src/platform/databaseUnavailable.js';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a connection exception (class 08)', withCode('08006')],
    ['an administrator shutdown', withCode('57P01', 'terminating connection due to administrator command')],
    ['a crash shutdown', withCode('57P02')],
    ['a server still starting', withCode('57P03', 'the database system is starting up')],
    ['too many connections', withCode('53300')],
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a reset connection', withCode('ECONNRESET')],
    ['a broken pipe', withCode('EPIPE')],
    ['a connect timeout', withCode('ETIMEDOUT')],
    ['pg losing its connection', new Error('Connection terminated unexpectedly')],
    ['pg-pool timing out', new Error('timeout exceeded when trying to connect')],
    ['a closed PGlite', new Error('PGlite is closed')],
    ['a refused dual-stack connect', new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], '')],
    ['a wrapped refusal', new Error('query failed', { cause: withCode('ECONNREFUSED') })],
  ])('is true for %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505')],
    ['a syntax error', withCode('42601')],
    ['a statement timeout', withCode('57014', 'canceling statement due to statement timeout')],
    ['a serialization failure', withCode('40001')],
    ['a defect', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a non-error', 'Connection terminated'],
    ['nothing', undefined],
  ])('is false for %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
