import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ClaimStatus,
  MACRO_PLACEHOLDERS,
  MacroInput,
  PLACEHOLDER_PATTERN,
  unknownPlaceholders,
  SLA_DEFAULTS,
  macroValuesFor,
  renderMacro,
  type ClaimCommand,
  type DomainEvent,
  type MacroCommand,
  type MacroPlaceholder,
  type SlaSettings,
  type SopCommand,
  type SopState,
} from '@claims/contracts';
import {
  canMove,
  claimDecider,
  statusChangeTargets,
  lastActivityAt,
  macroDecider,
  slaActionFor,
  slaSettingsOf,
  sopDecider,
  SOP_TRANSITIONS,
  STATUS_TRANSITIONS,
} from '../src/index.js';
import { actor, claimId, filing, NOW, order, statusChanged } from './fixtures.js';
import { inJsonbKeyOrder } from './support/jsonbKeyOrder.js';
import { given, refused } from './support/givenWhenThen.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const LATER = '2026-11-23T09:30:00.000Z';

const filed = given(claimDecider, filing);
const label = (type: 'AddClaimLabel' | 'RemoveClaimLabel'): ClaimCommand => ({ type, claimId, label: 'vip' });
const setMetadata = (key: string, value: string): ClaimCommand => ({ type: 'SetClaimMetadata', claimId, key, value });

describe('notes, labels and metadata in the claim stream', () => {
  it('given a claim, when a note is added, then it is recorded without HTML and counted', () => {
    const note = (body: string): ClaimCommand => ({
      type: 'AddClaimNote',
      claimId,
      noteId: '71111111-1111-4111-8111-111111111111',
      actor,
      body,
      now: NOW,
    });
    const added = filed.when(note('<b>Called</b> the carrier')).then([
      {
        type: 'ClaimNoteAdded',
        data: {
          claimId,
          noteId: '71111111-1111-4111-8111-111111111111',
          body: 'Called the carrier',
          author: { type: 'user', id: 'u-1', name: 'Riley Agent' },
          createdAt: NOW,
        },
      },
    ]);
    expect(given(claimDecider, [...filing, ...added]).state?.noteCount).toBe(1);
    filed.when(note('<p></p>')).then(refused('validation_failed'));
  });

  it('adds a label once, removes it, and treats repeats as no change', () => {
    const added = filed
      .when(label('AddClaimLabel'))
      .then([{ type: 'ClaimLabelAdded', data: { claimId, label: 'vip' } }]);
    const labelled = given(claimDecider, [...filing, ...added]);
    expect(labelled.state?.labels).toEqual(['vip']);
    labelled.when(label('AddClaimLabel')).then([]);
    const removed = labelled
      .when(label('RemoveClaimLabel'))
      .then([{ type: 'ClaimLabelRemoved', data: { claimId, label: 'vip' } }]);
    const unlabelled = given(claimDecider, [...filing, ...added, ...removed]);
    expect(unlabelled.state?.labels).toEqual([]);
    unlabelled.when(label('RemoveClaimLabel')).then([]);
  });

  it('sets metadata with the previous value, and setting the same value changes nothing', () => {
    const first = filed
      .when(setMetadata('carrier.ticket', 'T-1'))
      .then([{ type: 'ClaimMetadataSet', data: { claimId, key: 'carrier.ticket', value: 'T-1', previous: null } }]);
    const once = given(claimDecider, [...filing, ...first]);
    once.when(setMetadata('carrier.ticket', 'T-1')).then([]);
    once.when(setMetadata('carrier.ticket', 'T-2')).thenMatches([{ data: { value: 'T-2', previous: 'T-1' } }]);
    // A key that names an Object.prototype member is a plain new key.
    once.when(setMetadata('constructor', 'x')).thenMatches([{ data: { previous: null } }]);
  });
});

describe('status machine (property)', () => {
  const status = fc.constantFrom(...ClaimStatus.options);

  it('for every pair of statuses, a change is decided exactly as the table says', () => {
    fc.assert(
      fc.property(status, status, (from, to) => {
        const at = from === 'NEW' ? filing : [...filing, statusChanged('NEW', from)];
        // With a reason, as closing an unresolved claim needs one; decision statuses are never a status change.
        const decision = given(claimDecider, at).when({
          type: 'ChangeClaimStatus',
          claimId,
          to,
          note: null,
          reason: 'OTHER',
        });
        if (from === to) decision.then([]);
        else if (statusChangeTargets(from).includes(to)) {
          expect(
            given(claimDecider, [...at, ...decision.thenMatches([{ type: 'ClaimStatusChanged', data: { from, to } }])])
              .state?.status,
          ).toBe(to);
        } else decision.then(refused('invalid_transition'));
      }),
    );
  });

  it('reaches every status from NEW, and every status can reach ARCHIVED', () => {
    const reachable = (start: ClaimStatus) => {
      const seen = new Set<ClaimStatus>([start]);
      const queue = [start];
      while (queue.length)
        for (const next of STATUS_TRANSITIONS[queue.shift()!])
          if (!seen.has(next)) {
            seen.add(next);
            queue.push(next);
          }
      return seen;
    };
    expect(reachable('NEW')).toEqual(new Set(ClaimStatus.options));
    for (const s of ClaimStatus.options) expect(reachable(s).has('ARCHIVED'), s).toBe(true);
  });

  it('carries a reason on the event when the command has one (the SLA timer)', () => {
    given(claimDecider, [...filing, statusChanged('NEW', 'WAITING_FOR_CUSTOMER')])
      .when({ type: 'ChangeClaimStatus', claimId, to: 'CLOSED', note: 'no answer', reason: 'NO_RESPONSE' })
      .thenMatches([{ data: { from: 'WAITING_FOR_CUSTOMER', to: 'CLOSED', reason: 'NO_RESPONSE' } }]);
  });
});

describe('SLA timers', () => {
  const iso = (ms: number) => new Date(ms).toISOString();
  const base = Date.parse(NOW);
  const slaArb: fc.Arbitrary<SlaSettings | undefined> = fc.option(
    fc.record({
      enabled: fc.option(fc.boolean(), { nil: undefined }),
      waitingForCustomerDays: fc.option(fc.integer({ min: 1, max: 365 }), { nil: undefined }),
      waitingForBrandHours: fc.option(fc.integer({ min: 1, max: 24 * 90 }), { nil: undefined }),
    }),
    { nil: undefined },
  );

  it('is due exactly from the deadline on, for the watched statuses only, and never when disabled', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ClaimStatus.options),
        slaArb,
        fc.integer({ min: -400 * DAY, max: 400 * DAY }),
        (status, sla, elapsed) => {
          const action = slaActionFor({ status, lastActivityAt: NOW }, sla, iso(base + elapsed));
          const s = slaSettingsOf(sla);
          const limit =
            status === 'WAITING_FOR_CUSTOMER'
              ? s.waitingForCustomerDays * DAY
              : status === 'WAITING_FOR_BRAND'
                ? s.waitingForBrandHours * HOUR
                : null;
          const due = s.enabled && limit !== null && elapsed >= limit;
          if (!due) return action === null;
          return action !== null && canMove(status, action.to) && Date.parse(action.dueAt) === base + limit!;
        },
      ),
    );
  });

  it('once due stays due as time goes on (a late scheduler still acts)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('WAITING_FOR_CUSTOMER' as const, 'WAITING_FOR_BRAND' as const),
        slaArb,
        fc.nat(400 * DAY),
        fc.nat(400 * DAY),
        (status, sla, a, b) => {
          const [early, late] = a <= b ? [a, b] : [b, a];
          const first = slaActionFor({ status, lastActivityAt: NOW }, sla, iso(base + early));
          return first === null || slaActionFor({ status, lastActivityAt: NOW }, sla, iso(base + late)) !== null;
        },
      ),
    );
  });

  it('closes a silent customer with NO_RESPONSE and hands a silent brand to OP, with the defaults', () => {
    expect(
      slaActionFor(
        { status: 'WAITING_FOR_CUSTOMER', lastActivityAt: NOW },
        undefined,
        iso(base + SLA_DEFAULTS.waitingForCustomerDays * DAY),
      ),
    ).toMatchObject({ to: 'CLOSED', reason: 'NO_RESPONSE' });
    expect(
      slaActionFor(
        { status: 'WAITING_FOR_BRAND', lastActivityAt: NOW },
        undefined,
        iso(base + SLA_DEFAULTS.waitingForBrandHours * HOUR - 1),
      ),
    ).toBeNull();
    expect(
      slaActionFor(
        { status: 'WAITING_FOR_BRAND', lastActivityAt: NOW },
        { waitingForBrandHours: 2 },
        iso(base + 2 * HOUR),
      ),
    ).toMatchObject({ to: 'WAITING_FOR_OP', reason: null });
  });

  it('counts activity from filing, status changes, resolutions and messages, not from notes or labels', () => {
    expect(
      lastActivityAt([
        { type: 'ClaimFiled', occurredAt: '2026-01-01T00:00:00.000Z' },
        { type: 'ClaimStatusChanged', occurredAt: '2026-01-02T00:00:00.000Z' },
        { type: 'ClaimNoteAdded', occurredAt: '2026-01-05T00:00:00.000Z' },
        { type: 'ClaimLabelAdded', occurredAt: '2026-01-06T00:00:00.000Z' },
      ]),
    ).toBe('2026-01-02T00:00:00.000Z');
    expect(lastActivityAt([])).toBeNull();
  });
});

describe('macro rendering', () => {
  const key = fc.constantFrom(...MACRO_PLACEHOLDERS);
  /** Text that cannot form a placeholder of its own. */
  const text = fc.string({ maxLength: 20 }).map((s) => s.replace(/[{}]/g, ''));
  const values = fc.record(
    Object.fromEntries(MACRO_PLACEHOLDERS.map((k) => [k, text])) as Record<MacroPlaceholder, fc.Arbitrary<string>>,
  );
  const spaced = (k: string) => fc.constantFrom(`{{${k}}}`, `{{ ${k} }}`, `{{  ${k}}}`);

  it('never leaves a placeholder of a known key, whatever the template and values', () => {
    const template = fc.array(fc.oneof(text, key.chain(spaced)), { maxLength: 12 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(template, values, (body, vals) => {
        const out = renderMacro(body, vals);
        return [...out.matchAll(PLACEHOLDER_PATTERN)].every(
          (m) => !(MACRO_PLACEHOLDERS as readonly string[]).includes(m[1]!),
        );
      }),
    );
  });

  it('inserts each value as written, without expanding placeholders inside values', () => {
    fc.assert(
      fc.property(
        key,
        fc.string({ maxLength: 30 }),
        (k, value) => renderMacro(`[{{${k}}}]`, { [k]: value }) === `[${value}]`,
      ),
    );
    expect(renderMacro('Hi {{customer.name}}', { 'customer.name': '{{claim.number}}', 'claim.number': '10001' })).toBe(
      'Hi {{claim.number}}',
    );
  });

  it("fills the claim's values and refuses unknown keys when a macro is saved", () => {
    const vals = macroValuesFor({
      customer: { name: 'Ava Stone', email: 'ava@example.com' },
      claimNumber: '10001',
      statusLabel: 'New',
      claimType: 'Damaged',
      orderNumber: '1001',
      storeName: 'Acme',
      agentName: 'Riley',
    });
    expect(
      renderMacro(
        'Hi {{customer.firstName}}, claim #{{ claim.number }} for order {{order.number}} at {{store.name}}. — {{agent.name}}',
        vals,
      ),
    ).toBe('Hi Ava, claim #10001 for order 1001 at Acme. — Riley');
    expect(unknownPlaceholders('{{customer.name}} {{customer.ssn}}')).toEqual(['customer.ssn']);
    expect(MacroInput.safeParse({ name: 'x', kind: 'reply', body: '{{nope}}' }).success).toBe(false);
    expect(MacroInput.safeParse({ name: 'x', kind: 'resolution', body: 'ok' }).success).toBe(false);
    expect(
      MacroInput.safeParse({ name: 'x', kind: 'resolution', body: 'ok', resolution: { resolutionType: 'RESHIP' } })
        .success,
    ).toBe(true);
  });
});

describe('macros as streams', () => {
  const macroId = '81111111-1111-4111-8111-111111111111';
  const macro = { name: 'Sorry', kind: 'reply' as const, body: 'Hi {{customer.name}}', resolution: null };
  const refund = {
    name: 'Refund',
    kind: 'resolution' as const,
    body: 'Refunded',
    resolution: {
      resolutionType: 'REFUND' as const,
      reason: 'PHOTO_VERIFIED' as const,
      amount: 5,
      description: 'Sorry',
    },
  };
  const created: DomainEvent = { type: 'MacroCreated', data: { macroId, storeId: null, ...macro, createdAt: NOW } };
  const deleted: DomainEvent = { type: 'MacroDeleted', data: { macroId, deletedAt: LATER } };
  const update = (content: typeof macro | typeof refund): MacroCommand => ({
    type: 'UpdateMacro',
    macroId,
    macro: content,
    now: LATER,
  });
  const remove: MacroCommand = { type: 'DeleteMacro', macroId, now: LATER };

  it('creates a macro once', () => {
    given(macroDecider).when({ type: 'CreateMacro', macroId, storeId: null, macro, now: NOW }).then([created]);
    expect(given(macroDecider, [created]).state).toMatchObject({
      id: macroId,
      storeId: null,
      name: 'Sorry',
      createdAt: NOW,
      updatedAt: NOW,
      deleted: false,
    });
    given(macroDecider, [created])
      .when({ type: 'CreateMacro', macroId, storeId: null, macro, now: NOW })
      .then(refused('version_conflict'));
  });

  it('updates what changed, and a same-content update is no change, whatever the key order its stored preset came back in', () => {
    given(macroDecider, [created]).when(update(macro)).then([]);
    const updated = given(macroDecider, [created])
      .when(update(refund))
      .then([{ type: 'MacroUpdated', data: { macroId, ...refund, updatedAt: LATER } }]);
    expect(given(macroDecider, [created, ...updated]).state).toMatchObject({
      ...refund,
      createdAt: NOW,
      updatedAt: LATER,
    });
    given(macroDecider, [created, ...updated.map(inJsonbKeyOrder)])
      .when(update(refund))
      .then([]);
  });

  it('deletes a macro, dated by the deletion, and leaves nothing to update or delete', () => {
    given(macroDecider, [created]).when(remove).then([deleted]);
    const gone = given(macroDecider, [created, deleted]);
    expect(gone.state).toMatchObject({ deleted: true, createdAt: NOW, updatedAt: LATER });
    gone.when(update(macro)).then(refused('not_found'));
    gone.when(remove).then(refused('not_found'));
    given(macroDecider).when(remove).then(refused('not_found'));
  });
});

describe('SOPs as streams', () => {
  const sopId = '91111111-1111-4111-8111-111111111111';
  const sop = { title: 'Lost parcels', body: '1. Check tracking' };
  const created: DomainEvent = {
    type: 'SopCreated',
    data: { sopId, storeId: order.storeId, ...sop, state: 'draft', createdAt: NOW },
  };
  const stateChanged = (from: SopState, to: SopState, changedAt = NOW): DomainEvent => ({
    type: 'SopStateChanged',
    data: { sopId, from, to, changedAt },
  });
  const inState = (state: SopState) =>
    given(sopDecider, state === 'draft' ? [created] : [created, stateChanged('draft', state)]);
  const edit = (content: typeof sop): SopCommand => ({ type: 'UpdateSop', sopId, sop: content, now: LATER });

  it('creates an SOP as a draft', () => {
    given(sopDecider).when({ type: 'CreateSop', sopId, storeId: order.storeId, sop, now: NOW }).then([created]);
    expect(given(sopDecider, [created]).state).toMatchObject({
      id: sopId,
      state: 'draft',
      updatedAt: NOW,
      deleted: false,
    });
  });

  it('moves an SOP only along draft ↔ active → archived → draft, and keeps an archived one read-only', () => {
    const states = fc.constantFrom<SopState>('draft', 'active', 'archived');
    fc.assert(
      fc.property(states, states, (from, to) => {
        const decision = inState(from).when({ type: 'SetSopState', sopId, state: to, now: LATER });
        if (from === to) decision.then([]);
        else if (SOP_TRANSITIONS[from].includes(to)) decision.then([stateChanged(from, to, LATER)]);
        else decision.then(refused('invalid_transition'));
      }),
    );
    inState('archived')
      .when(edit({ title: 't', body: 'b' }))
      .then(refused('invalid_transition', 'restore it as a draft'));
  });

  it('records an edit only when the text changed', () => {
    inState('active').when(edit(sop)).then([]);
    const edited = inState('active')
      .when(edit({ title: 'Lost parcels', body: '1. Check tracking\n2. Ask the carrier' }))
      .then([
        {
          type: 'SopUpdated',
          data: { sopId, title: 'Lost parcels', body: '1. Check tracking\n2. Ask the carrier', updatedAt: LATER },
        },
      ]);
    expect(given(sopDecider, [created, ...edited]).state).toMatchObject({
      body: '1. Check tracking\n2. Ask the carrier',
      updatedAt: LATER,
    });
  });

  it('deletes an SOP, dated by the deletion, and leaves nothing to change', () => {
    const deleted = inState('active')
      .when({ type: 'DeleteSop', sopId, now: LATER })
      .then([{ type: 'SopDeleted', data: { sopId, deletedAt: LATER } }]);
    const gone = given(sopDecider, [created, ...deleted]);
    expect(gone.state).toMatchObject({ deleted: true, createdAt: NOW, updatedAt: LATER });
    gone.when(edit({ title: 't', body: 'b' })).then(refused('not_found'));
    gone.when({ type: 'SetSopState', sopId, state: 'active', now: LATER }).then(refused('not_found'));
    gone.when({ type: 'DeleteSop', sopId, now: LATER }).then(refused('not_found'));
  });
});
