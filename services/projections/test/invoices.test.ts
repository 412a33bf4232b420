import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamOf, type DomainEvent, type EventEnvelope } from '@claims/contracts';
import { storeBillingDecider, type StoreBillingCommand, type StoreBillingState } from '@claims/domain';
import { applyEvents, invoiceRows, invoicesProjection, paymentMethodRows } from '../src/index.js';
import { projectionDatabase } from './support/projectionDatabase.js';

const storeId = randomUUID();
const otherStore = randomUUID();
const invoiceId = randomUUID();
const NOW = '2026-07-02T09:00:00.000Z';

/** A store's billing told through the real decider, as the event store would number it. */
function billing(
  store: string,
  commands: ReadonlyArray<Record<string, unknown> & { type: StoreBillingCommand['type'] }>,
): EventEnvelope[] {
  let state: StoreBillingState = storeBillingDecider.initialState;
  const envelopes: EventEnvelope[] = [];
  for (const command of commands) {
    const decided = storeBillingDecider.decide(
      { storeId: store, actorId: 'fay', now: NOW, ...command } as StoreBillingCommand,
      state,
    );
    if (!decided.ok) throw new Error(decided.error.message);
    state = decided.value.reduce(storeBillingDecider.evolve, state);
    for (const event of decided.value as DomainEvent[]) {
      envelopes.push({
        eventId: randomUUID(),
        type: event.type,
        data: event.data,
        streamId: streamOf(event).streamId,
        streamVersion: envelopes.length + 1,
        globalPosition: envelopes.length + 1,
        storeId: store,
        occurredAt: NOW,
        metadata: { actor: { type: 'user', id: 'fay' }, correlationId: 'c', causationId: null, schemaVersion: 1 },
      });
    }
  }
  return envelopes;
}

describe('invoices projection', () => {
  let db: Kysely<unknown>;
  beforeAll(async () => {
    db = await projectionDatabase([invoicesProjection]);
  });
  afterAll(async () => {
    await db.destroy();
  });

  it("lists each issued invoice with its credit notes, and each store's methods, once however often events arrive", async () => {
    const inputs = {
      currency: 'USD',
      revSharePercent: 15,
      premiums: [{ orderId: 'o1', amount: 2_000, currency: 'USD', exchangeRate: 1 }],
      payouts: [],
    };
    const events = billing(storeId, [
      { type: 'IssueInvoice', invoiceId, storeSlug: 'acme', month: '2026-06', inputs },
      {
        type: 'IssueCreditNote',
        invoiceId,
        creditNoteId: randomUUID(),
        reason: 'Charged twice',
        lines: [{ kind: 'premiums', amount: 500 }],
      },
      { type: 'SetBillingMethod', method: { kind: 'card', brand: 'Visa', last4: '4242' } },
      { type: 'SetBillingMethod', method: { kind: 'card', brand: 'Mastercard', last4: '0005' } },
    ]);
    const elsewhere = billing(otherStore, [
      {
        type: 'IssueInvoice',
        invoiceId: randomUUID(),
        storeSlug: 'kumo',
        month: '2026-06',
        inputs: { ...inputs, currency: 'JPY' },
      },
    ]);
    await applyEvents(db, invoicesProjection, [...events, ...elsewhere]);
    await applyEvents(db, invoicesProjection, events);

    const [invoice, ...others] = await invoiceRows(db, { storeIds: [storeId] });
    expect(others).toEqual([]);
    expect(invoice).toMatchObject({
      id: invoiceId,
      number: 'ACME-2026-06',
      month: '2026-06',
      currency: 'USD',
      revSharePercent: 15,
      total: 1_700,
      issuedBy: 'fay',
      issuedAt: NOW,
      lines: [
        { kind: 'premiums', amount: 2_000 },
        { kind: 'rev_share', amount: -300 },
        { kind: 'claims', amount: 0 },
      ],
      creditNotes: [
        {
          number: 'ACME-2026-06-CN1',
          invoiceId,
          lines: [{ kind: 'premiums', amount: -500 }],
          total: -500,
          reason: 'Charged twice',
        },
      ],
    });
    expect((await invoiceRows(db, { storeIds: null, month: '2026-06' })).map((i) => i.number).sort()).toEqual([
      'ACME-2026-06',
      'KUMO-2026-06',
    ]);
    expect(await invoiceRows(db, { storeIds: null, month: '2026-05' })).toEqual([]);
    expect(await paymentMethodRows(db, storeId)).toEqual({
      billing: { method: { kind: 'card', brand: 'Mastercard', last4: '0005' }, setAt: NOW, setBy: 'fay' },
      payout: null,
    });
  });
});
