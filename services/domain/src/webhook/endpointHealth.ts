import type { DomainEvent, EventOf } from '@claims/contracts';
import { ok, type Result } from '../result.js';
import type { Decider } from '../decider.js';

/** Why the product turns an endpoint off by itself: its receiver said 410 Gone, or it has failed for the whole window. */
export type EndpointDisableCause =
  { kind: 'receiver_gone' } | { kind: 'persistent_failure'; failingSince: string; windowMs: number };

export interface DisableWebhookEndpoint {
  type: 'DisableWebhookEndpoint';
  storeId: string;
  endpointId: string;
  url: string;
  cause: EndpointDisableCause;
  /** The attempt that settles it. */
  at: string;
}

/** The runs of failures already recorded as a disable, per endpoint (a run is named by its first failure). */
export interface StoreWebhooksState {
  disabledRuns: ReadonlyMap<string, string | null>;
}

/** Every attempt has failed since `failingSince`, and that is at least `windowMs` before `at`. */
export const failedForWindow = (failingSince: string, at: string, windowMs: number): boolean =>
  Date.parse(at) - Date.parse(failingSince) >= windowMs;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** The window in words, the largest whole unit first ("3 days", "90 seconds"). */
export function describeWindow(windowMs: number): string {
  const [size, unit] =
    windowMs % DAY_MS === 0
      ? [windowMs / DAY_MS, 'day']
      : windowMs % HOUR_MS === 0
        ? [windowMs / HOUR_MS, 'hour']
        : windowMs % 60_000 === 0
          ? [windowMs / 60_000, 'minute']
          : [Math.round(windowMs / 1000), 'second'];
  return `${size} ${unit}${size === 1 ? '' : 's'}`;
}

/** What the endpoint's page says about why it was turned off, and what to do. */
export function endpointDisabledMessage(cause: EndpointDisableCause): string {
  switch (cause.kind) {
    case 'receiver_gone':
      return 'The receiver answered 410 Gone; enable the endpoint again once it accepts deliveries.';
    case 'persistent_failure':
      return (
        `Every delivery attempt failed for ${describeWindow(cause.windowMs)}, so the endpoint was turned off; ` +
        'fix the receiver, then resume it: what it missed is sent then.'
      );
  }
}

const evolve = (state: StoreWebhooksState, event: DomainEvent): StoreWebhooksState => {
  if (event.type !== 'WebhookEndpointDisabled') return state;
  return { disabledRuns: new Map([...state.disabledRuns, [event.data.endpointId, event.data.failingSince]]) };
};

/**
 * A store's webhook endpoints turned off by the product: an endpoint whose attempts have all failed for
 * the window is disabled once per run of failures (a later run, after a success or a resume, counts anew);
 * a 410 disables at once. Too early is no decision at all, not a refusal: the worker simply asks again.
 */
export const storeWebhooksDecider: Decider<StoreWebhooksState, DisableWebhookEndpoint> = {
  initialState: { disabledRuns: new Map() },
  evolve,
  decide(command, state): Result<DomainEvent[]> {
    const { cause } = command;
    const failingSince = cause.kind === 'persistent_failure' ? cause.failingSince : null;
    if (cause.kind === 'persistent_failure') {
      if (!failedForWindow(cause.failingSince, command.at, cause.windowMs)) return ok([]);
      if (state.disabledRuns.get(command.endpointId) === failingSince) return ok([]);
    }
    const event: EventOf<'WebhookEndpointDisabled'> = {
      type: 'WebhookEndpointDisabled',
      data: {
        storeId: command.storeId,
        endpointId: command.endpointId,
        url: command.url,
        reason: cause.kind,
        failingSince,
        message: endpointDisabledMessage(cause),
        disabledAt: command.at,
      },
    };
    return ok([event]);
  },
};
