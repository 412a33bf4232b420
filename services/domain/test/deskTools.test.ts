import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ClaimStatus, MACRO_PLACEHOLDERS, MacroInput, PLACEHOLDER_PATTERN, unknownPlaceholders, SLA_DEFAULTS,
  type Claim, type ClaimCommand, type DomainEvent, type MacroPlaceholder, type Permission, type SlaSettings,
} from '@claims/contracts';
import {
  canMove, statusChangeTargets, checkTeamChange, decideClaim, decideFileClaim, decideMacro, decideSop, evolveClaim, evolveMacro, evolveSop, lastActivityAt,
  macroValuesFor, renderMacro, slaActionFor, slaSettingsOf, SOP_TRANSITIONS, STATUS_TRANSITIONS, type MacroState, type SopAggregate,
} from '../src/index.js';
import { emptyLedger, fileClaim, NOW, order, settings } from './fixtures.js';

const actor = { type: 'user' as const, id: 'u-1', name: 'Riley Agent' };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function filedClaim(): Claim {
  const result = decideFileClaim(fileClaim(), { order, settings, orderClaims: emptyLedger() });
  if (!result.ok) throw new Error(result.error.message);
  return evolveClaim(null, result.value[1]!)!;
}
const given = (claim: Claim, ...events: DomainEvent[]) => events.reduce<Claim | null>(evolveClaim, claim)!;
const decided = (command: ClaimCommand, claim: Claim) => {
  const result = decideClaim(command, claim);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};

describe('notes, labels and metadata in the claim stream', () => {
  it('given a claim, when a note is added, then it is recorded without HTML and counted', () => {
    const claim = filedClaim();
    const events = decided({ type: 'AddClaimNote', claimId: claim.id, noteId: '71111111-1111-4111-8111-111111111111', actor, body: '<b>Called</b> the carrier', now: NOW }, claim);
    expect(events).toEqual([{ type: 'ClaimNoteAdded', data: {
      claimId: claim.id, noteId: '71111111-1111-4111-8111-111111111111', body: 'Called the carrier', author: { type: 'user', id: 'u-1', name: 'Riley Agent' }, createdAt: NOW,
    } }]);
    expect(given(claim, ...events).noteCount).toBe(1);
    const empty = decideClaim({ type: 'AddClaimNote', claimId: claim.id, noteId: '71111111-1111-4111-8111-111111111111', actor, body: '<p></p>', now: NOW }, claim);
    expect(empty.ok || empty.error.code).toBe('validation_failed');
  });

  it('adds a label once, removes it, and treats repeats as no change', () => {
    const claim = filedClaim();
    const added = given(claim, ...decided({ type: 'AddClaimLabel', claimId: claim.id, label: 'vip' }, claim));
    expect(added.labels).toEqual(['vip']);
    expect(decided({ type: 'AddClaimLabel', claimId: claim.id, label: 'vip' }, added)).toEqual([]);
    const removed = given(added, ...decided({ type: 'RemoveClaimLabel', claimId: claim.id, label: 'vip' }, added));
    expect(removed.labels).toEqual([]);
    expect(decided({ type: 'RemoveClaimLabel', claimId: claim.id, label: 'vip' }, removed)).toEqual([]);
  });

  it('sets metadata with the previous value, and setting the same value changes nothing', () => {
    const claim = filedClaim();
    const first = decided({ type: 'SetClaimMetadata', claimId: claim.id, key: 'carrier.ticket', value: 'T-1' }, claim);
    expect(first).toEqual([{ type: 'ClaimMetadataSet', data: { claimId: claim.id, key: 'carrier.ticket', value: 'T-1', previous: null } }]);
    const once = given(claim, ...first);
    expect(decided({ type: 'SetClaimMetadata', claimId: claim.id, key: 'carrier.ticket', value: 'T-1' }, once)).toEqual([]);
    const second = decided({ type: 'SetClaimMetadata', claimId: claim.id, key: 'carrier.ticket', value: 'T-2' }, once);
    expect(second[0]).toMatchObject({ data: { value: 'T-2', previous: 'T-1' } });
    // A key that names an Object.prototype member is a plain new key.
    expect(decided({ type: 'SetClaimMetadata', claimId: claim.id, key: 'constructor', value: 'x' }, once)[0]).toMatchObject({ data: { previous: null } });
  });
});

describe('status machine (property)', () => {
  const status = fc.constantFrom(...ClaimStatus.options);

  it('for every pair of statuses, a change is decided exactly as the table says', () => {
    const claim = filedClaim();
    fc.assert(fc.property(status, status, (from, to) => {
      const at = { ...claim, status: from };
      const result = decideClaim({ type: 'ChangeClaimStatus', claimId: claim.id, to, note: null, reason: 'OTHER' }, at);
      if (from === to) return result.ok && result.value.length === 0;
      if (statusChangeTargets(from).includes(to)) return result.ok && result.value[0]?.type === 'ClaimStatusChanged' && evolveClaim(at, result.value[0])!.status === to;
      return !result.ok && result.error.code === 'invalid_transition';
    }));
  });

  it('reaches every status from NEW, and every status can reach ARCHIVED', () => {
    const reachable = (start: ClaimStatus) => {
      const seen = new Set<ClaimStatus>([start]);
      const queue = [start];
      while (queue.length) for (const next of STATUS_TRANSITIONS[queue.shift()!]) if (!seen.has(next)) { seen.add(next); queue.push(next); }
      return seen;
    };
    expect(reachable('NEW')).toEqual(new Set(ClaimStatus.options));
    for (const s of ClaimStatus.options) expect(reachable(s).has('ARCHIVED'), s).toBe(true);
  });

  it('carries a reason on the event when the command has one (the SLA timer)', () => {
    const claim = { ...filedClaim(), status: 'WAITING_FOR_CUSTOMER' as const };
    const events = decided({ type: 'ChangeClaimStatus', claimId: claim.id, to: 'CLOSED', note: 'no answer', reason: 'NO_RESPONSE' }, claim);
    expect(events[0]).toMatchObject({ data: { from: 'WAITING_FOR_CUSTOMER', to: 'CLOSED', reason: 'NO_RESPONSE' } });
  });
});

describe('SLA timers', () => {
  const iso = (ms: number) => new Date(ms).toISOString();
  const base = Date.parse(NOW);
  const slaArb: fc.Arbitrary<SlaSettings | undefined> = fc.option(fc.record({
    enabled: fc.option(fc.boolean(), { nil: undefined }),
    waitingForCustomerDays: fc.option(fc.integer({ min: 1, max: 365 }), { nil: undefined }),
    waitingForBrandHours: fc.option(fc.integer({ min: 1, max: 24 * 90 }), { nil: undefined }),
  }), { nil: undefined });

  it('is due exactly from the deadline on, for the watched statuses only, and never when disabled', () => {
    fc.assert(fc.property(fc.constantFrom(...ClaimStatus.options), slaArb, fc.integer({ min: -400 * DAY, max: 400 * DAY }), (status, sla, elapsed) => {
      const action = slaActionFor({ status, lastActivityAt: NOW }, sla, iso(base + elapsed));
      const s = slaSettingsOf(sla);
      const limit = status === 'WAITING_FOR_CUSTOMER' ? s.waitingForCustomerDays * DAY : status === 'WAITING_FOR_BRAND' ? s.waitingForBrandHours * HOUR : null;
      const due = s.enabled && limit !== null && elapsed >= limit;
      if (!due) return action === null;
      return action !== null && canMove(status, action.to) && Date.parse(action.dueAt) === base + limit!;
    }));
  });

  it('once due stays due as time goes on (a late scheduler still acts)', () => {
    fc.assert(fc.property(fc.constantFrom('WAITING_FOR_CUSTOMER' as const, 'WAITING_FOR_BRAND' as const), slaArb, fc.nat(400 * DAY), fc.nat(400 * DAY), (status, sla, a, b) => {
      const [early, late] = a <= b ? [a, b] : [b, a];
      const first = slaActionFor({ status, lastActivityAt: NOW }, sla, iso(base + early));
      return first === null || slaActionFor({ status, lastActivityAt: NOW }, sla, iso(base + late)) !== null;
    }));
  });

  it('closes a silent customer with NO_RESPONSE and hands a silent brand to OP, with the defaults', () => {
    expect(slaActionFor({ status: 'WAITING_FOR_CUSTOMER', lastActivityAt: NOW }, undefined, iso(base + SLA_DEFAULTS.waitingForCustomerDays * DAY)))
      .toMatchObject({ to: 'CLOSED', reason: 'NO_RESPONSE' });
    expect(slaActionFor({ status: 'WAITING_FOR_BRAND', lastActivityAt: NOW }, undefined, iso(base + SLA_DEFAULTS.waitingForBrandHours * HOUR - 1))).toBeNull();
    expect(slaActionFor({ status: 'WAITING_FOR_BRAND', lastActivityAt: NOW }, { waitingForBrandHours: 2 }, iso(base + 2 * HOUR)))
      .toMatchObject({ to: 'WAITING_FOR_OP', reason: null });
  });

  it('counts activity from filing, status changes, resolutions and messages, not from notes or labels', () => {
    expect(lastActivityAt([
      { type: 'ClaimFiled', occurredAt: '2026-01-01T00:00:00.000Z' },
      { type: 'ClaimStatusChanged', occurredAt: '2026-01-02T00:00:00.000Z' },
      { type: 'ClaimNoteAdded', occurredAt: '2026-01-05T00:00:00.000Z' },
      { type: 'ClaimLabelAdded', occurredAt: '2026-01-06T00:00:00.000Z' },
    ])).toBe('2026-01-02T00:00:00.000Z');
    expect(lastActivityAt([])).toBeNull();
  });
});

describe('macro rendering', () => {
  const key = fc.constantFrom(...MACRO_PLACEHOLDERS);
  /** Text that cannot form a placeholder of its own. */
  const text = fc.string({ maxLength: 20 }).map((s) => s.replace(/[{}]/g, ''));
  const values = fc.record(Object.fromEntries(MACRO_PLACEHOLDERS.map((k) => [k, text])) as Record<MacroPlaceholder, fc.Arbitrary<string>>);
  const spaced = (k: string) => fc.constantFrom(`{{${k}}}`, `{{ ${k} }}`, `{{  ${k}}}`);

  it('never leaves a placeholder of a known key, whatever the template and values', () => {
    const template = fc.array(fc.oneof(text, key.chain(spaced)), { maxLength: 12 }).map((parts) => parts.join(''));
    fc.assert(fc.property(template, values, (body, vals) => {
      const out = renderMacro(body, vals);
      return [...out.matchAll(PLACEHOLDER_PATTERN)].every((m) => !(MACRO_PLACEHOLDERS as readonly string[]).includes(m[1]!));
    }));
  });

  it('inserts each value as written, without expanding placeholders inside values', () => {
    fc.assert(fc.property(key, fc.string({ maxLength: 30 }), (k, value) => renderMacro(`[{{${k}}}]`, { [k]: value }) === `[${value}]`));
    expect(renderMacro('Hi {{customer.name}}', { 'customer.name': '{{claim.number}}', 'claim.number': '10001' })).toBe('Hi {{claim.number}}');
  });

  it('fills the claim\'s values and refuses unknown keys when a macro is saved', () => {
    const vals = macroValuesFor({ customer: { name: 'Ava Stone', email: 'ava@example.com' }, claimNumber: '10001', statusLabel: 'New',
      claimType: 'Damaged', orderNumber: '1001', storeName: 'Acme', agentName: 'Riley' });
    expect(renderMacro('Hi {{customer.firstName}}, claim #{{ claim.number }} for order {{order.number}} at {{store.name}}. — {{agent.name}}', vals))
      .toBe('Hi Ava, claim #10001 for order 1001 at Acme. — Riley');
    expect(unknownPlaceholders('{{customer.name}} {{customer.ssn}}')).toEqual(['customer.ssn']);
    expect(MacroInput.safeParse({ name: 'x', kind: 'reply', body: '{{nope}}' }).success).toBe(false);
    expect(MacroInput.safeParse({ name: 'x', kind: 'resolution', body: 'ok' }).success).toBe(false);
    expect(MacroInput.safeParse({ name: 'x', kind: 'resolution', body: 'ok', resolution: { resolutionType: 'RESHIP' } }).success).toBe(true);
  });
});

describe('macros and SOPs as streams', () => {
  const id = '81111111-1111-4111-8111-111111111111';
  const fold = <S>(evolve: (s: S | null, e: DomainEvent, at: string) => S | null, events: DomainEvent[]) => events.reduce<S | null>((s, e) => evolve(s, e, NOW), null);

  it('creates, updates (a same-content update is no change) and deletes a macro', () => {
    const macro = { name: 'Sorry', kind: 'reply' as const, body: 'Hi {{customer.name}}', resolution: null };
    const created = decideMacro({ type: 'CreateMacro', macroId: id, storeId: null, macro, now: NOW }, null);
    if (!created.ok) throw new Error('setup');
    const state = fold<MacroState>(evolveMacro, created.value)!;
    expect(state).toMatchObject({ id, storeId: null, name: 'Sorry', deleted: false });
    expect(decideMacro({ type: 'UpdateMacro', macroId: id, macro, now: NOW }, state)).toEqual({ ok: true, value: [] });
    const deleted = decideMacro({ type: 'DeleteMacro', macroId: id, now: NOW }, state);
    const gone = fold<MacroState>(evolveMacro, [...created.value, ...(deleted.ok ? deleted.value : [])])!;
    expect(gone.deleted).toBe(true);
    const again = decideMacro({ type: 'UpdateMacro', macroId: id, macro, now: NOW }, gone);
    expect(again.ok || again.error.code).toBe('not_found');
  });

  it('moves an SOP only along draft ↔ active → archived → draft, and keeps an archived one read-only', () => {
    const created = decideSop({ type: 'CreateSop', sopId: id, storeId: order.storeId, sop: { title: 'Lost parcels', body: '1. Check tracking' }, now: NOW }, null);
    if (!created.ok) throw new Error('setup');
    const draft = fold<SopAggregate>(evolveSop, created.value)!;
    expect(draft.state).toBe('draft');
    for (const from of ['draft', 'active', 'archived'] as const) {
      for (const to of ['draft', 'active', 'archived'] as const) {
        const result = decideSop({ type: 'SetSopState', sopId: id, state: to, now: NOW }, { ...draft, state: from });
        if (from === to) expect(result).toEqual({ ok: true, value: [] });
        else expect(result.ok, `${from} → ${to}`).toBe(SOP_TRANSITIONS[from].includes(to));
      }
    }
    const edit = decideSop({ type: 'UpdateSop', sopId: id, sop: { title: 't', body: 'b' }, now: NOW }, { ...draft, state: 'archived' });
    expect(edit.ok || edit.error.code).toBe('invalid_transition');
  });
});

describe('team rules', () => {
  const owner = new Set<Permission>(['team-member:change-role', 'team-member:grant-ownership', 'team-member:invite', 'team-member:remove']);
  const admin = new Set<Permission>(['team-member:change-role', 'team-member:invite', 'team-member:remove']);
  const base = { otherOwners: 1, change: 'change-role' as const, callerId: 'me', callerHasAccountScope: false, targetUserId: 'them', targetRoles: ['store_user' as const] };

  it('lets only owners give or take ownership', () => {
    expect(checkTeamChange({ ...base, callerPermissions: admin, newRole: 'store_owner' }).ok).toBe(false);
    expect(checkTeamChange({ ...base, callerPermissions: owner, newRole: 'store_owner' }).ok).toBe(true);
    expect(checkTeamChange({ ...base, callerPermissions: admin, targetRoles: ['store_owner'], newRole: 'store_user' }).ok).toBe(false);
  });

  it('keeps account roles for account-level callers, internal roles out of reach, and nobody changes themselves', () => {
    expect(checkTeamChange({ ...base, callerPermissions: owner, newRole: 'account_admin' }).ok).toBe(false);
    expect(checkTeamChange({ ...base, callerPermissions: owner, callerHasAccountScope: true, newRole: 'account_admin' }).ok).toBe(true);
    expect(checkTeamChange({ ...base, callerPermissions: owner, callerHasAccountScope: true, newRole: 'orderprotection_admin' }).ok).toBe(false);
    const self = checkTeamChange({ ...base, callerPermissions: owner, targetUserId: 'me', newRole: 'store_admin' });
    expect(self.ok || self.error.code).toBe('cannot_change_self');
  });
});
