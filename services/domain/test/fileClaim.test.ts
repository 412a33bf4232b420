import { describe, expect, it } from 'vitest';
import { decideFileClaim, evolveOrderClaims, initialOrderClaimsState } from '../src/index.js';
import { deliveredDaysAgo, emptyLedger, fileClaim, order, settings } from './fixtures.js';

describe('FileClaim', () => {
  it('given an eligible order, when two of three socks are claimed, then the ledger and the claim are recorded', () => {
    const result = decideFileClaim(fileClaim(), { order, settings, orderClaims: emptyLedger() });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [ledger, filed] = result.value;
    expect(ledger).toMatchObject({ type: 'OrderItemsClaimed', data: { orderId: order.id, items: [{ sourceItemId: 'li-2', quantity: 2 }] } });
    expect(filed).toMatchObject({
      type: 'ClaimFiled',
      data: { claimType: 'DAMAGED', isOta: false, desiredMethod: 'REFUND', items: [{ sourceItemId: 'li-2', quantity: 2, price: 1800, creditStore: true }] },
    });
    // The shipment as the order had it, for analytics by carrier and shipment status.
    expect(filed!.type === 'ClaimFiled' && filed!.data.shipments).toEqual([{ sourceFulfillmentId: 'f-1', carrier: 'UPS', status: 'DELIVERED' }]);
  });

  it('refuses a claim whose email does not match the order, without saying the order exists', () => {
    const result = decideFileClaim(fileClaim({ email: 'someone@else.com' }), { order, settings, orderClaims: emptyLedger() });
    expect(result).toEqual({ ok: false, error: { code: 'order_not_found', message: expect.any(String) } });
  });

  it('refuses items that already have a claim', () => {
    const first = decideFileClaim(fileClaim(), { order, settings, orderClaims: emptyLedger() });
    if (!first.ok || first.value[0]!.type !== 'OrderItemsClaimed') throw new Error('setup');
    const ledger = evolveOrderClaims(initialOrderClaimsState(), first.value[0]!);
    const second = decideFileClaim(fileClaim(), { order, settings, orderClaims: ledger });
    expect(second.ok || second.error.code).toBe('already_claimed');
  });

  it('refuses a parcel inside the waiting period (too soon) and past the window (expired)', () => {
    const tooSoon = decideFileClaim(fileClaim(), { order: deliveredDaysAgo(1), settings, orderClaims: emptyLedger() });
    expect(tooSoon.ok || tooSoon.error).toMatchObject({ code: 'not_eligible', message: expect.stringContaining('too_soon') });
    const expired = decideFileClaim(fileClaim(), { order: deliveredDaysAgo(45), settings, orderClaims: emptyLedger() });
    expect(expired.ok || expired.error).toMatchObject({ code: 'not_eligible', message: expect.stringContaining('expired') });
  });

  it('files an unprotected order once as a one-time appeasement when the store allows it', () => {
    const unprotected = { ...order, protected: false, policy: null };
    const first = decideFileClaim(fileClaim(), { order: unprotected, settings, orderClaims: emptyLedger() });
    expect(first.ok && first.value[1]).toMatchObject({ data: { isOta: true, items: [{ creditStore: false }] } });
    if (!first.ok || first.value[0]!.type !== 'OrderItemsClaimed') throw new Error('setup');
    const ledger = evolveOrderClaims(initialOrderClaimsState(), first.value[0]!);
    const again = decideFileClaim(fileClaim({ fulfillmentIssues: [{ sourceFulfillmentId: 'f-1', issues: [{ sourceItemId: 'li-3', claimType: 'DAMAGED', quantity: 1, details: '', images: [] }] }] }),
      { order: unprotected, settings, orderClaims: ledger });
    expect(again.ok || again.error.code).toBe('not_eligible');
    const notAllowed = decideFileClaim(fileClaim(), { order: unprotected, settings: { ...settings, allowOneTimeAppeasement: false }, orderClaims: emptyLedger() });
    expect(notAllowed.ok || notAllowed.error.code).toBe('not_eligible');
  });

  it('refuses a resolution the store does not offer', () => {
    const result = decideFileClaim(fileClaim({ resolution: { desiredMethod: 'REFUND', customerSignature: 'Ava' } }),
      { order, settings: { ...settings, capabilities: { ...settings.capabilities, refund: false } }, orderClaims: emptyLedger() });
    expect(result.ok || result.error.code).toBe('unsupported_resolution');
  });

  it('keeps the later issue when the same item is reported twice (replacement per source item)', () => {
    const result = decideFileClaim(fileClaim({
      fulfillmentIssues: [{ sourceFulfillmentId: 'f-1', issues: [
        { sourceItemId: 'li-2', claimType: 'DAMAGED', quantity: 1, details: 'first', images: [] },
        { sourceItemId: 'li-2', claimType: 'WRONG_ITEM', quantity: 3, details: 'second', images: [] },
      ] }],
    }), { order, settings, orderClaims: emptyLedger() });
    expect(result.ok && result.value[1]).toMatchObject({ data: { items: [{ claimType: 'WRONG_ITEM', quantity: 3, details: 'second' }] } });
  });

  it('caps the claimed quantity at what was not refunded, and refuses a fully refunded line', () => {
    const partlyRefunded = { ...order, items: order.items.map((i) => (i.sourceItemId === 'li-2' ? { ...i, refundedQuantity: 2 } : i)) };
    const capped = decideFileClaim(fileClaim(), { order: partlyRefunded, settings, orderClaims: emptyLedger() });
    expect(capped.ok && capped.value[1]).toMatchObject({ data: { items: [{ quantity: 1 }] } });
    const refunded = { ...order, items: order.items.map((i) => (i.sourceItemId === 'li-2' ? { ...i, refundedQuantity: 3 } : i)) };
    const none = decideFileClaim(fileClaim(), { order: refunded, settings, orderClaims: emptyLedger() });
    expect(none.ok || none.error.code).toBe('invalid_quantity');
  });

  it('refuses items and shipments that are not part of the order', () => {
    const wrongShipment = decideFileClaim(fileClaim({ fulfillmentIssues: [{ sourceFulfillmentId: 'f-9', issues: [{ sourceItemId: 'li-2', claimType: 'DAMAGED', quantity: 1, details: '', images: [] }] }] }),
      { order, settings, orderClaims: emptyLedger() });
    expect(wrongShipment.ok || wrongShipment.error.code).toBe('unknown_item');
    const wrongItem = decideFileClaim(fileClaim({ fulfillmentIssues: [{ sourceFulfillmentId: 'f-1', issues: [{ sourceItemId: 'li-99', claimType: 'DAMAGED', quantity: 1, details: '', images: [] }] }] }),
      { order, settings, orderClaims: emptyLedger() });
    expect(wrongItem.ok || wrongItem.error.code).toBe('unknown_item');
  });

  it('marks a claim with items of different types as MULTIPLE', () => {
    const result = decideFileClaim(fileClaim({
      fulfillmentIssues: [{ sourceFulfillmentId: 'f-1', issues: [
        { sourceItemId: 'li-1', claimType: 'DAMAGED', quantity: 1, details: '', images: [] },
        { sourceItemId: 'li-3', claimType: 'MISSING_ITEM', quantity: 1, details: '', images: [] },
      ] }],
    }), { order, settings, orderClaims: emptyLedger() });
    expect(result.ok && result.value[1]).toMatchObject({ data: { claimType: 'MULTIPLE' } });
  });
});
