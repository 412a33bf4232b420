import { describe, it } from 'vitest';
import fc from 'fast-check';
import type { FileClaim } from '@claims/contracts';
import { orderClaimsDecider, type FileClaimOnOrder } from '../src/index.js';
import { deliveredDaysAgo, fileClaim, order, settings } from './fixtures.js';
import { given, refused } from './support/givenWhenThen.js';

type Issue = FileClaim['request']['fulfillmentIssues'][number]['issues'][number];
const issue = (sourceItemId: string, more: Partial<Issue> = {}): Issue => ({
  sourceItemId,
  claimType: 'DAMAGED',
  quantity: 1,
  details: '',
  images: [],
  ...more,
});
/** A claim reporting these issues on one shipment of the order. */
const reporting = (
  issues: Issue[],
  on: Partial<Pick<FileClaimOnOrder, 'order' | 'settings'>> = {},
  sourceFulfillmentId = 'f-1',
) => fileClaim({ fulfillmentIssues: [{ sourceFulfillmentId, issues }] }, on);
const onEmptyLedger = given(orderClaimsDecider);

describe('FileClaim', () => {
  it('given an eligible order, when two of three socks are claimed, then the ledger and the claim are recorded', () => {
    onEmptyLedger.when(fileClaim()).thenMatches([
      { type: 'OrderItemsClaimed', data: { orderId: order.id, items: [{ sourceItemId: 'li-2', quantity: 2 }] } },
      // The shipment as the order had it, for analytics by carrier and shipment status.
      {
        type: 'ClaimFiled',
        data: {
          claimType: 'DAMAGED',
          isOta: false,
          desiredMethod: 'REFUND',
          items: [{ sourceItemId: 'li-2', quantity: 2, price: 1800, creditStore: true }],
          shipments: [{ sourceFulfillmentId: 'f-1', carrier: 'UPS', status: 'DELIVERED' }],
        },
      },
    ]);
  });

  it('refuses a claim whose email does not match the order, without saying the order exists', () => {
    onEmptyLedger.when(fileClaim({ email: 'someone@else.com' })).then(refused('order_not_found'));
  });

  it('refuses items that already have a claim', () => {
    const ledger = onEmptyLedger.when(fileClaim()).thenMatches([{ type: 'OrderItemsClaimed' }, { type: 'ClaimFiled' }]);
    given(orderClaimsDecider, ledger).when(fileClaim()).then(refused('already_claimed'));
  });

  it('refuses a second filing on any item the first holds, and files one on items it does not (property)', () => {
    const items = fc.subarray(
      order.items.map((i) => i.sourceItemId),
      { minLength: 1 },
    );
    fc.assert(
      fc.property(items, items, (first, second) => {
        const firstFiling = onEmptyLedger
          .when(reporting(first.map((id) => issue(id))))
          .thenMatches([{ type: 'OrderItemsClaimed' }, { type: 'ClaimFiled' }]);
        const ledger = firstFiling.filter((e) => e.type === 'OrderItemsClaimed');
        const secondClaimId = '12222222-2222-4222-8222-222222222222';
        const secondFiling = given(orderClaimsDecider, ledger).when({
          ...reporting(second.map((id) => issue(id))),
          claimId: secondClaimId,
          claimNumber: '10002',
        });
        if (second.some((id) => first.includes(id))) secondFiling.then(refused('already_claimed'));
        else
          secondFiling.thenMatches([
            {
              type: 'OrderItemsClaimed',
              data: { claimId: secondClaimId, items: second.map((sourceItemId) => ({ sourceItemId, quantity: 1 })) },
            },
            { type: 'ClaimFiled' },
          ]);
      }),
    );
  });

  it('refuses a parcel inside the waiting period (too soon) and past the window (expired)', () => {
    onEmptyLedger.when(fileClaim({}, { order: deliveredDaysAgo(1) })).then(refused('not_eligible', 'too_soon'));
    onEmptyLedger.when(fileClaim({}, { order: deliveredDaysAgo(45) })).then(refused('not_eligible', 'expired'));
  });

  it('files an unprotected order once as a one-time appeasement when the store allows it', () => {
    const unprotected = { order: { ...order, protected: false, policy: null } };
    const first = onEmptyLedger.when(fileClaim({}, unprotected)).thenMatches([
      { type: 'OrderItemsClaimed', data: { isOta: true } },
      { type: 'ClaimFiled', data: { isOta: true, items: [{ creditStore: false }] } },
    ]);
    given(orderClaimsDecider, first)
      .when(reporting([issue('li-3')], unprotected))
      .then(refused('not_eligible'));
    onEmptyLedger
      .when(fileClaim({}, { ...unprotected, settings: { ...settings, allowOneTimeAppeasement: false } }))
      .then(refused('not_eligible'));
  });

  it('refuses a resolution the store does not offer', () => {
    const noRefunds = { settings: { ...settings, capabilities: { ...settings.capabilities, refund: false } } };
    onEmptyLedger
      .when(fileClaim({ resolution: { desiredMethod: 'REFUND', customerSignature: 'Ava' } }, noRefunds))
      .then(refused('unsupported_resolution'));
  });

  it('keeps the later issue when the same item is reported twice (replacement per source item)', () => {
    onEmptyLedger
      .when(
        reporting([
          issue('li-2', { details: 'first' }),
          issue('li-2', { claimType: 'WRONG_ITEM', quantity: 3, details: 'second' }),
        ]),
      )
      .thenMatches([
        { type: 'OrderItemsClaimed', data: { items: [{ sourceItemId: 'li-2', quantity: 3 }] } },
        { type: 'ClaimFiled', data: { items: [{ claimType: 'WRONG_ITEM', quantity: 3, details: 'second' }] } },
      ]);
  });

  it('caps the claimed quantity at what was not refunded, and refuses a fully refunded line', () => {
    const refunding = (refundedQuantity: number) => ({
      order: { ...order, items: order.items.map((i) => (i.sourceItemId === 'li-2' ? { ...i, refundedQuantity } : i)) },
    });
    onEmptyLedger
      .when(fileClaim({}, refunding(2)))
      .thenMatches([{ type: 'OrderItemsClaimed' }, { type: 'ClaimFiled', data: { items: [{ quantity: 1 }] } }]);
    onEmptyLedger.when(fileClaim({}, refunding(3))).then(refused('invalid_quantity'));
  });

  it('refuses items and shipments that are not part of the order', () => {
    onEmptyLedger.when(reporting([issue('li-2')], {}, 'f-9')).then(refused('unknown_item'));
    onEmptyLedger.when(reporting([issue('li-99')])).then(refused('unknown_item'));
  });

  it('marks a claim with items of different types as MULTIPLE', () => {
    onEmptyLedger
      .when(reporting([issue('li-1'), issue('li-3', { claimType: 'MISSING_ITEM' })]))
      .thenMatches([{ type: 'OrderItemsClaimed' }, { type: 'ClaimFiled', data: { claimType: 'MULTIPLE' } }]);
  });
});
