import { SLA_DEFAULTS, type ClaimStatus, type ResolutionReason, type SlaSettings } from '@claims/contracts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A store's SLA settings with the defaults filled in. */
export function slaSettingsOf(settings: SlaSettings | undefined): Required<SlaSettings> {
  return {
    enabled: settings?.enabled ?? SLA_DEFAULTS.enabled,
    waitingForCustomerDays: settings?.waitingForCustomerDays ?? SLA_DEFAULTS.waitingForCustomerDays,
    waitingForBrandHours: settings?.waitingForBrandHours ?? SLA_DEFAULTS.waitingForBrandHours,
  };
}

/** The statuses a timer watches. */
export const SLA_WATCHED_STATUSES: readonly ClaimStatus[] = ['WAITING_FOR_CUSTOMER', 'WAITING_FOR_BRAND'];

/**
 * The events that count as activity on a claim for its timers: filing, a status change, a resolution
 * and a message (what moves the claim list's `updated_at`). Internal notes, labels and metadata do not
 * restart a timer: they are the store's bookkeeping, not an answer from the party being waited on.
 */
export const SLA_ACTIVITY_EVENTS: ReadonlySet<string> = new Set([
  'ClaimFiled',
  'ClaimStatusChanged',
  'ClaimResolved',
  'ClaimMessageSent',
]);

/** When the claim last saw activity, from its events in stream order (null for none). */
export function lastActivityAt(events: ReadonlyArray<{ type: string; occurredAt: string }>): string | null {
  for (let i = events.length - 1; i >= 0; i--)
    if (SLA_ACTIVITY_EVENTS.has(events[i]!.type)) return events[i]!.occurredAt;
  return null;
}

/** Per watched status, the last activity time before which a claim of a store with these settings is due at `now`. */
export function slaCutoffs(
  settings: SlaSettings | undefined,
  now: string,
): Array<{ status: ClaimStatus; before: string }> {
  const sla = slaSettingsOf(settings);
  if (!sla.enabled) return [];
  const at = Date.parse(now);
  return [
    { status: 'WAITING_FOR_CUSTOMER', before: new Date(at - sla.waitingForCustomerDays * DAY).toISOString() },
    { status: 'WAITING_FOR_BRAND', before: new Date(at - sla.waitingForBrandHours * HOUR).toISOString() },
  ];
}

export interface SlaAction {
  to: ClaimStatus;
  reason: ResolutionReason | null;
  note: string;
  /** The moment the timer ran out. */
  dueAt: string;
}

/**
 * What a timer does to one claim at `now`, or null when nothing is due: WAITING_FOR_CUSTOMER with no
 * activity for `waitingForCustomerDays` closes with NO_RESPONSE; WAITING_FOR_BRAND with none for
 * `waitingForBrandHours` goes to WAITING_FOR_OP. Due at exactly the deadline, never before.
 */
export function slaActionFor(
  claim: { status: ClaimStatus; lastActivityAt: string },
  settings: SlaSettings | undefined,
  now: string,
): SlaAction | null {
  const sla = slaSettingsOf(settings);
  if (!sla.enabled) return null;
  const since = Date.parse(claim.lastActivityAt);
  if (Number.isNaN(since)) return null;
  const at = Date.parse(now);
  switch (claim.status) {
    case 'WAITING_FOR_CUSTOMER': {
      const dueAt = since + sla.waitingForCustomerDays * DAY;
      if (at < dueAt) return null;
      return {
        to: 'CLOSED',
        reason: 'NO_RESPONSE',
        dueAt: new Date(dueAt).toISOString(),
        note: `Closed automatically: no response from the customer in ${sla.waitingForCustomerDays} day${sla.waitingForCustomerDays === 1 ? '' : 's'}.`,
      };
    }
    case 'WAITING_FOR_BRAND': {
      const dueAt = since + sla.waitingForBrandHours * HOUR;
      if (at < dueAt) return null;
      return {
        to: 'WAITING_FOR_OP',
        reason: null,
        dueAt: new Date(dueAt).toISOString(),
        note: `Moved automatically: no answer from the brand in ${sla.waitingForBrandHours} hour${sla.waitingForBrandHours === 1 ? '' : 's'}.`,
      };
    }
    default:
      return null;
  }
}
