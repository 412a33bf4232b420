import fs from 'node:fs';
import { DemoData, OrderInput, type DemoOrder, type DomainEvent } from '@claims/contracts';
import type { AppContext, RequestMeta } from '../context.js';
import { ingestOrder } from '../catalog/ingestOrder.js';
import { findStore, upsertAccount, upsertStore } from '../catalog/storeRepository.js';
import { claimDecider, orderClaimsDecider } from '@claims/domain';
import { fileClaim } from '../customer/fileClaim.js';
import { handleCommand, loadAggregate } from '../eventsourcing/commandHandler.js';
import { loadClaim } from '../http/authorizedClaim.js';
import { storeTermsOf } from '../resolutions/resolveCommand.js';
import { randomUUID } from 'node:crypto';
import { seedDemoUsers } from '../auth/users.js';
import { initializeStoreSettings } from '../store-settings/storeSettingsStream.js';

const DAY_MS = 86_400_000;
const daysAgo = (now: string, days: number | undefined) =>
  days === undefined ? null : new Date(Date.parse(now) - days * DAY_MS).toISOString();

/** The fixture's relative days become absolute times at the moment of seeding. */
export function demoOrderToInput(order: DemoOrder, now: string): OrderInput {
  const {
    store: _s,
    sourceOrderId: _id,
    createdDaysAgo,
    existingClaims: _c,
    expect: _e,
    fulfillments,
    ...rest
  } = order;
  return OrderInput.parse({
    ...rest,
    createdAt: daysAgo(now, createdDaysAgo),
    fulfillments: fulfillments.map(({ shippedDaysAgo, deliveredDaysAgo, ...f }) => ({
      ...f,
      shippedAt: daysAgo(now, shippedDaysAgo),
      deliveredAt: daysAgo(now, deliveredDaysAgo),
    })),
  });
}

const systemMeta = (): RequestMeta => ({
  actor: { type: 'system', id: 'demo-seed', name: 'Demo data' },
  correlationId: `seed-${randomUUID()}`,
  causationId: null,
});

/** Imports a historical claim: decided like any claim, dated when the fixture says it was filed. */
function backdate(filedAt: string) {
  return (events: DomainEvent[]): DomainEvent[] =>
    events.map((event) => {
      if (event.type === 'ClaimFiled') return { ...event, data: { ...event.data, filedAt } };
      if (event.type === 'OrderItemsClaimed') return { ...event, data: { ...event.data, claimedAt: filedAt } };
      return event;
    });
}

/**
 * Seeds the demo accounts, stores and orders; safe to run on every start. Orders are refreshed so
 * their relative dates stay relative; a fixture's existing claims are filed once.
 */
export async function seedDemo(ctx: AppContext, fixturePath: string): Promise<{ orders: number; claims: number }> {
  const demo = DemoData.parse(JSON.parse(fs.readFileSync(fixturePath, 'utf8')));
  const db = ctx.database.db;
  const now = ctx.now();
  const accountIds = new Map<string, string>();
  for (const account of demo.accounts)
    accountIds.set(account.slug, await upsertAccount(db, account.slug, account.name));
  const storeIds = new Map<string, string>();
  for (const store of demo.stores) {
    const accountId = accountIds.get(store.account);
    if (!accountId) throw new Error(`Demo store ${store.slug} names unknown account ${store.account}`);
    const storeId = await upsertStore(db, { ...store, accountId });
    storeIds.set(store.slug, storeId);
    // The fixture's settings are the store's first version; a store seeded before keeps its own.
    await initializeStoreSettings(ctx, (await findStore(db, storeId))!, systemMeta());
  }
  await seedDemoUsers(ctx, demo.users);
  let claims = 0;
  for (const demoOrder of demo.orders) {
    const storeId = storeIds.get(demoOrder.store);
    if (!storeId) throw new Error(`Demo order ${demoOrder.orderNumber} names unknown store ${demoOrder.store}`);
    const { order } = await ingestOrder(
      ctx,
      storeId,
      demoOrder.sourceOrderId,
      demoOrderToInput(demoOrder, now),
      systemMeta(),
    );
    const store = (await findStore(db, storeId))!;
    for (const existing of demoOrder.existingClaims) {
      const ledger = await loadAggregate(ctx, orderClaimsDecider, order.id);
      if (ledger.state.claimedItemIds.has(existing.sourceItemId)) continue;
      const fulfillment = order.fulfillments.find((f) =>
        f.items.some((line) => line.sourceItemId === existing.sourceItemId),
      );
      const item = order.items.find((i) => i.sourceItemId === existing.sourceItemId);
      if (!fulfillment || !item)
        throw new Error(`Demo claim on ${existing.sourceItemId} of order ${order.orderNumber} names no shipped item`);
      const filed = await fileClaim(
        ctx,
        { ...order, protected: true },
        { ...store, settings: { ...store.settings, claimWaitDays: 0, claimWindowDays: 3650 } },
        {
          email: order.customerEmail,
          fulfillmentIssues: [
            {
              sourceFulfillmentId: fulfillment.sourceFulfillmentId,
              issues: [
                {
                  sourceItemId: item.sourceItemId,
                  claimType: existing.claimType,
                  quantity: item.quantity,
                  details: 'Imported with the demo data.',
                  images: [],
                },
              ],
            },
          ],
          resolution: {
            desiredMethod: existing.resolution,
            customerSignature: order.shippingAddress.name,
            updatedShippingAddress: null,
          },
        },
        systemMeta(),
        { adjust: backdate(daysAgo(now, existing.filedDaysAgo)!) },
      );
      const stored = await loadClaim(ctx, filed.claimId);
      if (!stored) throw new Error(`Demo claim ${filed.claimNumber} was not stored`);
      await handleCommand(ctx, {
        decider: claimDecider,
        streamId: filed.claimId,
        storeId,
        meta: systemMeta(),
        command: {
          type: 'ResolveClaim',
          claimId: filed.claimId,
          resolutionIds: [randomUUID()],
          actor: systemMeta().actor,
          now,
          request: { resolutionType: existing.resolution, reason: existing.resolution },
          ...(await storeTermsOf(ctx, stored.state)),
        },
      });
      claims++;
    }
  }
  ctx.log.info({ orders: demo.orders.length, claims }, 'demo data seeded');
  return { orders: demo.orders.length, claims };
}
