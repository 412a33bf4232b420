import { createHash, randomUUID } from 'node:crypto';
import {
  EVENT_SCHEMA_VERSIONS,
  claimLinksStreamOf,
  claimNotificationsStreamOf,
  orderPremiumStreamOf,
  storeCreditStreamOf,
  storePayoutsStreamOf,
  toDecimal,
  type Actor,
  type ClaimCommand,
  type CustomerIssueType,
  type DomainEvent,
  type Order,
  type ResolutionType,
  type ResolveClaimRequest,
  type StoreSettings,
  type StreamType,
  type Valuation,
} from '@claims/contracts';
import {
  claimDecider,
  decideFileClaim,
  foldEvents,
  initialOrderClaimsState,
  lineValue,
  orderPremiumDecider,
  payoutLinesOf,
  storeCreditDecider,
  storePayoutsDecider,
  type StorePayoutsState,
} from '@claims/domain';
import { NO_STREAM, type NewEvent, type StreamAppend } from '@claims/event-store';
import { pick } from './seededRandom.js';

/** A store as the generator decides for it. */
export interface StoreTerms {
  slug: string;
  storeId: string;
  currency: string;
  settings: StoreSettings;
}

/** A demo order that generated orders copy (new ids, numbers, shopper and premium), and how often. */
export interface OrderTemplate {
  store: StoreTerms;
  order: Order;
  share: number;
}

/** The mix of a realistic history (shares of orders, of claims, of resolutions). */
export const MIX = {
  claimed: 0.42,
  protectionRemoved: 0.06,
  premiumChanged: 0.03,
  resolved: 0.85,
  mixedLines: 0.2,
  redeemed: 0.35,
  adjusted: 0.05,
  reviewed: 0.3,
  /** Orders per wave; after each, every store batches the previous wave's payouts (approved; 3 of 4 paid). */
  wave: 2_000,
} as const;

const RESOLUTIONS: Record<string, ReadonlyArray<readonly [ResolutionType, number]>> = {
  // Acme offers everything; Kumo no refunds (the demo's capabilities).
  acme: [
    ['REFUND', 30],
    ['RESHIP', 20],
    ['STORE_CREDIT', 15],
    ['FLAT_RATE', 8],
    ['CUSTOM', 5],
    ['DENY', 12],
  ],
  kumo: [
    ['RESHIP', 40],
    ['STORE_CREDIT', 30],
    ['FLAT_RATE', 10],
    ['CUSTOM', 5],
    ['DENY', 15],
  ],
};
const ISSUE_TYPES: ReadonlyArray<readonly [CustomerIssueType, number]> = [
  ['DAMAGED', 35],
  ['DEFECTIVE_ITEM', 20],
  ['WRONG_ITEM', 15],
  ['MISSING_ITEM', 15],
  ['ORDER_DELIVERED_NOT_RECEIVED', 10],
  ['STOLEN', 5],
];
const SENTENCES = [
  'The parcel arrived with the box crushed on one side.',
  'Could you send a photo of the label as well?',
  'Thanks, we are looking into it with the carrier.',
  'The tracking says delivered but nothing was at the door.',
  'We have shipped a replacement; it should arrive in three to five days.',
  'I checked with the neighbours and the building office.',
  'Sorry for the trouble, and thank you for your patience.',
];

const must = <T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!result.ok) throw new Error(`the generator decided something the domain refuses: ${result.error.message}`);
  return result.value;
};

/** A payout line the generator expects the ledger to hold, for the next batch of its store. */
export interface PendingLine {
  storeId: string;
  id: string;
  amount: number;
}

/** One order's streams, appended in one transaction, and the payout lines its claim decided. */
export interface OrderUnit {
  appends: StreamAppend[];
  events: number;
  lines: PendingLine[];
}

class Streams {
  readonly appends = new Map<string, StreamAppend & { events: NewEvent[] }>();

  constructor(
    private readonly storeId: string,
    private readonly correlationId: string,
  ) {}

  add(streamId: string, streamType: StreamType, event: DomainEvent, actor: Actor): void {
    let append = this.appends.get(streamId);
    if (!append) {
      append = { streamId, streamType, storeId: this.storeId, expectedVersion: NO_STREAM, events: [] };
      this.appends.set(streamId, append);
    }
    append.events.push({
      eventId: randomUUID(),
      type: event.type,
      data: event.data,
      metadata: {
        actor,
        correlationId: this.correlationId,
        causationId: null,
        schemaVersion: EVENT_SCHEMA_VERSIONS[event.type],
      },
    });
  }
}

const SYSTEM: Actor = { type: 'system', id: 'bench' };
const AGENT: Actor = { type: 'user', id: 'bench-agent', name: 'Bench Agent' };

/**
 * Order `i`: its premium (sometimes reversed, or changed), and for about two in five a claim with its draft
 * session, mail, messages, a decision of some money type valued under the store's rules of the day, credit issued
 * and redeemed. Everything is decided by the real deciders, so the events are what the product records.
 */
export function orderUnit(
  i: number,
  templates: readonly OrderTemplate[],
  random: () => number,
  now: string,
): OrderUnit {
  let r = random();
  const template = templates.find((t) => (r -= t.share) < 0) ?? templates.at(-1)!;
  const { store } = template;
  const base = template.order;
  const email = `shopper${i}@example.com`;
  const jitter = base.currency === 'JPY' ? 50 : 200;
  const delivered = new Date(Date.parse(now) - 10 * 86_400_000).toISOString();
  const order: Order = {
    ...base,
    id: randomUUID(),
    orderNumber: `${base.orderNumber}-${i}`,
    sourceOrderId: `${base.sourceOrderId}-${i}`,
    customerEmail: email,
    policy: { ...base.policy!, premiumPaid: base.policy!.premiumPaid + Math.floor(random() * jitter) },
    fulfillments: base.fulfillments.map((f) => ({ ...f, shippedAt: delivered, deliveredAt: delivered })),
  };
  const streams = new Streams(store.storeId, `bench-${i}`);
  const lines: PendingLine[] = [];

  // The premium: recorded, then for a few orders reversed (protection removed) or changed.
  const premiumStream = orderPremiumStreamOf(order.id);
  let premium = orderPremiumDecider.initialState;
  const recordPolicy = (o: Order) => {
    const events = must(orderPremiumDecider.decide({ type: 'RecordOrderPolicy', order: o, now }, premium));
    premium = foldEvents(orderPremiumDecider, events, premium);
    for (const e of events) streams.add(premiumStream, 'order-premium', e, SYSTEM);
  };
  recordPolicy(order);

  if (random() < MIX.claimed) {
    const claimId = randomUUID();
    const shopper: Actor = { type: 'customer', id: email, name: 'A Shopper' };
    const sessionId = randomUUID();
    streams.add(
      sessionId,
      'claim-session',
      { type: 'ClaimSessionStarted', data: { sessionId, orderId: order.id, email } },
      shopper,
    );
    streams.add(
      sessionId,
      'claim-session',
      { type: 'ClaimSessionStatusChanged', data: { sessionId, status: 'SELECTING_ITEMS' } },
      shopper,
    );
    streams.add(
      sessionId,
      'claim-session',
      { type: 'ClaimSessionStatusChanged', data: { sessionId, status: 'REVIEWING' } },
      shopper,
    );

    const fulfillment = order.fulfillments[0]!;
    const items = fulfillment.items.slice(0, 1 + Math.floor(random() * Math.min(2, fulfillment.items.length)));
    const claimType = pick(random, ISSUE_TYPES);
    const filed = must(
      decideFileClaim(
        {
          type: 'FileClaim',
          claimId,
          claimNumber: String(20_000_000 + i),
          tokenHash: createHash('sha256').update(claimId).digest('hex'),
          itemIds: items.map(() => randomUUID()),
          now,
          request: {
            email,
            fulfillmentIssues: [
              {
                sourceFulfillmentId: fulfillment.sourceFulfillmentId,
                issues: items.map((item) => ({
                  sourceItemId: item.sourceItemId,
                  claimType,
                  quantity: 1,
                  details: SENTENCES[Math.floor(random() * SENTENCES.length)]!,
                  images: [],
                })),
              },
            ],
            resolution: { desiredMethod: 'RESHIP', customerSignature: 'A Shopper', updatedShippingAddress: null },
          },
        },
        {
          order,
          settings: { ...store.settings, claimWaitDays: 0, claimWindowDays: 3650 },
          orderClaims: initialOrderClaimsState(),
        },
      ),
    );
    for (const e of filed)
      streams.add(
        e.type === 'ClaimFiled' ? claimId : order.id,
        e.type === 'ClaimFiled' ? 'claim' : 'order-claims',
        e,
        shopper,
      );
    streams.add(
      sessionId,
      'claim-session',
      { type: 'ClaimSessionDeleted', data: { sessionId, reason: 'claim_filed' } },
      shopper,
    );
    const filedEvent = filed.find((e) => e.type === 'ClaimFiled')!;
    streams.add(
      claimLinksStreamOf(claimId),
      'claim-links',
      {
        type: 'ClaimLinkIssued',
        data: { claimId, tokenHash: createHash('sha256').update(`${claimId}:1`).digest('hex'), issuedAt: now },
      },
      SYSTEM,
    );
    const mail = (kind: 'claim_filed' | 'claim_resolved') =>
      streams.add(
        claimNotificationsStreamOf(claimId),
        'claim-notifications',
        {
          type: 'ClaimNotificationSent',
          data: { claimId, notificationId: randomUUID(), kind, causedBy: randomUUID(), attempt: 1, sentAt: now },
        },
        SYSTEM,
      );
    mail('claim_filed');

    let claim = foldEvents(claimDecider, [filedEvent]);
    const act = (command: ClaimCommand, actor: Actor) => {
      const events = must(claimDecider.decide(command, claim));
      claim = foldEvents(claimDecider, events, claim);
      for (const e of events) streams.add(claimId, 'claim', e, actor);
      return events;
    };
    const messages = Math.floor(random() * 5);
    for (let m = 0; m < messages; m++) {
      const fromShopper = m % 2 === 1;
      act(
        {
          type: 'SendMessage',
          claimId,
          messageId: randomUUID(),
          actor: fromShopper ? shopper : AGENT,
          senderType: fromShopper ? 'customer' : 'merchant',
          senderName: fromShopper ? 'A Shopper' : store.slug,
          messageContent: `${SENTENCES[m % SENTENCES.length]} ${SENTENCES[(m + i) % SENTENCES.length]}`,
          medias: [],
          now,
        },
        fromShopper ? shopper : AGENT,
      );
    }
    if (random() < 0.7) act({ type: 'ChangeClaimStatus', claimId, to: 'OPEN', note: null }, AGENT);

    if (random() < MIX.resolved) {
      const type = pick(random, RESOLUTIONS[store.slug]!);
      const minor = store.currency === 'JPY' ? 1 : 100;
      const request: ResolveClaimRequest =
        type === 'FLAT_RATE' || type === 'CUSTOM'
          ? {
              resolutionType: type,
              reason: 'OTHER',
              // Up to what the claimed items are worth: the domain refuses paying more than that.
              amount: toDecimal(
                Math.min(
                  Math.round((5 + random() * 55) * 100),
                  claim!.items.reduce((worth, item) => worth + Math.max(0, lineValue(item, item.quantity)), 0),
                ),
                claim!.currency,
              ),
            }
          : random() < MIX.mixedLines && claim!.items.length > 1
            ? {
                resolutionType: type,
                reason: 'OTHER',
                items: claim!.items.map((item, n) =>
                  n === 0
                    ? { claimItemId: item.id }
                    : { claimItemId: item.id, resolutionType: 'DENY', reason: 'OTHER' },
                ),
              }
            : { resolutionType: type, reason: 'OTHER' };
      // The store's rules change half-way through the history: what a replay under one candidate rule must tell apart.
      const valuation: Valuation = {
        storeCurrency: store.currency,
        exchangeRate: order.exchangeRate,
        credit: { bonus: store.settings.credit.bonus, bonusType: store.settings.credit.bonusType },
        rules: { replacementCostPercent: store.slug === 'kumo' ? 85 : i % 2 === 0 ? 100 : 90 },
      };
      const resolved = act(
        {
          type: 'ResolveClaim',
          claimId,
          resolutionIds: claim!.items.map(() => randomUUID()),
          actor: AGENT,
          now,
          request,
          capabilities: store.settings.capabilities,
          valuation,
        },
        AGENT,
      )[0]!;
      if (resolved.type !== 'ClaimResolved') throw new Error('a resolution decided something else');
      mail('claim_resolved');
      const payouts = payoutLinesOf(resolved.data, claim!.currency);
      lines.push(...payouts.map((l) => ({ storeId: store.storeId, id: l.id, amount: l.amount })));
      if (random() < MIX.reviewed)
        act(
          {
            type: 'AddReview',
            claimId,
            reviewId: randomUUID(),
            now,
            review: { rating: 1 + Math.floor(random() * 5), text: 'Quick and fair.' },
          },
          shopper,
        );

      const credits = payouts.filter((l) => l.resolutionType === 'STORE_CREDIT');
      if (credits.length > 0) {
        const customerKey = createHash('sha256').update(email).digest('hex');
        const creditStream = storeCreditStreamOf(store.storeId, customerKey);
        const scope = { storeId: store.storeId, customerEmail: email, customerKey, currency: store.currency, now };
        let credit = storeCreditDecider.initialState;
        const decide = (command: Parameters<typeof storeCreditDecider.decide>[0]) => {
          const events = must(storeCreditDecider.decide(command, credit));
          credit = foldEvents(storeCreditDecider, events, credit);
          for (const e of events) streams.add(creditStream, 'store-credit', e, SYSTEM);
        };
        for (const line of credits)
          decide({ ...scope, type: 'IssueStoreCredit', amount: line.amount, claimId, resolutionId: line.id });
        if (random() < MIX.redeemed && credit.balance > 1)
          decide({
            ...scope,
            type: 'RedeemStoreCredit',
            amount: 1 + Math.floor(random() * (credit.balance - 1)),
            reference: `order-${i}-r`,
          });
        if (random() < MIX.adjusted)
          decide({
            ...scope,
            type: 'AdjustStoreCredit',
            amount: random() < 0.5 ? 5 * minor : -Math.min(credit.balance, 5 * minor) || 5 * minor,
            reason: 'Goodwill',
          });
      }
    }
  }

  const roll = random();
  if (roll < MIX.protectionRemoved) recordPolicy({ ...order, protected: false });
  else if (roll < MIX.protectionRemoved + MIX.premiumChanged)
    recordPolicy({ ...order, policy: { ...order.policy!, premiumPaid: order.policy!.premiumPaid + 100 } });

  const appends = [...streams.appends.values()];
  return { appends, events: appends.reduce((sum, a) => sum + a.events.length, 0), lines };
}

/** A store's payouts stream as the generator keeps it: the decider's state and the stream's version. */
export interface StorePayoutsLedger {
  store: StoreTerms;
  state: StorePayoutsState;
  version: number;
}

/** A batch of the store's pending lines, approved by a second person and (3 times in 4) paid: one append. */
export function payoutBatch(
  ledger: StorePayoutsLedger,
  pending: readonly PendingLine[],
  n: number,
  now: string,
): StreamAppend | null {
  if (pending.length === 0) return null;
  const { storeId, currency } = ledger.store;
  const batchId = randomUUID();
  const decided: DomainEvent[] = [];
  const step = (command: Parameters<typeof storePayoutsDecider.decide>[0]) => {
    const events = must(storePayoutsDecider.decide(command, ledger.state));
    ledger.state = foldEvents(storePayoutsDecider, events, ledger.state);
    decided.push(...events);
  };
  step({
    type: 'CreatePayoutBatch',
    storeId,
    batchId,
    currency,
    entries: pending.map((l) => ({ id: l.id, amount: l.amount })),
    actorId: 'fay',
    now,
  });
  step({ type: 'ApprovePayoutBatch', storeId, batchId, actorId: 'cole', now });
  if (n % 4 !== 3) step({ type: 'PayPayoutBatch', storeId, batchId, reference: `WIRE-${n}`, actorId: 'fay', now });
  const append: StreamAppend = {
    streamId: storePayoutsStreamOf(storeId),
    streamType: 'store-payouts',
    storeId,
    expectedVersion: ledger.version,
    events: decided.map((e) => ({
      eventId: randomUUID(),
      type: e.type,
      data: e.data,
      metadata: { actor: AGENT, correlationId: `batch-${n}`, causationId: null, schemaVersion: 1 },
    })),
  };
  ledger.version += decided.length;
  return append;
}
