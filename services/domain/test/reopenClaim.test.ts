import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ClaimStatus, type ClaimCommand } from '@claims/contracts';
import { claimDecider, foldEvents, REOPENABLE_STATUSES } from '../src/index.js';
import { changeStatus, claimId, filing, statusChanged } from './fixtures.js';
import { given, refused } from './support/givenWhenThen.js';

const reopen = (note: string | null = null): ClaimCommand => ({ type: 'ReopenClaim', claimId, note });

describe('ReopenClaim', () => {
  it('takes a closed claim back to OPEN as a status change, with its note', () => {
    const closed = given(claimDecider, [...filing, statusChanged('NEW', 'CLOSED')]);
    const reopened = closed.when(reopen('The parcel turned up damaged after all')).then([
      {
        type: 'ClaimStatusChanged',
        data: { claimId, from: 'CLOSED', to: 'OPEN', note: 'The parcel turned up damaged after all' },
      },
    ]);
    expect(foldEvents(claimDecider, [...filing, statusChanged('NEW', 'CLOSED'), ...reopened])?.status).toBe('OPEN');
  });

  it('is refused from every status but CLOSED, and a closed claim still cannot be reopened by an ordinary status change', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ClaimStatus.options), (status) => {
        const at = given(claimDecider, status === 'NEW' ? filing : [...filing, statusChanged('NEW', status)]);
        if (REOPENABLE_STATUSES.includes(status))
          at.when(reopen()).thenMatches([{ type: 'ClaimStatusChanged', data: { from: status, to: 'OPEN' } }]);
        else at.when(reopen()).then(refused('invalid_transition', 'only a closed claim'));
      }),
    );
    given(claimDecider, [...filing, statusChanged('NEW', 'CLOSED')])
      .when(changeStatus('OPEN'))
      .then(refused('invalid_transition'));
  });
});
