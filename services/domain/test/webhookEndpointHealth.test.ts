import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { describeWindow, failedForWindow, storeWebhooksDecider, type DisableWebhookEndpoint } from '../src/index.js';
import { given } from './support/givenWhenThen.js';

const storeId = 'b1111111-1111-4111-8111-111111111111';
const endpointId = 'e1111111-1111-4111-8111-111111111111';
const url = 'https://hooks.example.com/in';
const DAY = 86_400_000;
const since = '2030-01-01T00:00:00.000Z';
const after = (ms: number) => new Date(Date.parse(since) + ms).toISOString();

const failing = (at: string, failingSince = since, windowMs = 3 * DAY): DisableWebhookEndpoint => ({
  type: 'DisableWebhookEndpoint',
  storeId,
  endpointId,
  url,
  cause: { kind: 'persistent_failure', failingSince, windowMs },
  at,
});

describe('turning a failing webhook endpoint off', () => {
  it('disables an endpoint once every attempt has failed for the whole window, not a moment sooner', () => {
    given(storeWebhooksDecider)
      .when(failing(after(3 * DAY - 1)))
      .then([]);
    given(storeWebhooksDecider)
      .when(failing(after(3 * DAY)))
      .then([
        {
          type: 'WebhookEndpointDisabled',
          data: {
            storeId,
            endpointId,
            url,
            reason: 'persistent_failure',
            failingSince: since,
            disabledAt: after(3 * DAY),
            message:
              'Every delivery attempt failed for 3 days, so the endpoint was turned off; fix the receiver, then resume it: what it missed is sent then.',
          },
        },
      ]);
  });

  it('records one disable per run of failures; a new run (after a success or a resume) counts anew', () => {
    const [first] = given(storeWebhooksDecider)
      .when(failing(after(3 * DAY)))
      .thenMatches([{ type: 'WebhookEndpointDisabled' }]);
    given(storeWebhooksDecider, [first!])
      .when(failing(after(4 * DAY)))
      .then([]);
    const laterRun = after(5 * DAY);
    given(storeWebhooksDecider, [first!])
      .when(failing(after(8 * DAY), laterRun))
      .thenMatches([{ type: 'WebhookEndpointDisabled', data: { failingSince: laterRun } }]);
  });

  it('disables at once when the receiver answers 410 Gone', () => {
    given(storeWebhooksDecider)
      .when({ type: 'DisableWebhookEndpoint', storeId, endpointId, url, cause: { kind: 'receiver_gone' }, at: since })
      .thenMatches([
        {
          type: 'WebhookEndpointDisabled',
          data: { reason: 'receiver_gone', failingSince: null, message: expect.stringContaining('410') },
        },
      ]);
  });

  it('decides exactly when the failing run has lasted the window (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 * DAY }), fc.integer({ min: 0, max: 60 * DAY }), (windowMs, elapsed) => {
        const result = storeWebhooksDecider.decide(
          failing(after(elapsed), since, windowMs),
          storeWebhooksDecider.initialState,
        );
        expect(result.ok && result.value.length === 1).toBe(elapsed >= windowMs);
        expect(failedForWindow(since, after(elapsed), windowMs)).toBe(elapsed >= windowMs);
      }),
    );
  });

  it('names the window in its largest whole unit', () => {
    expect([3 * DAY, DAY, 2 * 3_600_000, 90_000, 5_000, 1_000].map(describeWindow)).toEqual([
      '3 days',
      '1 day',
      '2 hours',
      '90 seconds',
      '5 seconds',
      '1 second',
    ]);
  });
});
