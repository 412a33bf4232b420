import { z } from 'zod';
import { InvoiceMonth } from '@claims/contracts';

/** The month before `now` (UTC), `YYYY-MM`: the one finance usually invoices. */
export function previousMonth(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
}

/** `/admin/invoices?store=&month=`: the store and the month drafted. */
export const InvoicesSearch = z.object({
  store: z.uuid().optional().catch(undefined),
  month: InvoiceMonth.optional().catch(undefined),
});
