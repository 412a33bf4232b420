import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  EDITABLE_SETTINGS_GROUPS,
  SettingsChangeInput,
  type DomainEvent,
  type EditableSettingsGroup,
  type SettingsChange,
  type StoreSettingsCommand,
} from '@claims/contracts';
import {
  foldEvents,
  orderClaimsDecider,
  settingsAsOf,
  settingsEventTime,
  settingsHistory,
  settingsValuesOf,
  storeSettingsDecider,
} from '../src/index.js';
import { fileClaim, NOW, settings } from './fixtures.js';
import { given, refused } from './support/givenWhenThen.js';

const storeId = 'a0cea1ca-8017-4455-8392-fa5be97b8803';
const LATER = '2026-11-23T09:30:00.000Z';
const initialize: StoreSettingsCommand = { type: 'InitializeStoreSettings', storeId, settings, now: NOW };
const initialized: DomainEvent = { type: 'StoreSettingsInitialized', data: { storeId, settings, initializedAt: NOW } };
const change = (value: SettingsChange, now = LATER, seenVersion?: number): StoreSettingsCommand => ({
  type: 'ChangeStoreSettings',
  storeId,
  change: value,
  baseline: settings,
  now,
  ...(seenVersion === undefined ? {} : { seenVersion }),
});
const noRefunds: SettingsChange = {
  group: 'capabilities',
  value: {
    capabilities: { ...settings.capabilities, refund: false },
    credit: settings.credit,
    returns: { portalUrl: 'https://returns.example.test', trackingUrl: null },
  },
};
const window = (claimWaitDays: number, claimWindowDays: number): SettingsChange => ({
  group: 'fulfillment',
  value: { claimWaitDays, claimWindowDays },
});

describe('store settings as a versioned stream', () => {
  it('records the first version once: seeding again changes nothing', () => {
    given(storeSettingsDecider).when(initialize).then([initialized]);
    given(storeSettingsDecider, [initialized]).when(initialize).then([]);
  });

  it('records a change of one group with its time, and nothing when the value is the same', () => {
    const changed = given(storeSettingsDecider, [initialized])
      .when(change(window(1, 14)))
      .then([{ type: 'StoreSettingsChanged', data: { storeId, change: window(1, 14), changedAt: LATER } }]);
    const after = given(storeSettingsDecider, [initialized, ...changed]);
    expect(after.state?.settings).toMatchObject({ claimWaitDays: 1, claimWindowDays: 14 });
    expect(after.state?.version).toBe(2);
    after.when(change(window(1, 14))).then([]);
  });

  it("records the catalog's settings as the first version when a store with none is changed", () => {
    given(storeSettingsDecider)
      .when(change(window(0, 60)))
      .thenMatches([
        { type: 'StoreSettingsInitialized', data: { settings, initializedAt: LATER } },
        { type: 'StoreSettingsChanged', data: { change: window(0, 60) } },
      ]);
  });

  it("refuses values the group's rules do not allow, saying where", () => {
    const at = given(storeSettingsDecider, [initialized]);
    at.when(change(window(10, 5))).then(refused('validation_failed', 'claimWindowDays'));
    const withoutPortal: SettingsChange = {
      ...noRefunds,
      value: { ...noRefunds.value, returns: { portalUrl: null, trackingUrl: null } },
    };
    at.when(change(withoutPortal)).then(
      refused('validation_failed', 'returns.portalUrl: Returns need the returns portal address.'),
    );
    const scriptUrl: SettingsChange = {
      ...noRefunds,
      value: { ...noRefunds.value, returns: { portalUrl: 'javascript:alert(1)', trackingUrl: null } },
    };
    at.when(change(scriptUrl)).then(refused('validation_failed', 'returns.portalUrl'));
    const twoSwitches: SettingsChange = {
      ...noRefunds,
      value: { ...noRefunds.value, credit: { ...settings.credit, enabled: false } },
    };
    at.when(change(twoSwitches)).then(refused('validation_failed', 'credit.enabled'));
    at.when(change({ group: 'metadata', value: { entries: { __secret: 'x' } } })).then(
      refused('validation_failed', 'entries.__secret'),
    );
  });

  it("refuses an edit made on a version older than its group's last change, and lets other groups through", () => {
    const changed: DomainEvent = {
      type: 'StoreSettingsChanged',
      data: { storeId, change: window(1, 14), changedAt: LATER },
    };
    const at = given(storeSettingsDecider, [initialized, changed]);
    at.when(change(window(2, 20), LATER, 1)).then(
      refused('version_conflict', 'fulfillment settings changed since you loaded them (now version 2)'),
    );
    at.when(change(window(2, 20), LATER, 2)).thenMatches([{ type: 'StoreSettingsChanged' }]);
    at.when(change({ group: 'widget', value: { enabled: true, defaultProtected: true } }, LATER, 1)).thenMatches([
      { type: 'StoreSettingsChanged' },
    ]);
  });

  it('never dates a change before the version it follows', () => {
    given(storeSettingsDecider, [initialized])
      .when(change(window(1, 14), '2026-11-01T00:00:00.000Z'))
      .thenMatches([{ data: { changedAt: NOW } }]);
  });

  it('is what filing reads: with refunds turned off a refund claim is refused, and a shorter window expires a parcel', () => {
    const events = [
      initialized,
      ...given(storeSettingsDecider, [initialized]).when(change(noRefunds)).then([expect.anything()]),
    ];
    const current = foldEvents(storeSettingsDecider, events)!.settings;
    expect(orderClaimsDecider.decide(fileClaim({}, { settings }), orderClaimsDecider.initialState).ok).toBe(true);
    const refund = orderClaimsDecider.decide(fileClaim({}, { settings: current }), orderClaimsDecider.initialState);
    expect(refund).toMatchObject({ ok: false, error: { code: 'unsupported_resolution' } });
    // The fixture's parcel was delivered 10 days ago.
    const shorter = { ...settings, claimWaitDays: 0, claimWindowDays: 7 };
    expect(
      orderClaimsDecider.decide(fileClaim({}, { settings: shorter }), orderClaimsDecider.initialState),
    ).toMatchObject({ ok: false, error: { code: 'not_eligible' } });
  });

  it('is what filing reads: claims closed online are refused, and a required photo is asked for a damaged item', () => {
    const filingWith = (
      value: { acceptingClaims: boolean; photosRequired: boolean },
      images: Array<{ url: string }> = [],
    ) => {
      const events = [
        initialized,
        ...given(storeSettingsDecider, [initialized])
          .when(change({ group: 'claim-filing', value }))
          .then([expect.anything()]),
      ];
      const current = foldEvents(storeSettingsDecider, events)!.settings;
      const request = {
        fulfillmentIssues: [
          {
            sourceFulfillmentId: 'f-1',
            issues: [{ sourceItemId: 'li-2', claimType: 'DAMAGED' as const, quantity: 2, details: 'torn', images }],
          },
        ],
      };
      return orderClaimsDecider.decide(fileClaim(request, { settings: current }), orderClaimsDecider.initialState);
    };
    expect(filingWith({ acceptingClaims: false, photosRequired: false })).toMatchObject({
      ok: false,
      error: { code: 'not_eligible', message: expect.stringContaining('not taking claims online') },
    });
    expect(filingWith({ acceptingClaims: true, photosRequired: true })).toMatchObject({
      ok: false,
      error: { code: 'validation_failed', message: expect.stringContaining('Add a photo') },
    });
    expect(
      filingWith({ acceptingClaims: true, photosRequired: true }, [{ url: 'https://cdn.example.test/torn.jpg' }]).ok,
    ).toBe(true);
  });

  it('lists each version with its actor and the fields it moved', () => {
    const actor = { type: 'user' as const, id: 'u-1', name: 'Alex Owner' };
    const seed = { type: 'system' as const, id: 'demo-seed', name: 'Demo data' };
    const changed: DomainEvent = {
      type: 'StoreSettingsChanged',
      data: { storeId, change: noRefunds, changedAt: LATER },
    };
    const history = settingsHistory([
      { version: 1, event: initialized, actor: seed },
      { version: 2, event: changed, actor },
    ]);
    expect(history.filter((entry) => entry.kind === 'initialized').map((entry) => entry.group)).toEqual([
      ...EDITABLE_SETTINGS_GROUPS,
    ]);
    expect(history.at(-1)).toEqual({
      version: 2,
      group: 'capabilities',
      kind: 'changed',
      at: LATER,
      actor,
      changes: [
        { field: 'capabilities.refund', from: true, to: false },
        { field: 'returns.portalUrl', from: null, to: 'https://returns.example.test' },
      ],
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const url = fc.constantFrom(
  'https://returns.example.test',
  'https://track.example.test/x',
  'http://portal.example.test',
);
const changeOf: { [G in EditableSettingsGroup]: fc.Arbitrary<Extract<SettingsChange, { group: G }>> } = {
  capabilities: fc
    .record({
      refund: fc.boolean(),
      reship: fc.boolean(),
      returns: fc.boolean(),
      credit: fc.boolean(),
      bonusType: fc.constantFrom('fixed' as const, 'percentage' as const),
      bonus: fc.integer({ min: 0, max: 100 }),
      tracking: fc.option(url),
    })
    .chain((c) =>
      (c.returns ? url : fc.option(url)).map((portalUrl) => ({
        group: 'capabilities' as const,
        value: {
          capabilities: { refund: c.refund, reship: c.reship, returns: c.returns, credit: c.credit },
          credit: { enabled: c.credit, bonus: c.bonus, bonusType: c.bonusType },
          returns: { portalUrl, trackingUrl: c.tracking },
        },
      })),
    ),
  fulfillment: fc.integer({ min: 0, max: 30 }).chain((wait) =>
    fc.integer({ min: Math.max(1, wait), max: 3_650 }).map((windowDays) => ({
      group: 'fulfillment' as const,
      value: { claimWaitDays: wait, claimWindowDays: windowDays },
    })),
  ),
  'one-time-appeasements': fc
    .boolean()
    .map((allow) => ({ group: 'one-time-appeasements' as const, value: { allowOneTimeAppeasement: allow } })),
  'replacement-cost': fc
    .record({
      replacementCostPercent: fc.integer({ min: 0, max: 1_000 }),
      claimCeiling: fc.integer({ min: 1, max: 100_000 }),
    })
    .map((value) => ({ group: 'replacement-cost' as const, value })),
  'rev-share': fc
    .integer({ min: 0, max: 100 })
    .map((percent) => ({ group: 'rev-share' as const, value: { merchantSharePercent: percent } })),
  'claim-acknowledgment': fc
    .record({ enabled: fc.boolean(), message: fc.constantFrom('', 'We got it.', 'Thanks — we reply within a day.') })
    .map((value) => ({ group: 'claim-acknowledgment' as const, value })),
  'customer-communication': fc
    .record({
      enabled: fc.boolean(),
      waitingForCustomerDays: fc.integer({ min: 1, max: 365 }),
      waitingForBrandHours: fc.integer({ min: 1, max: 2_160 }),
    })
    .map((sla) => ({ group: 'customer-communication' as const, value: { sla } })),
  metadata: fc
    .dictionary(fc.constantFrom('erp-id', 'region', 'tier'), fc.constantFrom('a', 'b', 'EU'))
    .map((entries) => ({ group: 'metadata' as const, value: { entries } })),
  widget: fc
    .record({ enabled: fc.boolean(), defaultProtected: fc.boolean() })
    .map((value) => ({ group: 'widget' as const, value })),
  'claim-filing': fc
    .record({ acceptingClaims: fc.boolean(), photosRequired: fc.boolean() })
    .map((value) => ({ group: 'claim-filing' as const, value })),
  policies: fc
    .record({ termsUrl: fc.option(url), privacyUrl: fc.option(url), protectionTermsUrl: fc.option(url) })
    .map((value) => ({ group: 'policies' as const, value })),
  pricing: fc
    .integer({ min: 0, max: 100 })
    .map((premiumPercent) => ({ group: 'pricing' as const, value: { premiumPercent } })),
  'quote-pricing': fc
    .integer({ min: 0, max: 100 })
    .map((quotePercent) => ({ group: 'quote-pricing' as const, value: { quotePercent } })),
  notifications: fc
    .option(fc.constantFrom('care@noord.test', 'help@acme.test'))
    .map((replyToEmail) => ({ group: 'notifications' as const, value: { replyToEmail } })),
  contact: fc
    .record({
      supportEmail: fc.option(fc.constantFrom('care@noord.test')),
      supportPhone: fc.option(fc.constantFrom('+31 20 555 0100', '(555) 010-0199')),
    })
    .map((value) => ({ group: 'contact' as const, value })),
};
const anyChange: fc.Arbitrary<SettingsChange> = fc.oneof(...EDITABLE_SETTINGS_GROUPS.map((group) => changeOf[group]));

const START = Date.parse(NOW);
const minutes = (n: number) => new Date(START + n * 60_000).toISOString();
/** Edits at clock readings that may go backwards (another API process's clock), each minutes from NOW. */
const edits = fc.array(fc.record({ change: anyChange, at: fc.integer({ min: -60, max: 600 }) }), { maxLength: 25 });

/** Decides every edit in turn on the stream so far, as the command handler would, and answers the stored events. */
function record(list: ReadonlyArray<{ change: SettingsChange; at: number }>): DomainEvent[] {
  const events: DomainEvent[] = [initialized];
  for (const edit of list) {
    const decision = storeSettingsDecider.decide(
      change(edit.change, minutes(edit.at)),
      foldEvents(storeSettingsDecider, events),
    );
    if (!decision.ok) throw new Error(decision.error.message);
    events.push(...decision.value);
  }
  return events;
}

describe('settings versions (properties)', () => {
  it('the value of every group as of any time is the one the last event at or before that time gave it', () => {
    fc.assert(
      fc.property(edits, fc.integer({ min: -120, max: 700 }), (list, probe) => {
        const events = record(list);
        const at = minutes(probe);
        const asOf = settingsAsOf(events, at);
        const before = events.filter((event) => Date.parse(settingsEventTime(event)!) <= Date.parse(at));
        if (before.length === 0) {
          expect(asOf).toBeNull();
          return;
        }
        for (const group of EDITABLE_SETTINGS_GROUPS) {
          const last = before.findLast(
            (event) =>
              event.type === 'StoreSettingsInitialized' ||
              (event.type === 'StoreSettingsChanged' && event.data.change.group === group),
          )!;
          const expected =
            last.type === 'StoreSettingsChanged' ? last.data.change.value : settingsValuesOf(settings)[group];
          expect(settingsValuesOf(asOf!.settings)[group]).toEqual(expected);
        }
      }),
    );
  });

  it('dates versions in order, records only real changes, and folds to the last value of each group', () => {
    fc.assert(
      fc.property(edits, (list) => {
        const events = record(list);
        const times = events.map((event) => Date.parse(settingsEventTime(event)!));
        expect(times).toEqual([...times].sort((a, b) => a - b));
        const history = settingsHistory(
          events.map((event, i) => ({ version: i + 1, event, actor: { type: 'system', id: 'test' } })),
        );
        expect(history.filter((entry) => entry.kind === 'changed').every((entry) => entry.changes.length > 0)).toBe(
          true,
        );
        const current = settingsValuesOf(foldEvents(storeSettingsDecider, events)!.settings);
        for (const group of EDITABLE_SETTINGS_GROUPS) {
          const last = list.findLast((edit) => edit.change.group === group);
          expect(current[group]).toEqual(
            last ? SettingsChangeInput.parse(last.change).value : settingsValuesOf(settings)[group],
          );
        }
      }),
    );
  });
});
