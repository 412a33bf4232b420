import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ClaimStatus,
  ROLE_NAMES,
  ROLES,
  TeamNotificationKind,
  type DomainEvent,
  type RoleName,
} from '@claims/contracts';
import {
  claimLinksRequestDecider,
  foldEvents,
  mailedByDefault,
  memberGetsMail,
  memberPreferencesDecider,
  notificationKindOf,
  teamNotificationKindOf,
  type SetNotificationPreferences,
} from '../src/index.js';
import { given } from './support/givenWhenThen.js';

const storeId = 'b1111111-1111-4111-8111-111111111111';
const ana = 'c1111111-1111-4111-8111-111111111111';
const ben = 'd1111111-1111-4111-8111-111111111111';
const now = '2025-03-01T10:00:00.000Z';

const set = (userId: string, settings: SetNotificationPreferences['settings']): SetNotificationPreferences => ({
  type: 'SetNotificationPreferences',
  storeId,
  userId,
  settings,
  now,
});
const chosen = (userId: string, kind: TeamNotificationKind, enabled: boolean): DomainEvent => ({
  type: 'NotificationPreferenceSet',
  data: { storeId, userId, kind, enabled, setAt: now },
});

describe("team members' mail preferences", () => {
  it("records a choice that differs from the member's last one, and nothing for the same again", () => {
    given(memberPreferencesDecider)
      .when(
        set(ana, [
          { kind: 'new_claim', enabled: false },
          { kind: 'customer_reply', enabled: true },
        ]),
      )
      .then([chosen(ana, 'new_claim', false), chosen(ana, 'customer_reply', true)]);
    given(memberPreferencesDecider, [chosen(ana, 'new_claim', false)])
      .when(
        set(ana, [
          { kind: 'new_claim', enabled: false },
          { kind: 'customer_reply', enabled: true },
        ]),
      )
      .then([chosen(ana, 'customer_reply', true)]);
    given(memberPreferencesDecider, [chosen(ana, 'new_claim', false), chosen(ana, 'new_claim', true)])
      .when(set(ana, [{ kind: 'new_claim', enabled: true }]))
      .then([]);
    // Another member's choice is theirs alone.
    given(memberPreferencesDecider, [chosen(ben, 'new_claim', false)])
      .when(set(ana, [{ kind: 'new_claim', enabled: false }]))
      .then([chosen(ana, 'new_claim', false)]);
  });

  it('mails owners and admins by default, the other store roles not, and nobody without claim:read', () => {
    expect(ROLE_NAMES.filter((role) => ROLES[role].level !== 'internal' && mailedByDefault([role]))).toEqual([
      'account_owner',
      'account_admin',
      'store_owner',
      'store_admin',
    ]);
    const none = foldEvents(memberPreferencesDecider, []);
    expect(memberGetsMail(none, ana, ['store_owner'], 'new_claim')).toBe(true);
    expect(memberGetsMail(none, ana, ['store_support'], 'customer_reply')).toBe(false);
    expect(memberGetsMail(none, ana, [], 'new_claim')).toBe(false);
  });

  it("follows the member's latest choice whatever their roles, as long as they may read claims (property)", () => {
    const storeRoles = ROLE_NAMES.filter((r) => ROLES[r].level !== 'internal');
    const choices = fc.array(
      fc.record({
        user: fc.constantFrom(ana, ben),
        kind: fc.constantFrom(...TeamNotificationKind.options),
        enabled: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(
        choices,
        fc.subarray(storeRoles, { minLength: 1 }),
        fc.constantFrom(...TeamNotificationKind.options),
        (history, roles, kind) => {
          const state = foldEvents(
            memberPreferencesDecider,
            history.map((c) => chosen(c.user, c.kind, c.enabled)),
          );
          const latest = history.filter((c) => c.user === ana && c.kind === kind).at(-1);
          const readsClaims = roles.some((r: RoleName) => ROLES[r].permissions.includes('claim:read'));
          expect(memberGetsMail(state, ana, roles, kind)).toBe(
            readsClaims && (latest ? latest.enabled : mailedByDefault(roles)),
          );
        },
      ),
    );
  });
});

describe('which claim events are mailed to whom', () => {
  const message = (senderType: 'customer' | 'merchant'): DomainEvent => ({
    type: 'ClaimMessageSent',
    data: {
      id: ana,
      claimId: ben,
      storeId,
      senderId: 'ava@example.com',
      senderName: 'Ava',
      senderType,
      messageContent: 'Hi',
      medias: [],
      createdAt: now,
    },
  });
  it("tells the team of the shopper's messages and the shopper of the store's, never anyone of their own", () => {
    expect([teamNotificationKindOf(message('customer')), notificationKindOf(message('customer'))]).toEqual([
      'customer_reply',
      null,
    ]);
    expect([teamNotificationKindOf(message('merchant')), notificationKindOf(message('merchant'))]).toEqual([
      null,
      'store_reply',
    ]);
  });
  it('tells the shopper of a status change only when the store waits on them or dismissed their claim', () => {
    const moved = (to: ClaimStatus): DomainEvent => ({
      type: 'ClaimStatusChanged',
      data: { claimId: ben, from: 'NEW', to, note: null },
    });
    expect(ClaimStatus.options.filter((to) => notificationKindOf(moved(to)) === 'status_changed')).toEqual([
      'DISMISSED',
      'WAITING_FOR_CUSTOMER',
    ]);
    expect(teamNotificationKindOf(moved('WAITING_FOR_CUSTOMER'))).toBeNull();
  });
});

describe('claim-link requests', () => {
  const scope = { orderId: ana, storeId, requestId: ben };
  const record = (
    outcome: Extract<
      Parameters<typeof claimLinksRequestDecider.decide>[0],
      { type: 'RecordClaimLinksMail' }
    >['outcome'],
  ) => ({ type: 'RecordClaimLinksMail' as const, scope, to: 'ava@example.com', outcome, now });

  it('counts failed tries and records the mail once sent, never twice', () => {
    const failed = given(claimLinksRequestDecider, [
      { type: 'ClaimLinksRequested', data: { ...scope, requestedAt: now } },
    ])
      .when(record({ sent: false, error: 'refused', nextAttemptAt: now }))
      .thenMatches([{ type: 'ClaimLinksMailFailed', data: { attempt: 1, nextAttemptAt: now } }]);
    const sent = given(claimLinksRequestDecider, failed)
      .when(record({ sent: true, claimIds: [ana], subject: 'Your claims' }))
      .thenMatches([{ type: 'ClaimLinksMailSent', data: { attempt: 2, claimIds: [ana] } }]);
    given(claimLinksRequestDecider, [...failed, ...sent])
      .when(record({ sent: true, claimIds: [ana], subject: 'Your claims' }))
      .then([]);
  });
});

describe("how often an order's links are mailed", () => {
  const scope = { orderId: ana, storeId, requestId: ben };
  const request = (at: string) => ({ type: 'RequestClaimLinks' as const, scope, now: at });
  it('records a request, but not another within five minutes of it', () => {
    const first = given(claimLinksRequestDecider)
      .when(request(now))
      .then([{ type: 'ClaimLinksRequested', data: { ...scope, requestedAt: now } }]);
    given(claimLinksRequestDecider, first).when(request('2025-03-01T10:04:59.000Z')).then([]);
    given(claimLinksRequestDecider, first)
      .when(request('2025-03-01T10:05:00.000Z'))
      .thenMatches([{ type: 'ClaimLinksRequested' }]);
  });
});
