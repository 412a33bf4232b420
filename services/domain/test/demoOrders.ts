import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DemoData, Order, toMinor, type StoreSettings } from '@claims/contracts';
import { NOW } from './fixtures.js';

const demo = DemoData.parse(
  JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../../fixtures/demo.json'), 'utf8')),
);

/** A stable uuid named by a text (for the demo's stores and orders, which the fixture names by slug and number). */
export function uuidOf(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export interface DemoStore {
  id: string;
  slug: string;
  currency: string;
  settings: StoreSettings;
}

export function demoStore(slug: string): DemoStore {
  const store = demo.stores.find((s) => s.slug === slug);
  if (!store) throw new Error(`fixtures/demo.json has no store ${slug}`);
  return { id: uuidOf(`store:${slug}`), slug, currency: store.currency, settings: store.settings };
}

const daysAgo = (days: number | undefined) =>
  days === undefined ? null : new Date(Date.parse(NOW) - days * 86_400_000).toISOString();

/** A demo order (fixtures/demo.json) in minor units as the catalog keeps it, its days counted back from the fixtures' NOW. */
export function demoOrder(orderNumber: string): Order {
  const o = demo.orders.find((x) => x.orderNumber === orderNumber);
  if (!o) throw new Error(`fixtures/demo.json has no order ${orderNumber}`);
  const minor = (value: number) => toMinor(value, o.currency);
  return Order.parse({
    id: uuidOf(`order:${orderNumber}`),
    storeId: demoStore(o.store).id,
    sourceOrderId: o.sourceOrderId,
    orderNumber: o.orderNumber,
    customerEmail: o.customerEmail,
    currency: o.currency,
    exchangeRate: o.exchangeRate,
    createdAt: daysAgo(o.createdDaysAgo),
    protected: o.protected,
    policy: o.policy && {
      insuredAmount: toMinor(o.policy.insuredAmount, o.policy.premiumCurrency),
      premiumPaid: toMinor(o.policy.premiumPaid, o.policy.premiumCurrency),
      premiumCurrency: o.policy.premiumCurrency,
      removedAt: null,
    },
    shippingCost: minor(o.shippingCost),
    shippingCostTax: minor(o.shippingCostTax),
    tax: minor(o.tax),
    shippingAddress: o.shippingAddress,
    items: o.items.map((item) => ({
      ...item,
      price: minor(item.price),
      tax: minor(item.tax),
      discount: minor(item.discount),
    })),
    fulfillments: o.fulfillments.map(({ shippedDaysAgo, deliveredDaysAgo, ...f }) => ({
      ...f,
      shippedAt: daysAgo(shippedDaysAgo),
      deliveredAt: daysAgo(deliveredDaysAgo),
    })),
  });
}
