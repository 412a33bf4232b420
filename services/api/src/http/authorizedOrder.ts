import type { FastifyRequest } from 'fastify';
import type { Order, Permission } from '@claims/contracts';
import type { AppContext } from '../context.js';
import { findOrderById } from '../catalog/orderRepository.js';
import { AppError } from '../platform/errors.js';

export const orderNotFound = () => new AppError('order_not_found', 'No order matches that reference.');

/** An order of a store where the caller may do `permission`: a missing order and another tenant's are the same 404. */
export async function authorizedOrder(
  ctx: AppContext,
  request: FastifyRequest,
  permission: Permission,
  orderId: string,
): Promise<Order> {
  const order = await findOrderById(ctx.database.db, orderId);
  if (!order) {
    request.requirePrincipal();
    throw orderNotFound();
  }
  request.authorize(permission, order.storeId, orderNotFound);
  return order;
}
