import { createHash, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import {
  FINANCE_EVENT_TYPES,
  FinanceEvent,
  type Actor,
  type DomainEvent,
  type EventEnvelope,
  type Order,
  type ResolutionType,
  type ResolveClaimRequest,
} from '@claims/contracts';
import {
  claimDecider,
  foldEvents,
  isResolvable,
  orderClaimsDecider,
  orderPremiumDecider,
  payoutLinesOf,
  storeBillingDecider,
  storeCreditDecider,
  storePayoutsDecider,
  type ClaimStateOrNone,
  type FinanceFact,
  type InvoiceInputs,
  type OrderClaimsState,
  type OrderPremiumState,
  type StoreBillingState,
  type StoreCreditState,
  type StorePayoutsState,
} from '@claims/domain';
import { NOW } from '../../../domain/test/fixtures.js';
import { EnvelopeLog } from './envelopeLog.js';
import { demoOrder, demoStore, type DemoStore } from '../../../domain/test/demoOrders.js';

/** One thing that happens to the money, by index into what exists so far (wrapped around; skipped when nothing fits or the domain refuses). */
export type MoneyStep = { minutes: number } & (
  | { kind: 'order'; template: number; jitter: number }
  | { kind: 'removeProtection'; order: number }
  | { kind: 'changePremium'; order: number; delta: number }
  | { kind: 'file'; order: number; items: number }
  | {
      kind: 'resolve';
      claim: number;
      resolutionType: ResolutionType;
      mixed: boolean;
      amount: number;
      percentage: number;
      replacementCostPercent: number;
      bonus: number | null;
    }
  | { kind: 'redeem'; customer: number; percent: number }
  | { kind: 'adjust'; customer: number; amount: number }
  | { kind: 'batch'; store: number; approve: boolean; pay: boolean }
  | { kind: 'settle'; store: number; batch: number; pay: boolean }
  | { kind: 'reverse'; claim: number }
  | { kind: 'invoice'; store: number }
);

const index = fc.nat({ max: 1_000 });

/** Random steps of a money history: orders with premiums, claims, decisions of every type, reversals, credit, batches. */
export const moneyStep: fc.Arbitrary<MoneyStep> = fc
  .tuple(
    fc.integer({ min: 1, max: 30 * 24 * 60 }),
    fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constant('order' as const),
          template: fc.nat({ max: 2 }),
          jitter: fc.nat({ max: 500 }),
        }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('removeProtection' as const), order: index }) },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('changePremium' as const),
          order: index,
          delta: fc.integer({ min: -100, max: 300 }),
        }),
      },
      {
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constant('file' as const),
          order: index,
          items: fc.integer({ min: 1, max: 3 }),
        }),
      },
      {
        weight: 5,
        arbitrary: fc.record({
          kind: fc.constant('resolve' as const),
          claim: index,
          resolutionType: fc.constantFrom<ResolutionType>(
            'REFUND',
            'REFUND',
            'RESHIP',
            'RESHIP',
            'STORE_CREDIT',
            'STORE_CREDIT',
            'STORE_CREDIT',
            'FLAT_RATE',
            'CUSTOM',
            'DENY',
          ),
          mixed: fc.boolean(),
          amount: fc.integer({ min: 0, max: 50_000 }),
          percentage: fc.integer({ min: 0, max: 200 }).map((n) => n / 2),
          replacementCostPercent: fc.integer({ min: 0, max: 300 }).map((n) => n / 2),
          bonus: fc.option(fc.integer({ min: 0, max: 600 })),
        }),
      },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constant('redeem' as const),
          customer: index,
          percent: fc.integer({ min: 0, max: 120 }),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('adjust' as const),
          customer: index,
          amount: fc.integer({ min: -5_000, max: 5_000 }),
        }),
      },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constant('batch' as const),
          store: fc.nat({ max: 1 }),
          approve: fc.boolean(),
          pay: fc.boolean(),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('settle' as const),
          store: fc.nat({ max: 1 }),
          batch: index,
          pay: fc.boolean(),
        }),
      },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('reverse' as const), claim: index }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('invoice' as const), store: fc.nat({ max: 1 }) }) },
    ),
  )
  .map(([minutes, step]) => ({ minutes, ...step }));

const AGENT: Actor = { type: 'user', id: 'u-agent', name: 'Ana Agent' };
const SYSTEM: Actor = { type: 'system', id: 'test' };
const STORES = [demoStore('acme'), demoStore('kumo')];
/** The demo's USD and EUR orders of Acme and its JPY order of Kumo: what generated orders copy. */
const TEMPLATES: ReadonlyArray<{ order: Order; store: DemoStore }> = [
  { order: demoOrder('1001'), store: STORES[0]! },
  { order: demoOrder('1008'), store: STORES[0]! },
  { order: demoOrder('K-2001'), store: STORES[1]! },
];

const at = <T>(list: readonly T[], i: number): T | undefined => list[i % Math.max(1, list.length)];

/**
 * A money history told through the real deciders and wrapped in envelopes as the store numbers them (each event a
 * version of its stream, a global position, a time): what the live projections and the replay are both given.
 * Store credit is issued for each STORE_CREDIT line, and reclaimed when it is reversed, as the store-credit reaction does.
 */
export class MoneyHistory {
  private readonly log = new EnvelopeLog();
  readonly envelopes: EventEnvelope[] = this.log.envelopes;
  private clock = Date.parse(NOW);
  private readonly orders: Array<{
    order: Order;
    store: DemoStore;
    premium: OrderPremiumState;
    claims: OrderClaimsState;
  }> = [];
  private readonly claims: Array<{ state: ClaimStateOrNone; order: Order; store: DemoStore }> = [];
  private readonly customers: Array<{ store: DemoStore; email: string; key: string; state: StoreCreditState }> = [];
  private readonly payouts = STORES.map((store) => ({
    store,
    state: storePayoutsDecider.initialState as StorePayoutsState,
    lines: [] as Array<{ id: string; amount: number }>,
    batches: [] as string[],
  }));
  /** Every payout entry's amount, by id (a reversal of a batched one adds minus it). */
  private readonly amounts = new Map<string, number>();
  private readonly billing = STORES.map((store) => ({
    store,
    state: storeBillingDecider.initialState as StoreBillingState,
  }));

  /** Each order's currency and exchange rate, as the catalog keeps them (what invoicing converts premiums with). */
  rateOf = (orderId: string): { currency: string; exchangeRate: number } | undefined => {
    const order = this.orders.find((o) => o.order.id === orderId)?.order;
    return order && { currency: order.currency, exchangeRate: order.exchangeRate };
  };

  /**
   * The month an `invoice` step bills (the one before the history's clock, so it has ended) and its store, for the
   * caller to read the live ledger's inputs with (as issuing does) before `issueInvoice`.
   */
  invoiceDue(step: Extract<MoneyStep, { kind: 'invoice' }>): { storeId: string; currency: string; month: string } {
    const now = new Date(this.clock);
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
    const { store } = this.billing[step.store]!;
    return { storeId: store.id, currency: store.currency, month };
  }

  /** Issues the store's invoice for the month from the inputs the live ledger gave (skipped when the domain refuses: invoiced already). */
  issueInvoice(step: Extract<MoneyStep, { kind: 'invoice' }>, month: string, inputs: InvoiceInputs): this {
    this.clock += step.minutes * 60_000;
    const entry = this.billing[step.store]!;
    const decided = storeBillingDecider.decide(
      {
        type: 'IssueInvoice',
        storeId: entry.store.id,
        actorId: 'fay',
        now: new Date(this.clock).toISOString(),
        invoiceId: randomUUID(),
        storeSlug: entry.store.slug,
        month,
        inputs,
      },
      entry.state,
    );
    if (!decided.ok) return this;
    entry.state = foldEvents(storeBillingDecider, decided.value, entry.state);
    this.record(decided.value, entry.store.id, AGENT);
    return this;
  }

  play(step: MoneyStep): this {
    this.clock += step.minutes * 60_000;
    const now = new Date(this.clock).toISOString();
    switch (step.kind) {
      case 'order': {
        const template = TEMPLATES[step.template]!;
        const n = this.orders.length;
        const order: Order = {
          ...template.order,
          id: randomUUID(),
          orderNumber: `${template.order.orderNumber}-${n}`,
          customerEmail: `shopper${n}@example.com`,
          policy: { ...template.order.policy!, premiumPaid: template.order.policy!.premiumPaid + step.jitter },
        };
        const entry = {
          order,
          store: template.store,
          premium: orderPremiumDecider.initialState,
          claims: orderClaimsDecider.initialState,
        };
        this.orders.push(entry);
        this.recordPolicy(entry, order, now);
        return this;
      }
      case 'removeProtection':
      case 'changePremium': {
        const entry = at(this.orders, step.order);
        if (!entry) return this;
        const policy = entry.order.policy!;
        const next =
          step.kind === 'removeProtection'
            ? { ...entry.order, protected: false }
            : { ...entry.order, policy: { ...policy, premiumPaid: Math.max(0, policy.premiumPaid + step.delta) } };
        this.recordPolicy(entry, next, now);
        return this;
      }
      case 'file': {
        // An order with an item no claim holds yet (the domain refuses a second claim on an item).
        const entry = at(
          this.orders.filter((o) =>
            o.order.fulfillments[0]!.items.some((i) => !o.claims.claimedItemIds.has(i.sourceItemId)),
          ),
          step.order,
        );
        if (!entry) return this;
        const fulfillment = entry.order.fulfillments[0]!;
        const items = fulfillment.items
          .filter((i) => !entry.claims.claimedItemIds.has(i.sourceItemId))
          .slice(0, step.items);
        const claimId = randomUUID();
        const decided = orderClaimsDecider.decide(
          {
            order: entry.order,
            settings: { ...entry.store.settings, claimWaitDays: 0, claimWindowDays: 3650 },
            type: 'FileClaim',
            claimId,
            claimNumber: String(10_000 + this.claims.length),
            tokenHash: 'h',
            itemIds: items.map(() => randomUUID()),
            now,
            request: {
              email: entry.order.customerEmail,
              fulfillmentIssues: [
                {
                  sourceFulfillmentId: fulfillment.sourceFulfillmentId,
                  issues: items.map((i) => ({
                    sourceItemId: i.sourceItemId,
                    claimType: 'DAMAGED',
                    quantity: 1,
                    details: 'broken',
                    images: [],
                  })),
                },
              ],
              resolution: { desiredMethod: 'REFUND', customerSignature: 'A Shopper' },
            },
          },
          entry.claims,
        );
        if (!decided.ok) return this;
        entry.claims = foldEvents(orderClaimsDecider, decided.value, entry.claims);
        const filed = decided.value.filter((e) => e.type === 'ClaimFiled');
        this.claims.push({ state: foldEvents(claimDecider, filed), order: entry.order, store: entry.store });
        this.record(decided.value, entry.store.id, { type: 'customer', id: entry.order.customerEmail });
        return this;
      }
      case 'resolve':
        this.resolve(step, now);
        return this;
      case 'redeem': {
        const customer = at(this.customers, step.customer);
        if (!customer) return this;
        this.credit(
          customer,
          {
            type: 'RedeemStoreCredit',
            amount: Math.floor((customer.state.balance * step.percent) / 100),
            reference: 'ORDER-1',
          },
          now,
        );
        return this;
      }
      case 'adjust': {
        const customer = at(this.customers, step.customer);
        if (customer)
          this.credit(customer, { type: 'AdjustStoreCredit', amount: step.amount, reason: 'goodwill' }, now);
        return this;
      }
      case 'batch': {
        const ledger = this.payouts[step.store]!;
        const batchId = randomUUID();
        if (
          !this.payStep(ledger, {
            type: 'CreatePayoutBatch',
            storeId: ledger.store.id,
            batchId,
            currency: ledger.store.currency,
            entries: ledger.lines,
            actorId: 'fay',
            now,
          })
        )
          return this;
        ledger.batches.push(batchId);
        if (step.approve) this.settleBatch(ledger, batchId, step.pay, now);
        return this;
      }
      case 'reverse': {
        const claim = at(
          this.claims.filter((c) => (c.state?.resolutions.length ?? 0) > 0),
          step.claim,
        );
        if (!claim?.state) return this;
        const state = claim.state;
        const decided = claimDecider.decide(
          {
            type: 'ReverseResolution',
            claimId: state.id,
            storeId: state.storeId,
            clawbackEntryIds: state.resolutions.map(() => randomUUID()),
            reason: 'Charged back',
            actor: AGENT,
            now,
          },
          state,
        );
        if (!decided.ok) return this;
        claim.state = foldEvents(claimDecider, decided.value, state);
        this.record(decided.value, claim.store.id, AGENT);
        // As the ledger does: a pending line leaves the pending ones; a batched one gets a pending clawback.
        const ledger = this.payouts.find((p) => p.store.id === claim.store.id)!;
        for (const event of decided.value) {
          if (event.type !== 'ClaimResolutionReversed') continue;
          for (const { resolutionId, clawbackEntryId } of event.data.lines) {
            const amount = this.amounts.get(resolutionId);
            if (amount === undefined) continue;
            ledger.lines = ledger.lines.filter((l) => l.id !== resolutionId);
            if (ledger.state.batched.has(resolutionId)) {
              ledger.lines.push({ id: clawbackEntryId, amount: -amount });
              this.amounts.set(clawbackEntryId, -amount);
            }
          }
          const customer = this.customers.find(
            (c) => c.store.id === claim.store.id && c.email === state.customer.email.trim().toLowerCase(),
          );
          if (!customer) continue;
          for (const { resolutionId } of event.data.lines)
            this.credit(
              customer,
              { type: 'ReclaimStoreCredit', claimId: state.id, resolutionId, reason: 'Charged back' },
              now,
            );
        }
        return this;
      }
      case 'invoice':
        // Issued through invoiceDue and issueInvoice, with the live ledger's inputs.
        return this;
      case 'settle': {
        const ledger = this.payouts[step.store]!;
        const batchId = at(ledger.batches, step.batch);
        if (!batchId) return this;
        this.settleBatch(ledger, batchId, step.pay, now);
        return this;
      }
      default: {
        const exhaustive: never = step;
        return exhaustive;
      }
    }
  }

  /** The finance events as the replay reads them: parsed by the finance schema, with their envelopes' id and time. */
  facts(): FinanceFact[] {
    const types = new Set<string>(FINANCE_EVENT_TYPES);
    return this.envelopes
      .filter((e) => types.has(e.type))
      .map((e) => ({
        ...FinanceEvent.parse({ type: e.type, data: e.data }),
        eventId: e.eventId,
        occurredAt: e.occurredAt,
      }));
  }

  private recordPolicy(entry: (typeof this.orders)[number], order: Order, now: string): void {
    const decided = orderPremiumDecider.decide({ type: 'RecordOrderPolicy', order, now }, entry.premium);
    if (!decided.ok) return;
    entry.order = order;
    entry.premium = foldEvents(orderPremiumDecider, decided.value, entry.premium);
    this.record(decided.value, entry.store.id, SYSTEM);
  }

  private resolve(step: Extract<MoneyStep, { kind: 'resolve' }>, now: string): void {
    const claim = at(
      this.claims.filter((c) => c.state && isResolvable(c.state)),
      step.claim,
    );
    if (!claim?.state) return;
    const { state, store } = claim;
    const decimal = state.currency === 'JPY' ? step.amount : step.amount / 100;
    const request: ResolveClaimRequest =
      step.resolutionType === 'FLAT_RATE' || step.resolutionType === 'CUSTOM'
        ? { resolutionType: step.resolutionType, reason: 'OTHER', amount: decimal }
        : step.resolutionType === 'DENY'
          ? { resolutionType: 'DENY', reason: 'OTHER' }
          : {
              resolutionType: step.resolutionType,
              reason: 'OTHER',
              items: state.items.map((item, n) =>
                step.mixed && n > 0
                  ? { claimItemId: item.id, resolutionType: 'DENY', reason: 'OTHER' }
                  : { claimItemId: item.id, percentage: step.percentage },
              ),
            };
    const credit = store.settings.credit;
    const decided = claimDecider.decide(
      {
        type: 'ResolveClaim',
        claimId: state.id,
        resolutionIds: state.items.map(() => randomUUID()),
        actor: AGENT,
        now,
        request,
        capabilities: store.settings.capabilities,
        // The store's rules of the day, recorded with the decision: they change from one decision to the next.
        valuation: {
          storeCurrency: store.currency,
          exchangeRate: claim.order.exchangeRate,
          rules: { replacementCostPercent: step.replacementCostPercent },
          credit: { ...credit, bonus: step.bonus ?? credit.bonus },
        },
      },
      state,
    );
    if (!decided.ok) return;
    claim.state = foldEvents(claimDecider, decided.value, state);
    this.record(decided.value, store.id, AGENT);
    const resolved = decided.value[0]!;
    if (resolved.type !== 'ClaimResolved') return;
    const lines = payoutLinesOf(resolved.data, state.currency);
    this.payouts
      .find((p) => p.store.id === store.id)!
      .lines.push(...lines.map((l) => ({ id: l.id, amount: l.amount })));
    for (const line of lines) this.amounts.set(line.id, line.amount);
    const email = state.customer.email.trim().toLowerCase();
    for (const line of lines.filter((l) => l.resolutionType === 'STORE_CREDIT')) {
      let customer = this.customers.find((c) => c.store.id === store.id && c.email === email);
      if (!customer) {
        customer = {
          store,
          email,
          key: createHash('sha256').update(email).digest('hex'),
          state: storeCreditDecider.initialState,
        };
        this.customers.push(customer);
      }
      this.credit(
        customer,
        { type: 'IssueStoreCredit', amount: line.amount, claimId: state.id, resolutionId: line.id },
        now,
      );
    }
  }

  private credit(
    customer: (typeof this.customers)[number],
    command:
      | { type: 'IssueStoreCredit'; amount: number; claimId: string; resolutionId: string }
      | { type: 'RedeemStoreCredit'; amount: number; reference: string }
      | { type: 'AdjustStoreCredit'; amount: number; reason: string }
      | { type: 'ReclaimStoreCredit'; claimId: string; resolutionId: string; reason: string },
    now: string,
  ): void {
    const scope = {
      storeId: customer.store.id,
      customerEmail: customer.email,
      customerKey: customer.key,
      currency: customer.store.currency,
      now,
    };
    const decided = storeCreditDecider.decide({ ...scope, ...command }, customer.state);
    if (!decided.ok) return;
    customer.state = foldEvents(storeCreditDecider, decided.value, customer.state);
    this.record(decided.value, customer.store.id, SYSTEM);
  }

  /** A second person approves the batch (cole, not its maker fay) and, with `pay`, fay pays it by wire. */
  private settleBatch(ledger: (typeof this.payouts)[number], batchId: string, pay: boolean, now: string): void {
    this.payStep(ledger, { type: 'ApprovePayoutBatch', storeId: ledger.store.id, batchId, actorId: 'cole', now });
    if (pay)
      this.payStep(ledger, {
        type: 'PayPayoutBatch',
        storeId: ledger.store.id,
        batchId,
        reference: 'WIRE',
        actorId: 'fay',
        now,
      });
  }

  private payStep(
    ledger: (typeof this.payouts)[number],
    command: Parameters<typeof storePayoutsDecider.decide>[0],
  ): boolean {
    const decided = storePayoutsDecider.decide(command, ledger.state);
    if (!decided.ok) return false;
    ledger.state = foldEvents(storePayoutsDecider, decided.value, ledger.state);
    ledger.lines = ledger.lines.filter((l) => !ledger.state.batched.has(l.id));
    this.record(decided.value, ledger.store.id, AGENT);
    return true;
  }

  private record(events: readonly DomainEvent[], storeId: string, actor: Actor): void {
    for (const event of events) {
      this.log.append(event, storeId, new Date(this.clock).toISOString(), actor);
      // Events of one step share its moment; the next step's come later.
      this.clock += 1;
    }
  }
}
