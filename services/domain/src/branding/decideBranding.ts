import {
  BrandingInput,
  WCAG_AA_TEXT_CONTRAST,
  type Actor,
  type Branding,
  type BrandingCommand,
  type BrandingHistoryEntry,
  type DomainEvent,
} from '@claims/contracts';
import type { Decider } from '../decider.js';
import { fail, ok, type Result } from '../result.js';
import { sameJson } from '../sameJson.js';
import { settingsLeaves } from '../store-settings/settingsHistory.js';
import { contrastFailures } from './contrast.js';

/** A store's branding stream (`store-branding:{storeId}`) folded: null until its first version. */
export interface BrandingState {
  storeId: string;
  /** Null until the stream records a branding change (the catalog's seeded branding stands till then). */
  branding: Branding | null;
  /** Undefined until the stream records a domain (the catalog's seeded domain stands till then). */
  domain: string | null | undefined;
  /** White-label restarts so far: the portal's cache key for the branding. */
  revision: number;
  version: number;
  at: string;
}

const started = (storeId: string, at: string): BrandingState => ({
  storeId,
  branding: null,
  domain: undefined,
  revision: 0,
  version: 0,
  at,
});

export function evolveBranding(state: BrandingState | null, event: DomainEvent): BrandingState | null {
  switch (event.type) {
    case 'StoreBrandingChanged': {
      const base = state ?? started(event.data.storeId, event.data.changedAt);
      return { ...base, branding: event.data.branding, version: base.version + 1, at: event.data.changedAt };
    }
    case 'StorePortalDomainSet': {
      const base = state ?? started(event.data.storeId, event.data.setAt);
      return { ...base, domain: event.data.domain, version: base.version + 1, at: event.data.setAt };
    }
    case 'WhitelabelRestarted': {
      const base = state ?? started(event.data.storeId, event.data.restartedAt);
      return {
        ...base,
        domain: event.data.domain,
        revision: base.revision + 1,
        version: base.version + 1,
        at: event.data.restartedAt,
      };
    }
    default:
      return state;
  }
}

/** The later of two ISO times: a clock behind the last version's does not date a change before it. */
const notBefore = (now: string, state: BrandingState | null) =>
  state && Date.parse(now) < Date.parse(state.at) ? state.at : now;

const issuesOf = (error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }) =>
  error.issues.map((issue) => `${issue.path.map(String).join('.') || 'branding'}: ${issue.message}`).join(' ');

/**
 * Branding changes are checked field by field and against WCAG AA for every text colour pair of the
 * portal: a pair below 4.5:1 refuses the whole change (`insufficient_contrast`), nothing recorded.
 */
export function decideBranding(command: BrandingCommand, state: BrandingState | null): Result<DomainEvent[]> {
  switch (command.type) {
    case 'ChangeBranding': {
      const parsed = BrandingInput.safeParse(command.branding);
      if (!parsed.success) return fail('validation_failed', issuesOf(parsed.error));
      const failures = contrastFailures(parsed.data);
      if (failures.length > 0) {
        return fail(
          'insufficient_contrast',
          `These colours are below WCAG AA contrast (${WCAG_AA_TEXT_CONTRAST}:1 for text): ${failures.join('; ')}.`,
        );
      }
      const previous = state?.branding ?? command.baseline;
      if (sameJson(previous, parsed.data)) return ok([]);
      return ok([
        {
          type: 'StoreBrandingChanged',
          data: { storeId: command.storeId, branding: parsed.data, previous, changedAt: notBefore(command.now, state) },
        },
      ]);
    }
    case 'SetPortalDomain': {
      const previous = state?.domain === undefined ? command.baseline : state.domain;
      if (previous === command.domain) return ok([]);
      return ok([
        {
          type: 'StorePortalDomainSet',
          data: { storeId: command.storeId, domain: command.domain, previous, setAt: notBefore(command.now, state) },
        },
      ]);
    }
    case 'RestartWhitelabel':
      return ok([
        {
          type: 'WhitelabelRestarted',
          data: { storeId: command.storeId, domain: command.domain, restartedAt: notBefore(command.now, state) },
        },
      ]);
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
}

export const brandingDecider: Decider<BrandingState | null, BrandingCommand> = {
  initialState: null,
  evolve: evolveBranding,
  decide: decideBranding,
};

/** Which fields a branding change moved, for people: "brand700 #1f4e79 → #0b3d91, buttonStyle (unset) → SQUARE". */
function movedFields(previous: Branding, next: Branding): string {
  const before = new Map(settingsLeaves(previous));
  const after = new Map(settingsLeaves(next));
  const fields = [...new Set([...before.keys(), ...after.keys()])].filter(
    (field) => before.get(field) !== after.get(field),
  );
  const show = (value: unknown) => (value === undefined || value === null ? '(unset)' : String(value));
  return (
    fields.map((field) => `${field} ${show(before.get(field))} → ${show(after.get(field))}`).join(', ') || 'no field'
  );
}

/** Each version of the stream, oldest first: what kind, when, by whom and what moved. */
export function brandingHistory(
  records: ReadonlyArray<{ version: number; event: DomainEvent; actor: Actor }>,
): BrandingHistoryEntry[] {
  return records.flatMap(({ version, event, actor }): BrandingHistoryEntry[] => {
    switch (event.type) {
      case 'StoreBrandingChanged':
        return [
          {
            version,
            kind: 'branding',
            at: event.data.changedAt,
            actor,
            summary: movedFields(event.data.previous, event.data.branding),
          },
        ];
      case 'StorePortalDomainSet':
        return [
          {
            version,
            kind: 'domain',
            at: event.data.setAt,
            actor,
            summary: event.data.domain ? `Custom domain ${event.data.domain}` : 'Custom domain removed',
          },
        ];
      case 'WhitelabelRestarted':
        return [{ version, kind: 'restart', at: event.data.restartedAt, actor, summary: 'White label restarted' }];
      default:
        return [];
    }
  });
}
