import { AdminOrderRefList, AdminOrderView, FileClaimResponse, type StaffFileClaimRequest } from '@claims/contracts';
import { request } from '@claims/ui/http';

const orderPath = (orderId: string, rest = '') => `admin/orders/${encodeURIComponent(orderId)}${rest}`;

/** The order page's calls: the order, its protection and a claim filed for the shopper. */
export const orderApi = {
  find: (ref: string) => request('GET', 'admin/orders', { query: { ref }, schema: AdminOrderRefList }),
  order: (orderId: string) => request('GET', orderPath(orderId), { schema: AdminOrderView }),
  addProtection: (orderId: string, expectedVersion: number, premiumPaid?: number) =>
    request('POST', orderPath(orderId, '/protection'), {
      body: { premiumPaid, expectedVersion },
      schema: AdminOrderView,
    }),
  removeProtection: (orderId: string, expectedVersion: number) =>
    request('DELETE', orderPath(orderId, '/protection'), { query: { expectedVersion }, schema: AdminOrderView }),
  fileClaim: (orderId: string, body: StaffFileClaimRequest) =>
    request('POST', orderPath(orderId, '/claims'), { body, schema: FileClaimResponse }),
};
