import { z } from 'zod';
import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AddProtectionRequest,
  AdminOrderRefList,
  AdminOrderRefQuery,
  AdminOrderView,
  FileClaimResponse,
  RemoveProtectionQuery,
  StaffFileClaimRequest,
  orderPremiumStreamOf,
  toDecimal,
  toMinor,
  type Order,
} from '@claims/contracts';
import { initialOrderClaimsState, evolveOrderClaims, orderPremiumDecider } from '@claims/domain';
import type { AppContext, RequestMeta } from '../context.js';
import { AppError } from '../platform/errors.js';
import { findStore } from '../catalog/storeRepository.js';
import { storesWith } from '../http/principal.js';
import { handleCommand, loadAggregate } from '../eventsourcing/commandHandler.js';
import { loadClaim } from '../http/authorizedClaim.js';
import { authorizedOrder, orderNotFound } from '../http/authorizedOrder.js';
import { metaOf } from '../http/requestMeta.js';
import { fileClaim } from '../customer/index.js';
import { errorResponses } from '../http/errorResponses.js';

const OrderParams = z.object({ orderId: z.uuid() });
const errors = errorResponses(400, 401, 403, 404, 409, 422);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const orderClaimsReader = { initialState: initialOrderClaimsState(), evolve: evolveOrderClaims };

/** The order page's view: the order row, its premium stream's version and the claims its claim ledger lists (each from its own stream). */
async function orderView(ctx: AppContext, order: Order): Promise<AdminOrderView> {
  const [store, premium, ledger] = await Promise.all([
    findStore(ctx.database.db, order.storeId),
    loadAggregate(ctx, orderPremiumDecider, orderPremiumStreamOf(order.id)),
    loadAggregate(ctx, orderClaimsReader, order.id),
  ]);
  if (!store) throw orderNotFound();
  const claims = await Promise.all(
    ledger.state.claims.map(async (entry) => {
      const claim = await loadClaim(ctx, entry.claimId);
      return (
        claim && {
          id: entry.claimId,
          claimNumber: entry.claimNumber,
          status: claim.state.status,
          isOta: entry.isOta,
          claimedAt: entry.claimedAt,
        }
      );
    }),
  );
  const policy = order.protected ? order.policy : null;
  return {
    id: order.id,
    store: { id: store.id, slug: store.slug, name: store.name },
    sourceOrderId: order.sourceOrderId,
    orderNumber: order.orderNumber,
    customerEmail: order.customerEmail,
    currency: order.currency,
    createdAt: order.createdAt,
    protectionStatus: !policy ? 'unprotected' : policy.removedAt ? 'removed' : 'protected',
    policy: policy && {
      insuredAmount: toDecimal(policy.insuredAmount, policy.premiumCurrency),
      premiumPaid: toDecimal(policy.premiumPaid, policy.premiumCurrency),
      premiumCurrency: policy.premiumCurrency,
      removedAt: policy.removedAt,
    },
    protectionVersion: premium.version,
    shippingAddress: order.shippingAddress,
    items: order.items.map((item) => ({
      sourceItemId: item.sourceItemId,
      sku: item.sku,
      productName: item.productName,
      ...(item.productImage ? { productImage: item.productImage } : {}),
      quantity: item.quantity,
      price: toDecimal(item.price, order.currency),
      claimed: ledger.state.claimedItemIds.has(item.sourceItemId),
    })),
    fulfillments: order.fulfillments,
    claims: claims.filter((c) => c !== null),
  };
}

/**
 * A protection change: the order's premium stream decides it (the same `RecordOrderPolicy` an order's
 * platform sends), and the order row that eligibility reads is rewritten in the same transaction.
 */
async function changeProtection(
  ctx: AppContext,
  order: Order,
  next: Order,
  meta: RequestMeta,
  expectedVersion: number | undefined,
): Promise<Order> {
  await handleCommand(ctx, {
    decider: orderPremiumDecider,
    streamId: orderPremiumStreamOf(order.id),
    storeId: order.storeId,
    meta,
    expectedVersion,
    command: { type: 'RecordOrderPolicy', order: next, now: ctx.now() },
    alongside: async (trx) => {
      await sql`update orders set doc = ${JSON.stringify(next)}::jsonb, updated_at = now() where id = ${order.id}::uuid`.execute(
        trx,
      );
    },
  });
  return next;
}

/** The desk's order page: the order, its protection (add, remove) and a claim filed by staff for the shopper. */
export const orderRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/orders',
      {
        config: { auth: 'user', permission: 'order:read' },
        schema: {
          tags: ['back-office'],
          summary:
            'The orders a system order id or a source order id names, in the stores the caller may read orders of',
          querystring: AdminOrderRefQuery,
          response: { 200: AdminOrderRefList, ...errors },
        },
      },
      async (request) => {
        const stores = storesWith(request.requirePrincipal(), 'order:read');
        const { ref } = request.query;
        const storeIds = stores === 'all' ? null : stores;
        const systemId = UUID.test(ref) ? ref.toLowerCase() : null;
        const { rows } = await sql<{
          id: string;
          store_id: string;
          order_number: string;
          source_order_id: string;
          slug: string;
          name: string;
        }>`
      select o.id, o.store_id, o.order_number, o.source_order_id, s.slug, s.name from orders o join stores s on s.id = o.store_id
      where (o.source_order_id = ${ref} or o.id = ${systemId}::uuid)
        and (${storeIds}::uuid[] is null or o.store_id = any(${storeIds}::uuid[]))
      order by s.name, o.order_number limit 20`.execute(ctx.database.db);
        return {
          data: rows.map((r) => ({
            id: r.id,
            store: { id: r.store_id, slug: r.slug, name: r.name },
            orderNumber: r.order_number,
            sourceOrderId: r.source_order_id,
          })),
        };
      },
    );

    app.get(
      '/api/admin/orders/:orderId',
      {
        config: { auth: 'user', permission: 'order:read' },
        schema: {
          tags: ['back-office'],
          summary: 'An order with its items, shipments, protection and claims',
          params: OrderParams,
          response: { 200: AdminOrderView, ...errors },
        },
      },
      async (request) => orderView(ctx, await authorizedOrder(ctx, request, 'order:read', request.params.orderId)),
    );

    app.post(
      '/api/admin/orders/:orderId/protection',
      {
        config: { auth: 'user', permission: 'protection:add' },
        schema: {
          tags: ['back-office'],
          summary: 'Protect the order (again): its premium is recorded',
          params: OrderParams,
          body: AddProtectionRequest,
          response: { 200: AdminOrderView, ...errors },
        },
      },
      async (request) => {
        const order = await authorizedOrder(ctx, request, 'protection:add', request.params.orderId);
        const principal = request.requirePrincipal();
        const current = order.protected ? order.policy : null;
        if (current && !current.removedAt) throw new AppError('invalid_transition', 'This order is already protected.');
        const { premiumPaid } = request.body;
        const restored = order.policy && premiumPaid === undefined ? { ...order.policy, removedAt: null } : null;
        if (!restored && premiumPaid === undefined) {
          throw new AppError(
            'validation_failed',
            'This order never had protection: give the premium the shopper paid.',
          );
        }
        const insured = order.items.reduce((sum, item) => sum + item.price * item.quantity, 0);
        const policy = restored ?? {
          insuredAmount: insured,
          premiumPaid: toMinor(premiumPaid ?? 0, order.currency),
          premiumCurrency: order.currency,
          removedAt: null,
        };
        const next = await changeProtection(
          ctx,
          order,
          { ...order, protected: true, policy },
          metaOf(principal, request.id),
          request.body.expectedVersion,
        );
        return orderView(ctx, next);
      },
    );

    app.delete(
      '/api/admin/orders/:orderId/protection',
      {
        config: { auth: 'user', permission: 'protection:remove' },
        schema: {
          tags: ['back-office'],
          summary: "Remove the order's protection: its premium is reversed",
          params: OrderParams,
          querystring: RemoveProtectionQuery,
          response: { 200: AdminOrderView, ...errors },
        },
      },
      async (request) => {
        const order = await authorizedOrder(ctx, request, 'protection:remove', request.params.orderId);
        const principal = request.requirePrincipal();
        if (!order.protected || !order.policy || order.policy.removedAt)
          throw new AppError('invalid_transition', 'This order is not protected.');
        const next = { ...order, policy: { ...order.policy, removedAt: ctx.now() } };
        return orderView(
          ctx,
          await changeProtection(ctx, order, next, metaOf(principal, request.id), request.query.expectedVersion),
        );
      },
    );

    app.post(
      '/api/admin/orders/:orderId/claims',
      {
        config: { auth: 'user', permission: 'claim:create' },
        schema: {
          tags: ['back-office'],
          summary: "File a claim for the shopper (the portal's FileClaim, the staff member as its actor)",
          params: OrderParams,
          body: StaffFileClaimRequest,
          response: { 201: FileClaimResponse, ...errors },
        },
      },
      async (request, reply) => {
        const order = await authorizedOrder(ctx, request, 'claim:create', request.params.orderId);
        const store = await findStore(ctx.database.db, order.storeId);
        if (!store) throw orderNotFound();
        const filed = await fileClaim(
          ctx,
          order,
          store,
          { ...request.body, email: order.customerEmail },
          metaOf(request.requirePrincipal(), request.id),
        );
        return reply.code(201).send(filed);
      },
    );
  };
